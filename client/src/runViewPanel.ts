// "Rollout Lens: Open Run View": a webview panel drawing the run view model (fetched from the
// server, shared/runViewModel.ts) with the same page and chart script as `rollout-lens report`
// (shared/runViewPage.ts, dist/runView.js). Strict CSP: nonce'd script loaded from the extension's
// dist/ only (localResourceRoots), no inline handler, no remote source. A click on a bar reveals
// that step and cause in the Groups view; a click on a listed sample opens its line, on a finding's
// place its sample view (else its line). The panel follows its run: a file watcher on the run
// folder (or the log) draws it again when a step file appears, grows, changes or goes, as do an
// analysis of an open log, "Refresh Views" and the page's Refresh button. "Compare with Run…"
// overlays a baseline run (the server's `rolloutLens/compareRuns`, shared/compareView.ts): the
// comparison is made again with each redraw, and a click on one of its samples opens the place the
// host holds under that number (the page never names a file to open).
import * as vscode from 'vscode';
import { comparisonOf } from '../../shared/compareView';
import { isLogFileName, isPtDumpName, RUN_FILE_GLOB } from '../../shared/logFiles';
import type { RunView } from '../../shared/runViewModel';
import { RUN_VIEW_STYLES } from '../../shared/runViewStyles';
import { revealLine } from './commands';
import { shownPath } from './text';
import type { GroupsTreeProvider } from './groupsTree';
import type { ServerApi } from './serverApi';
import type { TreeNode } from './treeNodes';
import { parseRunPageMessage } from '../../shared/webviewMessages';
import { createViewPanel, showViewPage } from './viewPanel';
import { targetConcerns, type ViewTarget } from './viewTarget';

/** Changes within this long of the first are drawn once (a growing log is drawn at most this often). */
export const REDRAW_DEBOUNCE_MS = 300;

export interface RunViewPanelState {
  target: vscode.Uri;
  model: RunView;
  html: string;
  /** The page's script ran and drew the model (it says so by message). */
  rendered: boolean;
  /** The Groups view node the last bar click revealed. */
  revealed: TreeNode | undefined;
  /** The baseline run the model's comparison was made with; undefined when none is shown. */
  comparedWith: vscode.Uri | undefined;
}

/** The context key of the run view's "Clear Comparison" (true while a comparison is shown). */
export const COMPARING_CONTEXT = 'rolloutLens.runViewComparing';

