// The run in the editor, while a run folder (or a log) is inspected: its findings in the Problems
// panel for the files that are not open (an open log has the server's own diagnostics), and a
// status bar item with the run model's counts ("run: 14 of 28 groups dropped · 2 metric
// mismatches") whose tooltip names the settings file and eval config in effect; a click opens the
// run view. Both go when the inspection ends (docs/editors.md).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { RunStatusResult } from '../../shared/protocol';
import type { ServerApi } from './serverApi';
import { appendFields, plural, safeMarkdown, shownPath } from './text';
import { targetConcerns } from './viewTarget';

/** A run is read again at most this often while its files change (a folder's files are all read). */
const REFRESH_DEBOUNCE_MS = 1000;

/** The item's words: the run model's groups, the metric mismatches among its findings, and where its log-probs drift. */
export function runStatusWords(r: Pick<RunStatusResult, 'groups' | 'metricMismatches' | 'findings' | 'drift'>): string {
  const findings = r.findings.error + r.findings.warning + r.findings.information + r.findings.hint;
  let words = r.groups.total > 0 ? `run: ${r.groups.dropped} of ${plural(r.groups.total, 'group')} dropped` : `run: ${plural(findings, 'finding')}`;
  if (r.metricMismatches > 0) words += ` · ${plural(r.metricMismatches, 'metric mismatch', 'metric mismatches')}`;
  if (r.drift) words += ` · drift from step ${r.drift.step}`;
  return words;
}

/** What configured the run, for tooltips: its settings file and eval configs, relative to the workspace. */
export function contextFields(context: RunStatusResult['context']): [string, string][] {
  const settings = context.settingsFiles.map((u) => shownPath(vscode.Uri.parse(u)));
  const configs = context.evalConfigs.map((u) => shownPath(vscode.Uri.parse(u)));
  return [
    ['Settings file', settings.length > 0 ? settings.join(', ') : 'none above the run: the rolloutLens.* settings apply'],
    ['Eval config', configs.length > 0 ? configs.join(', ') : 'none found (an eval_config.yaml beside the eval logs, or rolloutLens.evalConfig)'],
  ];
}

export class RunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rolloutLens.runStatus', vscode.StatusBarAlignment.Left, 49);
  private readonly collection = vscode.languages.createDiagnosticCollection('rollout-lens-run');
  private readonly subs: vscode.Disposable[] = [];
  private targetValue: vscode.Uri | undefined;
  private result: RunStatusResult | undefined;
  /** Diagnostics by file URI, converted once per answer. */
  private converted = new Map<string, vscode.Diagnostic[]>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the item or the Problems entries changed (tests wait on it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly server: ServerApi,
    private readonly client: () => LanguageClient | undefined,
  ) {
    this.item.name = 'Rollout Lens run';
    this.subs.push(
      vscode.workspace.onDidOpenTextDocument(() => this.fill()),
      vscode.workspace.onDidCloseTextDocument(() => this.fill()),
      this.changed,
    );
  }

  /** The inspected run, while its status is shown. */
  get target(): vscode.Uri | undefined {
    return this.targetValue;
  }

  /** The last answer for the run (tests). */
  get status(): RunStatusResult | undefined {
    return this.result;
  }

  /** The item's text, undefined while hidden. */
  get text(): string | undefined {
    return this.result ? this.item.text : undefined;
  }

  get tooltip(): vscode.MarkdownString | string | undefined {
    return this.result ? this.item.tooltip : undefined;
  }

  /** What a click on the item runs. */
  get command(): vscode.Command | undefined {
    return this.result ? (this.item.command as vscode.Command | undefined) : undefined;
  }

  /** What the Problems panel holds for the run, by file URI. */
  get problems(): ReadonlyMap<string, readonly vscode.Diagnostic[]> {
    const out = new Map<string, readonly vscode.Diagnostic[]>();
    this.collection.forEach((uri, ds) => void out.set(uri.toString(), ds));
    return out;
  }

  /** Shows the run of `uri` (undefined: the inspection ended; everything goes). */
  async show(uri: vscode.Uri | undefined): Promise<void> {
    clearTimeout(this.timer);
    const mine = ++this.seq;
    if (!uri) {
      this.targetValue = undefined;
      this.clear();
      return;
    }
    if (this.targetValue?.toString() !== uri.toString()) this.clear();
    this.targetValue = uri;
    let result: RunStatusResult;
    try {
      result = await this.server.runStatus(uri);
    } catch {
      if (mine === this.seq) this.clear(); // the views say why; a stale count would mislead
      return;
    }
    const converter = this.client()?.protocol2CodeConverter;
    const converted = new Map<string, vscode.Diagnostic[]>();
    for (const f of result.files) converted.set(f.uri, converter ? await converter.asDiagnostics(f.diagnostics) : []);
    if (mine !== this.seq) return; // a newer request (or the end of the inspection) won
    this.result = result;
    this.converted = converted;
    this.fill();
    this.updateItem(uri, result);
  }

  /** A file's analysis changed: the run it belongs to is asked again (debounced). */
  analysisChanged(uri: vscode.Uri): void {
    const target = this.targetValue;
    if (!target || !targetConcerns(target, uri)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.show(target), REFRESH_DEBOUNCE_MS);
  }

  private clear(): void {
    this.result = undefined;
    this.converted = new Map();
    this.collection.clear();
    this.item.hide();
    this.changed.fire();
  }

  /** The run's diagnostics of the files that are not open (an open log has the server's own). */
  private fill(): void {
    if (!this.result) return;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    this.collection.clear();
    for (const [uri, ds] of this.converted) if (!open.has(vscode.Uri.parse(uri).toString()) && ds.length > 0) this.collection.set(vscode.Uri.parse(uri), ds);
    this.changed.fire();
  }

  private updateItem(uri: vscode.Uri, r: RunStatusResult): void {
    const f = r.findings;
    this.item.text = `$(graph) ${runStatusWords(r)}`;
    const tip = safeMarkdown();
    appendFields(tip, [
      ['Run', shownPath(uri)],
      ['Rollout steps', String(r.rolloutSteps)],
      ['Groups', `${r.groups.total}: ${r.groups.kept} kept, ${r.groups.dropped} dropped`],
      ['Findings', `${plural(f.error, 'error')}, ${plural(f.warning, 'warning')}, ${f.information} information, ${plural(f.hint, 'hint')} (in Problems)`],
      ...contextFields(r.context),
    ]);
    if (r.drift) {
      // The finding's message is log-derived numbers and names: appended as text (safeMarkdown escapes it).
      appendFields(tip, [['Log-prob drift', r.drift.message]]);
      tip.appendMarkdown(`Click to open the run view at step ${r.drift.step}.`);
    } else tip.appendMarkdown('Click to open the run view.');
    this.item.tooltip = tip;
    // With a drift, the run view opens at that step's mismatch (its worst tokens and samples shown).
    const at = r.drift ? [uri, { mismatchStep: r.drift.step }] : [uri];
    this.item.command = { title: 'Open Run View', command: 'rolloutLens.openRunView', arguments: at };
    this.item.show();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
    this.item.dispose();
  }
}
