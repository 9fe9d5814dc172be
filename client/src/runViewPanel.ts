// "Rollout Lens: Open Run View": a webview panel drawing the run view model (fetched from the
// server, shared/runViewModel.ts) with the same page and chart script as `rollout-lens report`
// (shared/runViewPage.ts, dist/runView.js). Strict CSP: nonce'd script loaded from the extension's
// dist/ only (localResourceRoots), no inline handler, no remote source. A click on a bar reveals
// that step and cause in the Groups view; a click on a listed sample opens its line.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { runViewHtml } from '../../shared/runViewPage';
import type { RunView } from '../../shared/runViewModel';
import { RUN_VIEW_STYLES } from '../../shared/runViewStyles';
import { revealLine } from './commands';
import type { GroupsTreeProvider } from './groupsTree';
import type { ServerApi } from './serverApi';
import type { TreeNode } from './treeNodes';
import type { ViewTarget } from './viewTarget';

/** A message from the page, checked field by field (the page renders hostile text). */
type PageMessage = { type: 'reveal'; step: number | null; reason: string | null; sources: string[] } | { type: 'open'; source: string; line: number };

export function parsePageMessage(m: unknown): PageMessage | null {
  if (!m || typeof m !== 'object') return null;
  const o = m as Record<string, unknown>;
  if (o.type === 'reveal') {
    const step = o.step === null || (typeof o.step === 'number' && Number.isFinite(o.step)) ? (o.step as number | null) : undefined;
    const reason = o.reason === null || typeof o.reason === 'string' ? (o.reason as string | null) : undefined;
    if (step === undefined || reason === undefined || !Array.isArray(o.sources) || !o.sources.every((s) => typeof s === 'string')) return null;
    return { type: 'reveal', step, reason, sources: o.sources as string[] };
  }
  if (o.type === 'open' && typeof o.source === 'string' && typeof o.line === 'number' && Number.isInteger(o.line) && o.line >= 1) {
    return { type: 'open', source: o.source, line: o.line };
  }
  return null;
}

export interface RunViewPanelState {
  target: vscode.Uri;
  model: RunView;
  html: string;
  /** The page's script ran and drew the model (it says so by message). */
  rendered: boolean;
  /** The Groups view node the last bar click revealed. */
  revealed: TreeNode | undefined;
}

export class RunViewPanels implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private stateValue: RunViewPanelState | undefined;
  private readonly revealedEmitter = new vscode.EventEmitter<TreeNode>();
  /** Fires when a bar click revealed a node in the Groups view (tests wait on it). */
  readonly onDidReveal = this.revealedEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ServerApi,
    private readonly groups: GroupsTreeProvider,
    private readonly groupsView: vscode.TreeView<TreeNode>,
    private readonly target: ViewTarget,
    private readonly inspect: (uri: vscode.Uri) => Promise<void>,
  ) {}

  get state(): RunViewPanelState | undefined {
    return this.stateValue;
  }

  /** Opens (or re-renders) the panel for a log or a run folder. */
  async open(uri: vscode.Uri): Promise<RunViewPanelState> {
    const model = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Rollout Lens: run view' }, () =>
      this.server.runView(uri),
    );
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('rolloutLens.runView', 'Run View', vscode.ViewColumn.Beside, {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        localResourceRoots: [dist],
      });
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.stateValue = undefined;
      });
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m));
    }
    const webview = this.panel.webview;
    const name = uri.path.split('/').filter(Boolean).pop() ?? uri.path;
    this.panel.title = `Run View: ${name}`;
    const html = runViewHtml({
      model,
      title: `Run view: ${vscode.workspace.asRelativePath(uri)}`,
      nonce: randomBytes(18).toString('base64'),
      script: { src: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'runView.js')).toString() },
      styles: RUN_VIEW_STYLES,
      cspSource: webview.cspSource,
    });
    webview.html = html;
    this.panel.reveal(undefined, true);
    this.stateValue = { target: uri, model, html, revealed: undefined, rendered: false };
    return this.stateValue;
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'rendered' && this.stateValue) {
      this.stateValue.rendered = true;
      return;
    }
    const m = parsePageMessage(raw);
    if (!m || !this.stateValue) return;
    if (m.type === 'open') {
      await revealLine(m.source, m.line - 1);
      return;
    }
    await this.reveal(m.sources, m.reason);
  }

  /** Shows the run in the Groups view and selects the step's cause (else the step's file). */
  async reveal(sources: readonly string[], reason: string | null): Promise<TreeNode | undefined> {
    const state = this.stateValue;
    if (!state) return undefined;
    if (this.target.current?.toString() !== state.target.toString()) await this.inspect(state.target);
    // The step file's cause bucket (its groups), else the run total's row for that step.
    const bucket = (n: TreeNode) => reason !== null && sources.some((src) => n.id === `${src}|reason|${reason}`);
    const runStep = (n: TreeNode) => reason !== null && sources.some((src) => n.id === `${state.target}|run|${reason}|${src}`);
    const found = this.groups.find(bucket) ?? this.groups.find(runStep) ?? this.groups.find((n) => sources.some((src) => n.id === `${src}|file`));
    if (!found) return undefined;
    await vscode.commands.executeCommand('rolloutLens.groups.focus');
    await this.groupsView.reveal(found, { select: true, focus: true, expand: true });
    state.revealed = found;
    this.revealedEmitter.fire(found);
    return found;
  }

  /** Sends a message as the page would (tests drive the click path through it). */
  async receive(message: unknown): Promise<void> {
    await this.onMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    this.revealedEmitter.dispose();
  }
}
