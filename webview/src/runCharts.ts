// The run view's charts (Chart.js draws every label on a canvas, so log strings never become
// markup): groups per step by cause, zero-std drops by reward, reward mean and truncated ratio,
// response length, the tokens spent on dropped groups, and eval scores. A click on a bar calls
// `reveal` with that step and cause.
import Chart from 'chart.js/auto';
import type { ChartDataset, ChartOptions } from 'chart.js';
import type { EvalRow, ReasonInfo, RunView, StepRow } from '../../shared/runViewModel';
import { el, section } from './page';

/** Every chart drawn, in order (the page reports their count once rendered). */
export const charts: Chart[] = [];

const INFRA = ['#d1242f', '#e16f24', '#bf8700', '#a0111f', '#fb8f44', '#cf222e'];
const POLICY = ['#0969da', '#8250df', '#1f6feb', '#6639ba', '#54aeff', '#bf3989'];
const OTHER = ['#6e7781', '#8c959f', '#57606a', '#424a53'];
const ZERO = ['#1a7f37', '#2da44e', '#4ac26b', '#116329', '#6fdd8b', '#0e4429'];

/** A colour per drop reason: reds for infrastructure causes, blues for policy ones, greens for zero-std. */
export function colours(reasons: ReasonInfo[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = { infra: 0, policy: 0, other: 0, zero: 0 };
  for (const r of reasons) {
    const [pal, key] =
      r.kind === 'zero-std'
        ? ([ZERO, 'zero'] as const)
        : r.causeClass === 'infrastructure'
          ? ([INFRA, 'infra'] as const)
          : r.causeClass === 'policy'
            ? ([POLICY, 'policy'] as const)
            : ([OTHER, 'other'] as const);
    out.set(r.reason, pal[used[key]++ % pal.length]);
  }
  return out;
}

function canvasIn(parent: HTMLElement, id: string, small = false): HTMLCanvasElement {
  const box = el('div', null, small ? 'chart small' : 'chart');
  const canvas = el('canvas');
  canvas.id = id;
  box.appendChild(canvas);
  parent.appendChild(box);
  return canvas;
}

function baseOptions(stacked: boolean, yTitle: string): ChartOptions<'bar'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'nearest', intersect: true },
    scales: {
      x: { stacked, title: { display: true, text: 'step' } },
      y: { stacked, beginAtZero: true, title: { display: true, text: yTitle } },
    },
    plugins: { legend: { position: 'bottom' } },
  };
}

/** A small line chart of per-step series (label, values, colour); the y axis from 0 when `fromZero`. */
function stepLines(parent: HTMLElement, id: string, labels: string[], series: [string, (number | null)[], string][], fromZero = false): Chart {
  return new Chart(canvasIn(parent, id, true), {
    type: 'line',
    data: { labels, datasets: series.map(([label, data, colour]) => ({ label, data, borderColor: colour, backgroundColor: colour })) },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { x: { title: { display: true, text: 'step' } }, ...(fromZero ? { y: { beginAtZero: true } } : {}) },
    },
  });
}

/** The per-step charts, each in its own section of `app`. */
export function stepCharts(
  app: HTMLElement,
  model: RunView,
  labels: string[],
  colour: Map<string, string>,
  reveal: (row: StepRow | undefined, reason: string | null) => void,
): void {
  const s = section(app, 'Groups per step: dropped by cause, and kept', 'Click a bar to see that step and cause.');
  const datasets: ChartDataset<'bar', (number | null)[]>[] = model.reasons.map((r) => ({
    label: r.reason,
    data: model.steps.map((row) => row.drops[r.reason] ?? 0),
    backgroundColor: colour.get(r.reason),
    stack: 'dropped',
  }));
  datasets.push({ label: 'kept', data: model.steps.map((row) => row.kept), backgroundColor: '#8c959f80', stack: 'kept' });
  const options = baseOptions(true, 'groups');
  options.onClick = (_event, elements) => {
    const hit = elements[0];
    if (!hit) return;
    const reason = hit.datasetIndex < model.reasons.length ? model.reasons[hit.datasetIndex].reason : null;
    reveal(model.steps[hit.index], reason);
  };
  charts.push(new Chart(canvasIn(s, 'chart-drops'), { type: 'bar', data: { labels, datasets }, options }));

  const zero = model.reasons.filter((r) => r.kind === 'zero-std');
  if (zero.length > 0) {
    const z = section(app, 'Zero-std drops by reward', 'Groups whose rewards all agree, by the reward they share (check_reward_nonzero_std).');
    const zd: ChartDataset<'bar', number[]>[] = zero.map((r) => ({
      label: r.reward ?? r.reason,
      data: model.steps.map((row) => row.zeroStdByReward[r.reward ?? ''] ?? 0),
      backgroundColor: colour.get(r.reason),
    }));
    const zo = baseOptions(true, 'groups');
    zo.onClick = (_event, elements) => {
      const hit = elements[0];
      if (hit) reveal(model.steps[hit.index], zero[hit.datasetIndex].reason);
    };
    charts.push(new Chart(canvasIn(z, 'chart-zero-std', true), { type: 'bar', data: { labels, datasets: zd }, options: zo }));
  }

  const r = section(app, 'Reward mean and truncated ratio');
  charts.push(
    stepLines(r, 'chart-reward', labels, [
      ['reward mean', model.steps.map((row) => row.rewardMean), '#0969da'],
      ['truncated ratio', model.steps.map((row) => row.truncatedRatio), '#bf8700'],
    ]),
  );
  const l = section(app, 'Response length (mean tokens)');
  charts.push(stepLines(l, 'chart-length', labels, [['response length', model.steps.map((row) => row.responseLengthMean), '#8250df']], true));
  const c = section(app, 'Rollout compute spent on dropped groups', 'Response tokens of every sample in a dropped group: generated, then thrown away.');
  charts.push(
    new Chart(canvasIn(c, 'chart-tokens', true), {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'tokens in dropped groups', data: model.steps.map((row) => row.droppedTokens), backgroundColor: '#cf222e', stack: 't' },
          { label: 'tokens in kept groups', data: model.steps.map((row) => row.totalTokens - row.droppedTokens), backgroundColor: '#8c959f80', stack: 't' },
        ],
      },
      options: baseOptions(true, 'response tokens'),
    }),
  );
}

/** The eval scores per step and dataset, under the eval table. */
export function evalChart(s: HTMLElement, rows: EvalRow[]): void {
  const steps = [...new Set(rows.map((r) => r.step))].filter((x): x is number => x !== null).sort((a, b) => a - b);
  const names = [...new Set(rows.map((r) => r.dataset))];
  if (steps.length > 0) {
    const palette = [...POLICY, ...INFRA, ...ZERO];
    charts.push(
      new Chart(canvasIn(s, 'chart-eval', true), {
        type: steps.length === 1 ? 'bar' : 'line',
        data: {
          labels: steps.map(String),
          datasets: names.map((name, i) => ({
            label: name,
            data: steps.map((st) => rows.find((r) => r.step === st && r.dataset === name)?.score ?? null),
            backgroundColor: palette[i % palette.length],
            borderColor: palette[i % palette.length],
          })),
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { title: { display: true, text: 'eval step' } }, y: { beginAtZero: true, title: { display: true, text: 'score' } } },
        },
      }),
    );
  }
}
