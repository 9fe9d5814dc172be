// The run view's charts of one run (Chart.js draws every label on a canvas, so log strings never
// become markup): dropped groups per step as a share of its groups by cause (kept groups on their
// own chart, so a 5% drop is a bar, not a sliver), zero-std drops by reward, reward mean and
// truncated ratio, response length, the tokens spent on dropped groups, and eval scores. A click on
// a bar calls `reveal` with that step and cause.
import Chart from 'chart.js/auto';
import type { ChartDataset, ChartOptions } from 'chart.js';
import type { EvalRow, ReasonInfo, RunView, StepRow } from '../../shared/runViewModel';
import { formatForPeople } from '../../shared/numberFormat';
import { el, section } from './page';

/** Every chart drawn, in order (the page reports their count once rendered). */
export const charts: Chart[] = [];

const INFRA = ['#d1242f', '#e16f24', '#bf8700', '#a0111f', '#fb8f44', '#cf222e'];
const POLICY = ['#0969da', '#8250df', '#1f6feb', '#6639ba', '#54aeff', '#bf3989'];
const OTHER = ['#6e7781', '#8c959f', '#57606a', '#424a53'];
const ZERO = ['#1a7f37', '#2da44e', '#4ac26b', '#116329', '#6fdd8b', '#0e4429'];

const PALETTES = { infrastructure: INFRA, policy: POLICY, 'zero-std': ZERO, other: OTHER } as const;

/** A colour per drop reason by its family: reds for infrastructure causes, blues for policy ones, greens for zero-std, greys for the rest. */
export function colours(reasons: ReasonInfo[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = { infrastructure: 0, policy: 0, 'zero-std': 0, other: 0 };
  for (const r of reasons) {
    const pal = PALETTES[r.family] ?? OTHER;
    out.set(r.reason, pal[used[r.family in used ? r.family : 'other']++ % pal.length]);
  }
  return out;
}

/** A share (0–1) as a percentage for people: `4.498%`. */
export function percent(share: number): string {
  return `${formatForPeople(share * 100)}%`;
}

export function canvasIn(parent: HTMLElement, id: string, small = false): HTMLCanvasElement {
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
export function stepLines(parent: HTMLElement, id: string, labels: string[], series: [string, (number | null)[], string][], fromZero = false): Chart {
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

/** The per-step charts of one run (`steps`), each in its own section of `app`; `id` suffixes the canvases' ids. */
export function stepCharts(
  app: HTMLElement,
  model: RunView,
  steps: StepRow[],
  labels: string[],
  colour: Map<string, string>,
  reveal: (row: StepRow | undefined, reason: string | null) => void,
  id = '',
): void {
  const reasons = model.reasons.filter((r) => steps.some((row) => (row.drops[r.reason] ?? 0) > 0));
  const s = section(
    app,
    'Dropped groups per step, as a share of its groups, by cause',
    'Each cause’s groups over all the step’s groups; the colour is who caused it (reds: infrastructure, blues: policy, greens: zero-std). Click a bar to see that step and cause.',
  );
  const datasets: ChartDataset<'bar', (number | null)[]>[] = reasons.map((r) => ({
    label: r.reason,
    data: steps.map((row) => row.dropShare[r.reason] ?? 0),
    backgroundColor: colour.get(r.reason),
    stack: 'dropped',
  }));
  const options = baseOptions(true, 'share of the step’s groups');
  options.scales!.y!.ticks = { callback: (v) => percent(Number(v)) };
  options.plugins!.tooltip = {
    callbacks: {
      label: (item) => {
        const row = steps[item.dataIndex];
        const reason = reasons[item.datasetIndex]?.reason ?? '';
        return `${reason}: ${percent(Number(item.raw))} (${row?.drops[reason] ?? 0} of ${row?.groups ?? 0} groups)`;
      },
    },
  };
  options.onClick = (_event, elements) => {
    const hit = elements[0];
    if (!hit) return;
    reveal(steps[hit.index], reasons[hit.datasetIndex]?.reason ?? null);
  };
  charts.push(new Chart(canvasIn(s, `chart-drops${id}`), { type: 'bar', data: { labels, datasets }, options }));

  const g = section(app, 'Groups per step: kept and dropped');
  const go = baseOptions(true, 'groups');
  go.onClick = (_event, elements) => {
    const hit = elements[0];
    if (hit) reveal(steps[hit.index], null);
  };
  charts.push(
    new Chart(canvasIn(g, `chart-groups${id}`, true), {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'kept', data: steps.map((row) => row.kept), backgroundColor: '#8c959f80', stack: 'kept' },
          { label: 'dropped', data: steps.map((row) => row.dropped), backgroundColor: '#424a53', stack: 'dropped' },
        ],
      },
      options: go,
    }),
  );

  const zero = reasons.filter((r) => r.kind === 'zero-std');
  if (zero.length > 0) {
    const z = section(app, 'Zero-std drops by reward', 'Groups whose rewards all agree, by the reward they share (check_reward_nonzero_std).');
    const zd: ChartDataset<'bar', number[]>[] = zero.map((r) => ({
      label: r.reward ?? r.reason,
      data: steps.map((row) => row.zeroStdByReward[r.reward ?? ''] ?? 0),
      backgroundColor: colour.get(r.reason),
    }));
    const zo = baseOptions(true, 'groups');
    zo.onClick = (_event, elements) => {
      const hit = elements[0];
      if (hit) reveal(steps[hit.index], zero[hit.datasetIndex].reason);
    };
    charts.push(new Chart(canvasIn(z, `chart-zero-std${id}`, true), { type: 'bar', data: { labels, datasets: zd }, options: zo }));
  }

  const r = section(app, 'Reward mean and truncated ratio');
  charts.push(
    stepLines(r, `chart-reward${id}`, labels, [
      ['reward mean', steps.map((row) => row.rewardMean), '#0969da'],
      ['truncated ratio', steps.map((row) => row.truncatedRatio), '#bf8700'],
    ]),
  );
  const l = section(app, 'Response length (mean tokens)');
  charts.push(stepLines(l, `chart-length${id}`, labels, [['response length', steps.map((row) => row.responseLengthMean), '#8250df']], true));
  const c = section(app, 'Rollout compute spent on dropped groups', 'Response tokens of every sample in a dropped group: generated, then thrown away.');
  charts.push(
    new Chart(canvasIn(c, `chart-tokens${id}`, true), {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'tokens in dropped groups', data: steps.map((row) => row.droppedTokens), backgroundColor: '#cf222e', stack: 't' },
          { label: 'tokens in kept groups', data: steps.map((row) => row.totalTokens - row.droppedTokens), backgroundColor: '#8c959f80', stack: 't' },
        ],
      },
      options: baseOptions(true, 'response tokens'),
    }),
  );
}

/** The eval scores per step and dataset, under the eval table (`score` names the y axis: miles' `eval/<ds>`, verl's val-core mean). */
export function evalChart(s: HTMLElement, rows: EvalRow[], id = '', score = 'score'): void {
  const steps = [...new Set(rows.map((r) => r.step))].filter((x): x is number => x !== null).sort((a, b) => a - b);
  const names = [...new Set(rows.map((r) => r.dataset))];
  if (steps.length > 0) {
    const palette = [...POLICY, ...INFRA, ...ZERO];
    charts.push(
      new Chart(canvasIn(s, `chart-eval${id}`, true), {
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
          scales: { x: { title: { display: true, text: 'eval step' } }, y: { beginAtZero: true, title: { display: true, text: score } } },
        },
      }),
    );
  }
}
