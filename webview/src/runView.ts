// The run view page's script (bundled with Chart.js by esbuild into dist/runView.js): reads the
// model from the page's JSON element and draws the charts and tables. Log strings (reasons,
// causes, paths, excerpts) are hostile: they only ever reach the page through textContent, and
// Chart.js draws labels on a canvas. In VS Code, a click on a bar asks the extension to reveal that
// step and reason in the Groups view; in the report it opens the reason's sample list.
import Chart from 'chart.js/auto';
import type { RunView, StepRow } from '../../shared/runViewModel';
import { tooltipLabel, vscode } from './page';
import { charts, colours, stepCharts } from './runCharts';
import { renderEval, renderFindings, renderReasons } from './runTables';

/** What a click on a bar sends to the extension. */
export interface RevealMessage {
  type: 'reveal';
  step: number | null;
  reason: string | null;
  sources: string[];
}

function stepLabel(row: StepRow): string {
  return row.step === null ? row.files[0] : String(row.step);
}

function render(model: RunView): void {
  const app = document.getElementById('app')!;
  const t = model.totals;
  document.getElementById('summary')!.textContent =
    `${t.files} file${t.files === 1 ? '' : 's'}, ${model.steps.length} step${model.steps.length === 1 ? '' : 's'}: ` +
    `${t.groups} groups, ${t.kept} kept, ${t.dropped} dropped; ${t.droppedTokens} of ${t.totalTokens} response tokens were in dropped groups`;
  const labels = model.steps.map(stepLabel);
  const colour = colours(model.reasons);

  if (model.steps.length > 0) stepCharts(app, model, labels, colour, reveal);

  if (model.eval.length > 0) renderEval(app, model.eval);
  renderReasons(app, model, colour);
  renderFindings(app, model);
}

function reveal(row: StepRow | undefined, reason: string | null): void {
  if (!row) return;
  if (vscode) {
    const message: RevealMessage = { type: 'reveal', step: row.step, reason, sources: row.sources };
    vscode.postMessage(message);
    return;
  }
  if (reason === null) return;
  const model = current;
  const i = model ? model.reasons.findIndex((r) => r.reason === reason) : -1;
  const d = document.getElementById(`reason-${i}`) as HTMLDetailsElement | null;
  if (!d) return;
  for (const other of document.querySelectorAll('details.highlight')) other.classList.remove('highlight');
  d.open = true;
  d.classList.add('highlight');
  d.scrollIntoView({ block: 'center' });
}

let current: RunView | null = null;

function start(): void {
  const data = document.getElementById('run-view-model');
  if (!data) return;
  const body = getComputedStyle(document.body);
  Chart.defaults.color = body.color;
  Chart.defaults.font.family = body.fontFamily;
  Chart.defaults.plugins.tooltip.callbacks.label = tooltipLabel;
  current = JSON.parse(data.textContent ?? 'null') as RunView;
  render(current);
  document.body.dataset.rendered = String(charts.length);
  vscode?.postMessage({ type: 'rendered', charts: charts.length });
}

start();
