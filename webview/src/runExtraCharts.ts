// The run view's charts that are not miles' drop charts: a verl run's own (critic/score/mean over the
// rows verl counts and over every attempt, per step; val-core per data source), and a metrics log's
// values beside the recomputed ones. Chart.js draws every label on a canvas; table cells take log
// strings through textContent only.
import Chart from 'chart.js/auto';
import type { EvalRow, LoggedRow, MismatchPlace, MismatchStep, RunMismatch, StepRow } from '../../shared/runViewModel';
import { tokenTextNote } from '../../shared/tokenLabels';
import { canvasIn, charts, evalChart, stepLines } from './runCharts';
import { el, numCell, section, vscode } from './page';

/** A verl run's steps: critic/score/mean as verl computes it (rows with output) and over every attempt, and its aborted share. */
export function verlStepCharts(app: HTMLElement, steps: StepRow[], labels: string[], id: string): void {
  const s = section(
    app,
    'critic/score/mean per step: over the rows verl counts, and over all attempts',
    'verl leaves rows with an empty output out of critic/score/*; over all attempts each of them counts with its score.',
  );
  charts.push(
    stepLines(s, `chart-verl-score${id}`, labels, [
      ['critic/score/mean (kept rows)', steps.map((row) => row.scoreMeanKept), '#0969da'],
      ['mean score over all attempts', steps.map((row) => row.scoreMeanAllAttempts), '#cf222e'],
    ]),
  );
}

/** A verl run's validation: each data source's val-core metrics per step, in a table and a chart. */
export function renderVerlEval(app: HTMLElement, rows: EvalRow[], id: string): void {
  const s = section(app, 'Validation: val-core per data source', 'The val-core metrics verl logs for each data source, recomputed from the validation dump.');
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.valCore)))].sort();
  const table = el('table');
  const head = el('tr');
  for (const h of ['step', 'data source', 'samples', ...names]) head.appendChild(el('th', h, h === 'step' || h === 'data source' ? undefined : 'num'));
  table.appendChild(head);
  for (const r of rows) {
    const tr = el('tr');
    tr.appendChild(el('td', r.step ?? r.file));
    tr.appendChild(el('td', r.dataset, 'mono'));
    tr.appendChild(el('td', r.samples, 'num'));
    for (const n of names) tr.appendChild(numCell(r.valCore[n]));
    table.appendChild(tr);
  }
  s.appendChild(table);
  evalChart(s, rows, id, 'val-core mean');
}

/** A run's logged metrics beside the recomputed ones: a table, and a chart (metrics side by side at one step, or each over its steps). */
export function renderLogged(app: HTMLElement, rows: LoggedRow[], id: string): void {
  if (rows.length === 0) return;
  const s = section(
    app,
    'Logged beside recomputed',
    'Each metric the metrics log (metrics.jsonl) holds that the run’s files give again, at the same step: the logged value and the recomputed one.',
  );
  const table = el('table');
  const head = el('tr');
  for (const h of ['metric', 'step', 'logged', 'recomputed']) head.appendChild(el('th', h, h === 'metric' ? undefined : 'num'));
  table.appendChild(head);
  for (const r of rows) {
    const tr = el('tr', null, r.logged === r.recomputed ? undefined : 'wrong');
    tr.appendChild(el('td', r.metric, 'mono'));
    tr.appendChild(el('td', r.step, 'num'));
    tr.appendChild(numCell(r.logged));
    tr.appendChild(numCell(r.recomputed));
    table.appendChild(tr);
  }
  s.appendChild(table);
  const steps = [...new Set(rows.map((r) => r.step))].sort((a, b) => a - b);
  const metrics = [...new Set(rows.map((r) => r.metric))];
  if (steps.length === 1) {
    charts.push(
      new Chart(canvasIn(s, `chart-logged${id}`, true), {
        type: 'bar',
        data: {
          labels: metrics,
          datasets: [
            { label: 'logged', data: metrics.map((m) => rows.find((r) => r.metric === m)?.logged ?? null), backgroundColor: '#8c959f' },
            { label: 'recomputed', data: metrics.map((m) => rows.find((r) => r.metric === m)?.recomputed ?? null), backgroundColor: '#0969da' },
          ],
        },
        options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { beginAtZero: true } } },
      }),
    );
    return;
  }
  // Several steps: one small chart per metric (the first few), logged and recomputed over the steps.
  metrics.slice(0, 6).forEach((m, i) => {
    const of = rows.filter((r) => r.metric === m);
    const at = (step: number) => of.find((r) => r.step === step);
    s.appendChild(el('h3', m, 'mono'));
    charts.push(
      stepLines(s, `chart-logged${id}-${i}`, steps.map(String), [
        ['logged', steps.map((st) => at(st)?.logged ?? null), '#8c959f'],
        ['recomputed', steps.map((st) => at(st)?.recomputed ?? null), '#0969da'],
      ]),
    );
  });
}

