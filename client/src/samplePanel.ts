// "Rollout Lens: Open Sample": a panel beside the log showing one sample as the server's sample
// view model (shared/sampleViewModel.ts) describes it, rendered by dist/sampleView.js under the
// same strict CSP as the run view (shared/runViewPage.ts). Opened from the hover's link, a sample
// in the Groups view, or the palette (the sample under the cursor). Stepping to a sibling opens
// that sample here and reveals its line in the log.
import * as vscode from 'vscode';
import type { SampleNavigationParams, SampleViewParams } from '../../shared/protocol';
import { SAMPLE_VIEW_STYLES } from '../../shared/runViewStyles';
import type { SampleView } from '../../shared/sampleViewModel';
import { revealLine } from './commands';
import type { ServerApi } from './serverApi';
import { createViewPanel, showViewPage } from './viewPanel';
import { parseSamplePageMessage } from '../../shared/webviewMessages';

export interface SamplePanelState {
  uri: vscode.Uri;
  /** 0-based. */
  line: number;
  model: SampleView;
  html: string;
  /** The page's script ran and drew the model (it says so by message). */
  rendered: boolean;
}

/** The (uri, 0-based line) an "Open Sample" invocation points at: arguments, a tree node, else the cursor. */
export function sampleTarget(arg?: unknown, line?: unknown): { uri: vscode.Uri; line: number } | undefined {
  if (typeof arg === 'string' && typeof line === 'number') return { uri: vscode.Uri.parse(arg), line };
  if (arg instanceof vscode.Uri && typeof line === 'number') return { uri: arg, line };
  if (arg && typeof arg === 'object' && 'location' in arg) {
    const loc = (arg as { location?: { uri: vscode.Uri; line: number } }).location;
    if (loc) return { uri: loc.uri, line: loc.line };
  }
  const editor = vscode.window.activeTextEditor;
  return editor ? { uri: editor.document.uri, line: editor.selection.active.line } : undefined;
}

export class SamplePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private stateValue: SamplePanelState | undefined;
  private readonly changed = new vscode.EventEmitter<SamplePanelState>();
  /** Fires each time the panel shows a sample (tests wait on it). */
  readonly onDidShow = this.changed.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ServerApi,
  ) {}

  get state(): SamplePanelState | undefined {
    return this.stateValue;
  }

  /** Shows the sample on a line; `quiet`: say nothing when there is none (the caller does something else). */
  async open(uri: vscode.Uri, line: number, quiet = false): Promise<SamplePanelState | undefined> {
    const params: SampleViewParams = { uri: uri.toString(), line };
    const model = await this.server.sampleView(params);
    if (!model) {
      if (!quiet) void vscode.window.showInformationMessage(`Rollout Lens: no sample on line ${line + 1}`);
      return undefined;
    }
    if (!this.panel) {
      this.panel = createViewPanel(this.extensionUri, {
        viewType: 'rolloutLens.sample',
        title: 'Sample',
        column: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        onMessage: (m) => void this.onMessage(m),
        onDispose: () => {
          this.panel = undefined;
          this.stateValue = undefined;
        },
      });
    }
    // The server names the file relative to its workspace folder, a `.pt` sample by its place in the dump.
    this.panel.title = model.title;
    const html = showViewPage(this.extensionUri, this.panel, {
      model,
      dataId: 'sample-view-model',
      title: `Sample ${model.title}`,
      script: 'sampleView.js',
      styles: SAMPLE_VIEW_STYLES,
    });
    this.stateValue = { uri, line, model, html, rendered: false };
    this.changed.fire(this.stateValue);
    return this.stateValue;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const state = this.stateValue;
    const m = parseSamplePageMessage(raw);
    if (!state || !m) return;
    if (m.type === 'rendered') {
      state.rendered = true;
      return;
    }
    // Only lines of the shown group: the page cannot send the panel elsewhere.
    if (!state.model.siblings.some((s) => s.line === m.line)) return;
    await this.open(state.uri, m.line - 1);
    await revealLine(state.uri, m.line - 1);
  }

  /** Steps to the previous (-1) or next (+1) sibling, as the page's buttons do. */
  async step(delta: -1 | 1): Promise<SamplePanelState | undefined> {
    const state = this.stateValue;
    if (!state) return undefined;
    // Members this file lacks (shown as missing) have no line to step to.
    const list = state.model.siblings.filter((s) => s.line !== null);
    const here = list.findIndex((s) => s.current);
    const target = list[here + delta];
    if (here < 0 || !target) return undefined;
    await this.onMessage({ type: 'sibling', line: target.line });
    return this.stateValue;
  }

  /**
   * Steps to the next (1) or previous (-1) failed sample or dropped group of the shown sample's
   * file, as the server finds it; says so when there is none that way.
   */
  async navigate(target: SampleNavigationParams['target'], direction: 1 | -1): Promise<SamplePanelState | undefined> {
    const state = this.stateValue;
    if (!state) return undefined;
    const r = await this.server.sampleNavigation({ uri: state.uri.toString(), line: state.line, target, direction });
    if (r.line === null) {
      const what = target === 'failedSample' ? 'failed sample' : 'dropped group';
      void vscode.window.showInformationMessage(`Rollout Lens: no ${direction === 1 ? 'next' : 'previous'} ${what} in ${state.model.file}`);
      return undefined;
    }
    const shown = await this.open(state.uri, r.line);
    await revealLine(state.uri, r.line);
    return shown;
  }

  dispose(): void {
    this.panel?.dispose();
    this.changed.dispose();
  }
}
