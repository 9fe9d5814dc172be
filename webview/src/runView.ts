// The run view page's script (bundled with Chart.js by esbuild into dist/runView.js): reads the
// model from the page's JSON element and draws the charts and tables. Log strings (reasons,
// causes, paths, excerpts) are hostile: they only ever reach the page through textContent, and
// Chart.js draws labels on a canvas. In VS Code, a click on a bar asks the extension to reveal that
// step and reason in the Groups view; in the report it opens the reason's sample list.
import Chart from 'chart.js/auto';
import type { RunSection, RunView, StepRow } from '../../shared/runViewModel';
import { el, section, tooltipLabel, vscode } from './page';
import { charts, colours, stepCharts } from './runCharts';
import { renderLogged, renderMismatch, renderVerlEval, verlStepCharts } from './runExtraCharts';
import { renderComparison, renderCompareHeader } from './runCompare';
import { renderPrompts } from './runPrompts';
import { renderEval, renderFindings, renderReasons } from './runTables';

function stepLabel(row: StepRow): string {
  return row.step === null ? row.files[0] : String(row.step);
}

/** The header: totals, the worst step and why (the engine's sentence), when the data was read, and a refresh button in VS Code. */
function renderHeader(model: RunView): void {
  const t = model.totals;
  const summary = document.getElementById('summary')!;
  summary.textContent =
    `${t.files} file${t.files === 1 ? '' : 's'}, ${model.steps.length} step${model.steps.length === 1 ? '' : 's'} in ${model.runs.length} run${model.runs.length === 1 ? '' : 's'}: ` +
    `${t.groups} groups, ${t.kept} kept, ${t.dropped} dropped; ${t.droppedTokens} of ${t.totalTokens} response tokens were in dropped groups`;
  const header = summary.parentElement!;
  if (model.headline !== null) header.insertBefore(el('p', `Worst step: ${model.headline}`, 'headline'), summary);
  const time = el('p', model.readAt ? `Data read at ${new Date(model.readAt).toLocaleString()}` : '', 'data-time');
  time.id = 'data-time';
  const api = vscode;
  if (api) {
    const button = el('button', 'Refresh');
    button.id = 'refresh';
    button.title = 'Read the run again';
    button.addEventListener('click', () => api.postMessage({ type: 'refresh' }));
    time.appendChild(button);
    const compare = el('button', 'Compare with Run…');
    compare.id = 'compare-with-run';
    compare.title = 'Overlay a baseline run: a run folder, a log or a run summary';
    compare.addEventListener('click', () => api.postMessage({ type: 'compare' }));
    time.appendChild(compare);
  }
  header.appendChild(time);
  if (model.comparison) renderCompareHeader(header, model.comparison);
}

/** One run's charts and tables, on its own axes (a verl run never shares miles' step axis). */
function renderRun(app: HTMLElement, model: RunView, run: RunSection, index: number, colour: Map<string, string>): void {
  const id = index === 0 ? '' : `-${index}`;
  const steps = model.steps.filter((s) => s.run === index);
  const evalRows = model.eval.filter((e) => e.run === index);
  const logged = model.logged.filter((l) => l.run === index);
  const head = el('section', null, 'run');
  // The report shows the folder given as `.`: the run is then named by its framework alone.
  head.appendChild(el('h2', run.root === '.' ? `${run.framework} run` : `${run.framework} run: ${run.root}`));
  head.appendChild(el('p', run.headline ?? 'No step dropped a group.', run.headline ? 'headline' : 'muted'));
  app.appendChild(head);
  const labels = steps.map(stepLabel);
  if (run.framework === 'verl') {
    if (steps.length > 0) verlStepCharts(app, steps, labels, id);
    if (evalRows.length > 0) renderVerlEval(app, evalRows, id);
  } else {
    if (steps.length > 0) stepCharts(app, model, steps, labels, colour, reveal, id);
    if (evalRows.length > 0) renderEval(app, evalRows, id);
  }
  if (run.mismatch) renderMismatch(app, run.mismatch, id, model.focusMismatchStep);
  renderPrompts(app, run, id);
  renderLogged(app, logged, id);
}

function render(model: RunView): void {
  const app = document.getElementById('app')!;
  renderHeader(model);
  const colour = colours(model.reasons);
  if (model.comparison) renderComparison(app, model.comparison, colour);
  model.runs.forEach((run, i) => renderRun(app, model, run, i, colour));
  if (model.runs.length === 0) section(app, 'Nothing to show', 'No rollout or eval file was found.');
  renderReasons(app, model, colour);
  renderFindings(app, model);
}

function reveal(row: StepRow | undefined, reason: string | null): void {
  if (!row) return;
  if (vscode) {
    vscode.postMessage({ type: 'reveal', step: row.step, reason, sources: row.sources });
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
