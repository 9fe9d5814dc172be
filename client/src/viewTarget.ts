// What the views show: a file or folder the user chose to inspect, else the log in the active
// editor tab. Tabs rather than text editors, because a huge log (above VS Code's sync limit) has a
// tab but no TextEditor. Choosing another log outside the inspected folder follows that log.
import * as vscode from 'vscode';
import { isLogFileName } from '../../shared/logFiles';

export function isLogUri(uri: vscode.Uri | undefined): uri is vscode.Uri {
  return !!uri && (uri.scheme === 'file' || uri.scheme === 'untitled' || uri.scheme === 'vscode-remote') && isLogFileName(uri.path);
}

function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText) return input.uri;
  const editor = vscode.window.activeTextEditor;
  return editor?.document.uri;
}

/** Whether a result for `uri` can change what a view of `target` (a log or a folder) shows. */
export function targetConcerns(target: vscode.Uri, uri: vscode.Uri): boolean {
  return target.toString() === uri.toString() || isInside(target, uri);
}

function isInside(folder: vscode.Uri, uri: vscode.Uri): boolean {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.scheme === folder.scheme && (uri.path === folder.path || uri.path.startsWith(base));
}

export class ViewTarget implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subs: vscode.Disposable[] = [];
  private inspectedValue: vscode.Uri | undefined;
  private activeValue: vscode.Uri | undefined;

  constructor() {
    this.activeValue = this.readActive();
    this.subs.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.onActiveMaybeChanged()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.onActiveMaybeChanged()),
      vscode.window.onDidChangeActiveTextEditor(() => this.onActiveMaybeChanged()),
    );
  }

  /** The log in the active tab (kept while a non-log editor is active). */
  get activeLog(): vscode.Uri | undefined {
    const now = activeTabUri();
    return isLogUri(now) ? now : undefined;
  }

  get inspected(): vscode.Uri | undefined {
    return this.inspectedValue;
  }

  /** The file or folder the views show. */
  get current(): vscode.Uri | undefined {
    return this.inspectedValue ?? this.activeValue;
  }

  /** Shows a chosen file or folder until a log outside it becomes active. */
  inspect(uri: vscode.Uri | undefined): void {
    this.inspectedValue = uri;
    this.emitter.fire();
  }

  /** Whether a result for `uri` can change what the views show. */
  concerns(uri: vscode.Uri): boolean {
    const cur = this.current;
    return !!cur && targetConcerns(cur, uri);
  }

  private readActive(): vscode.Uri | undefined {
    const now = activeTabUri();
    return isLogUri(now) ? now : this.activeValue;
  }

  private onActiveMaybeChanged(): void {
    const before = this.activeValue?.toString();
    this.activeValue = this.readActive();
    if (this.activeValue?.toString() === before) {
      this.emitter.fire(); // the status bar follows non-log editors too (it hides)
      return;
    }
    if (
      this.inspectedValue &&
      this.activeValue &&
      !isInside(this.inspectedValue, this.activeValue) &&
      this.inspectedValue.toString() !== this.activeValue.toString()
    ) {
      this.inspectedValue = undefined;
    }
    this.emitter.fire();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.emitter.dispose();
  }
}
