// The run view's charts that are not miles' drop charts: a verl run's own (critic/score/mean over the
// rows verl counts and over every attempt, per step; val-core per data source), and a metrics log's
// values beside the recomputed ones. Chart.js draws every label on a canvas; table cells take log
// strings through textContent only.
import Chart from 'chart.js/auto';
import type { EvalRow, LoggedRow, StepRow } from '../../shared/runViewModel';
import { canvasIn, charts, evalChart, stepLines } from './runCharts';
import { el, numCell, section } from './page';

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