/** Steps of the mismatch table shown (the rest said in a line under it). */
export const MAX_MISMATCH_ROWS = 500;

/**
 * A run's train–inference mismatch from its train_data: mean and p99 of |Δ log-prob| over the loss
 * mask per step, the drift finder's step marked on the chart and its finding's message as text,
 * a table of the steps, and a chosen step's worst tokens (with their text) and samples.
 */
export function renderMismatch(app: HTMLElement, m: RunMismatch, id: string, focus?: number): void {
  const s = section(
    app,
    'Train–inference log-prob mismatch per step',
    '|trainer log-prob − rollout log-prob| over the tokens in the loss mask, read from each step’s train_data: its mean and 99th percentile.',
  );
  s.id = `mismatch${id}`;
  if (m.steps.length === 0) {
    s.appendChild(
      el(
        'p',
        `The train_data of ${m.stepsWithoutLogProbs.length === 1 ? 'step' : 'steps'} ${m.stepsWithoutLogProbs.join(', ')} holds no trainer log_probs (the actor had not computed them at the dump): no mismatch to show.`,
        'muted',
      ),
    );
    return;
  }
  const drift = m.drift;
  const p = el(
    'p',
    drift === null ? 'No step leaves the band of the run’s early steps.' : `Drift from step ${drift.step}: ${drift.message}`,
    drift === null ? 'muted' : 'wrong',
  );
  p.id = `mismatch-drift${id}`;
  s.appendChild(p);
  if (m.stepsWithoutLogProbs.length > 0)
    s.appendChild(el('p', `No trainer log_probs in the train_data of steps ${m.stepsWithoutLogProbs.join(', ')}.`, 'muted'));
  const labels = m.steps.map((r) => String(r.step));
  const chart = stepLines(
    s,
    `chart-mismatch${id}`,
    labels,
    [
      ['mean |Δ|', m.steps.map((r) => r.mean), '#0969da'],
      ['p99 |Δ|', m.steps.map((r) => r.p99), '#8250df'],
    ],
    true,
  );
  if (drift !== null) {
    // The drift step as a marker on the mean line (Chart.js draws it on the canvas).
    chart.data.datasets.push({
      label: `drift from step ${drift.step}`,
      data: m.steps.map((r) => (r.step === drift.step ? r.mean : null)),
      borderColor: '#cf222e',
      backgroundColor: '#cf222e',
      pointStyle: 'triangle',
      pointRadius: 9,
      showLine: false,
    });
    chart.update();
  }
  charts.push(chart);
  const details = el('details');
  details.appendChild(el('summary', 'Steps'));
  const table = el('table');
  table.id = `mismatch-steps${id}`;
  const head = el('tr');
  for (const h of ['step', 'tokens', 'mean |Δ|', 'p50', 'p99', 'max', 'worst sample']) head.appendChild(el('th', h, h === 'worst sample' ? undefined : 'num'));
  table.appendChild(head);
  for (const r of m.steps.slice(0, MAX_MISMATCH_ROWS)) {
    const tr = el('tr', null, drift !== null && r.step === drift.step ? 'wrong' : undefined);
    tr.append(el('td', r.step, 'num'), el('td', r.tokens, 'num'), numCell(r.mean), numCell(r.p50), numCell(r.p99), numCell(r.max));
    const w = r.worstSamples[0];
    tr.appendChild(w === undefined ? el('td', '–', 'mono') : placeCell(w, `sample ${w.sample}`));
    table.appendChild(tr);
  }
  details.appendChild(table);
  if (m.steps.length > MAX_MISMATCH_ROWS) details.appendChild(el('p', `… ${m.steps.length - MAX_MISMATCH_ROWS} more steps`, 'muted'));
  s.appendChild(details);
  renderWorst(s, m, id, focus);
}

