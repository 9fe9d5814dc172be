// Status bar item for the log in the active editor: `3 groups dropped · 2 causes`, or its finding
// count, or that it is being read. Clicking it shows the Groups by cause view.
import * as vscode from 'vscode';
import type { AnalysisState } from './analysisState';
import { baseName, plural, shownPath } from './text';
import type { ViewTarget } from './viewTarget';

/** The words of the status (without the icon). */
function statusWords(state: AnalysisState, uri: vscode.Uri): string | undefined {
  if (state.isReading(uri)) return `reading ${baseName(uri)}…`;
  const a = state.get(uri);
  if (!a) return undefined;
  if (a.dropped > 0) return `${plural(a.dropped, 'group')} dropped · ${plural(a.causes, 'cause')}`;
  if (a.findings > 0) return plural(a.findings, 'finding');
  return 'no findings';
}

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rolloutLens.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly state: AnalysisState,
    private readonly target: ViewTarget,
  ) {
    this.item.name = 'Rollout Lens';
    this.item.command = 'rolloutLens.groups.focus';
    this.subs.push(
      state.onDidChange(() => this.update()),
      target.onDidChange(() => this.update()),
    );
    this.update();
  }

  /** The item's text, `undefined` while hidden. */
  get text(): string | undefined {
    return this.visible ? this.item.text : undefined;
  }

  private visible = false;

  update(): void {
    const uri = this.target.activeLog;
    const words = uri ? statusWords(this.state, uri) : undefined;
    if (!uri || !words) {
      this.item.hide();
      this.visible = false;
      return;
    }
    const icon = this.state.isReading(uri)
      ? '$(sync~spin)'
      : (this.state.get(uri)?.dropped ?? 0) > 0
        ? '$(filter)'
        : (this.state.get(uri)?.findings ?? 0) > 0
          ? '$(warning)'
          : '$(check)';
    this.item.text = `${icon} ${words}`;
    this.item.tooltip = `Rollout Lens: ${shownPath(uri)}`;
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