export class RunViewPanels implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private stateValue: RunViewPanelState | undefined;
  private readonly revealedEmitter = new vscode.EventEmitter<TreeNode>();
  /** Fires when a bar click revealed a node in the Groups view (tests wait on it). */
  readonly onDidReveal = this.revealedEmitter.event;
  private readonly redrawnEmitter = new vscode.EventEmitter<void>();
  /** Fires when the panel was drawn again after an analysis changed (tests wait on it). */
  readonly onDidRedraw = this.redrawnEmitter.event;
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  /** A redraw is under way; `redrawAgain`: something changed meanwhile. */
  private redrawing = false;
  private redrawAgain = false;
  private watcher: vscode.FileSystemWatcher | undefined;
  private watched: string | undefined;
  /** The baseline run to compare the shown run with ("Compare with Run…"). */
  private baseline: vscode.Uri | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ServerApi,
    private readonly groups: GroupsTreeProvider,
    private readonly groupsView: vscode.TreeView<TreeNode>,
    private readonly target: ViewTarget,
    private readonly inspect: (uri: vscode.Uri) => Promise<void>,
    /** Opens the sample view of a line, quietly; undefined when there is no sample there. */
    private readonly openSample: (uri: vscode.Uri, line: number) => Promise<unknown>,
  ) {}

  get state(): RunViewPanelState | undefined {
    return this.stateValue;
  }

  /** Opens (or re-renders) the panel for a log or a run folder; a comparison stays only with its own run. */
  async open(uri: vscode.Uri, reveal = true, mismatchStep?: number): Promise<RunViewPanelState> {
    if (this.stateValue && this.stateValue.target.toString() !== uri.toString()) this.baseline = undefined;
    return this.render(uri, reveal, false, mismatchStep);
  }

  /**
   * Shows the run with `baseline` overlaid (deltas, both runs' charts, flipped prompts). The run
   * view must be open; when the comparison cannot be made the page stays as it was and this throws.
   */
  async compareWith(baseline: vscode.Uri): Promise<RunViewPanelState> {
    const shown = this.stateValue?.target;
    if (!this.panel || !shown) throw new Error('open a run view first');
    const previous = this.baseline;
    this.baseline = baseline;
    try {
      return await this.render(shown, true, true);
    } catch (err) {
      this.baseline = previous;
      throw err;
    }
  }

  /** Shows the run alone again. */
  async clearComparison(): Promise<RunViewPanelState | undefined> {
    this.baseline = undefined;
    const shown = this.stateValue?.target;
    if (!this.panel || !shown) return undefined;
    return this.render(shown, false, false);
  }

  /** `strict`: a comparison that fails throws; else (a redraw) it is dropped, said once, and the run drawn alone. `mismatchStep`: the mismatch step the page opens at. */
  private async render(uri: vscode.Uri, reveal: boolean, strict: boolean, mismatchStep?: number): Promise<RunViewPanelState> {
    const baseline = this.baseline;
    const [model, diff] = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Rollout Lens: run view' }, () =>
      Promise.all([
        this.server.runView(uri),
        baseline
          ? this.server.compareRuns(baseline, uri).catch((err: unknown) => {
              if (strict) throw err;
              this.baseline = undefined;
              const why = err instanceof Error ? err.message : String(err);
              void vscode.window.showWarningMessage(`Rollout Lens: the comparison with ${shownPath(baseline)} was cleared: ${why}`);
              return undefined;
            })
          : undefined,
      ]),
    );
    if (!this.panel) {
      this.panel = createViewPanel(this.extensionUri, {
        viewType: 'rolloutLens.runView',
        title: 'Run View',
        column: vscode.ViewColumn.Beside,
        onMessage: (m) => void this.onMessage(m),
        onDispose: () => {
          this.panel = undefined;
          this.stateValue = undefined;
          this.baseline = undefined;
          void vscode.commands.executeCommand('setContext', COMPARING_CONTEXT, false);
          this.unwatch();
        },
      });
    }
    model.readAt = new Date().toISOString();
    // A redraw or a comparison of the run shown keeps the step the page was opened at (the drift
    // status item's click); another run starts from its own drift step.
    const shown = this.stateValue;
    const focus = mismatchStep ?? (shown && shown.target.toString() === uri.toString() ? shown.model.focusMismatchStep : undefined);
    if (focus !== undefined) model.focusMismatchStep = focus;
    // The server names a run by its folder on disk; people read it relative to their workspace.
    for (const run of model.runs) if (/^(?:\/|[A-Za-z]:[\\/])/.test(run.root)) run.root = shownPath(vscode.Uri.file(run.root));
    const comparedWith = diff ? baseline : undefined;
    if (comparedWith && diff) model.comparison = comparisonOf(diff, { baseline: shownPath(comparedWith), candidate: shownPath(uri) });
    this.watch(uri);
    const name = (u: vscode.Uri) => u.path.split('/').filter(Boolean).pop() ?? u.path;
    this.panel.title = comparedWith ? `Run View: ${name(uri)} against ${name(comparedWith)}` : `Run View: ${name(uri)}`;
    const html = showViewPage(this.extensionUri, this.panel, {
      model,
      title: `Run view: ${shownPath(uri)}`,
      script: 'runView.js',
      styles: RUN_VIEW_STYLES,
      reveal,
    });
    this.stateValue = { target: uri, model, html, revealed: undefined, rendered: false, comparedWith };
    void vscode.commands.executeCommand('setContext', COMPARING_CONTEXT, comparedWith !== undefined);
    return this.stateValue;
  }

  /**
   * The server's analysis of `changed` is new: when the panel shows that log or a folder holding
   * it, the page is drawn again from a fresh model, in place.
   */
  analysisChanged(changed: vscode.Uri): void {
    const state = this.stateValue;
    if (!this.panel || !state || !targetConcerns(state.target, changed)) return;
    this.scheduleRedraw();
  }

  /**
   * Draws the page again soon: the changes of a burst within REDRAW_DEBOUNCE_MS of its first are
   * drawn once (a timer already set is kept, so a log written without pause is still drawn), and
   * a change during a redraw draws once more after it.
   */
  scheduleRedraw(): void {
    if (!this.panel || this.redrawTimer !== undefined) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      void this.redraw();
    }, REDRAW_DEBOUNCE_MS);
  }

  /** Draws the shown run again now from a fresh model (Refresh Views, the page's Refresh button). */
  async redraw(): Promise<void> {
    const shown = this.stateValue?.target;
    if (!this.panel || !shown) return;
    if (this.redrawing) {
      this.redrawAgain = true;
      return;
    }
    this.redrawing = true;
    try {
      await this.open(shown, false);
      this.redrawnEmitter.fire();
    } catch {
      // The run could not be read now (a file half written): the next change draws it again.
    } finally {
      this.redrawing = false;
    }
    if (this.redrawAgain) {
      this.redrawAgain = false;
      this.scheduleRedraw();
    }
  }

  /** Watches the shown run's step files: a folder's, else the log's own. */
  private watch(target: vscode.Uri): void {
    if (this.watched === target.toString()) return;
    this.unwatch();
    const isFolder = !isLogFileName(target.path) && !isPtDumpName(target.path);
    const pattern = isFolder
      ? new vscode.RelativePattern(target, RUN_FILE_GLOB)
      : new vscode.RelativePattern(vscode.Uri.joinPath(target, '..'), target.path.split('/').pop() ?? '');
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => this.scheduleRedraw();
    watcher.onDidCreate(changed);
    watcher.onDidChange(changed);
    watcher.onDidDelete(changed);
    this.watcher = watcher;
    this.watched = target.toString();
  }

  private unwatch(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watched = undefined;
    clearTimeout(this.redrawTimer);
    this.redrawTimer = undefined;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = parseRunPageMessage(raw);
    if (!m || !this.stateValue) return;
    if (m.type === 'rendered') {
      this.stateValue.rendered = true;
      return;
    }
    if (m.type === 'refresh') {
      await this.redraw();
      return;
    }
    if (m.type === 'compare') {
      try {
        await vscode.commands.executeCommand('rolloutLens.compareWithRun');
      } catch {
        // The command said what went wrong.
      }
      return;
    }
    if (m.type === 'clearComparison') {
      await this.clearComparison();
      return;
    }
    if (m.type === 'place') {
      await this.openPlace(m.place);
      return;
    }
    if (m.type === 'open') {
      await revealLine(m.source, m.line - 1);
      return;
    }
    if (m.type === 'sample') {
      // A finding's place: its sample's view, else (a metrics log's line, a dataset's) the line itself.
      if (!(await this.openSample(vscode.Uri.parse(m.source), m.line - 1))) await revealLine(m.source, m.line - 1);
      return;
    }
    await this.reveal(m.sources, m.reason);
  }

  /**
   * Opens the comparison's place under this number (its sample's view, else the line): the host's
   * own copy of the place, so the page cannot name a file. False when there is no such place.
   */
  async openPlace(index: number): Promise<boolean> {
    const place = this.stateValue?.model.comparison?.places[index];
    if (!place) return false;
    const uri = vscode.Uri.file(place.file);
    if (!(await this.openSample(uri, place.line - 1))) await revealLine(uri, place.line - 1);
    return true;
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
    this.unwatch();
    this.panel?.dispose();
    this.revealedEmitter.dispose();
    this.redrawnEmitter.dispose();
  }
}