/**
 * A worst sample's or token's place: `sample N (file:line)`; in VS Code a click opens its sample
 * view (the panel opens only a run file's line it was sent), in a report the place is the text.
 */
function placeCell(w: MismatchPlace, label: string): HTMLTableCellElement {
  const td = el('td', w.file !== null && w.line !== null ? `${label} (${w.file}:${w.line})` : label, 'mono');
  const api = vscode;
  const source = w.source;
  const line = w.line;
  if (api && source !== null && line !== null) {
    td.className = 'mono reveal';
    td.title = 'Open the sample view of this sample';
    td.addEventListener('click', () => api.postMessage({ type: 'sample', source, line }));
  }
  return td;
}

/** A token's text cell: its text as text (spaces kept, edges marked by the style), else why there is none. */
function tokenTextCell(m: RunMismatch, text: string | null): HTMLTableCellElement {
  if (text === null) return el('td', m.tokenizer ? '(not in the tokenizer)' : '–', 'muted');
  const td = el('td', null, 'token-text');
  td.appendChild(el('span', text, 'mono'));
  return td;
}

/**
 * One step's worst tokens and samples, as the engine found them (the figures `check` prints), the
 * step chosen in a list: the host's focus (the status bar's drift), else the drift step, else the
 * step of the largest mean.
 */
function renderWorst(s: HTMLElement, m: RunMismatch, id: string, focus: number | undefined): void {
  const box = el('div');
  box.id = `mismatch-worst${id}`;
  const pick = el('select');
  pick.id = `mismatch-step-pick${id}`;
  let chosen = m.steps.findIndex((r) => r.step === (focus ?? m.drift?.step));
  if (chosen < 0) chosen = m.steps.reduce((best, r, i) => (r.mean > m.steps[best].mean ? i : best), 0);
  m.steps.forEach((r, i) => {
    const o = el('option', `step ${r.step}`);
    o.value = String(i);
    if (i === chosen) o.selected = true;
    pick.appendChild(o);
  });
  const label = el('p', 'Worst tokens and samples of ');
  label.appendChild(pick);
  s.appendChild(label);
  s.appendChild(box);
  const draw = (r: MismatchStep) => {
    box.replaceChildren();
    const tokens = el('table');
    tokens.id = `mismatch-worst-tokens${id}`;
    const head = el('tr');
    for (const h of ['sample', 'position', 'token id', 'text', 'rollout', 'trainer', '|Δ|'])
      head.appendChild(el('th', h, h === 'sample' || h === 'text' ? undefined : 'num'));
    tokens.appendChild(head);
    for (const t of r.worstTokens) {
      const tr = el('tr');
      tr.append(
        placeCell(t, `sample ${t.sample}`),
        el('td', t.position, 'num'),
        el('td', t.token === null ? '–' : String(t.token), 'num mono'),
        tokenTextCell(m, t.text),
        numCell(t.rolloutLogProb),
        numCell(t.trainLogProb),
        numCell(t.absDiff),
      );
      tokens.appendChild(tr);
    }
    box.appendChild(el('h3', `Worst tokens of step ${r.step}`));
    box.appendChild(tokens);
    const note = el('p', tokenTextNote(m), 'muted');
    note.id = `mismatch-token-text${id}`;
    box.appendChild(note);
    const samples = el('table');
    samples.id = `mismatch-worst-samples${id}`;
    const shead = el('tr');
    for (const h of ['sample', 'tokens', 'mean |Δ|', 'max |Δ|']) shead.appendChild(el('th', h, h === 'sample' ? undefined : 'num'));
    samples.appendChild(shead);
    for (const w of r.worstSamples) {
      const tr = el('tr');
      tr.append(placeCell(w, `sample ${w.sample}`), el('td', w.tokens, 'num'), numCell(w.mean), numCell(w.max));
      samples.appendChild(tr);
    }
    box.appendChild(el('h3', `Worst samples of step ${r.step}`));
    box.appendChild(samples);
  };
  pick.addEventListener('change', () => draw(m.steps[Number(pick.value)]));
  if (m.steps.length > 0) draw(m.steps[chosen]);
  if (focus !== undefined && m.steps[chosen]?.step === focus) s.scrollIntoView({ block: 'start' });
}
