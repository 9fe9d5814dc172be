// The diff page's script (bundled with Chart.js by esbuild into dist/diffView.js, inlined by
// `rollout-lens diff --out`): reads the diff from the page's JSON element and draws both runs'
// charts overlaid, the baseline dashed and the candidate solid: drop rate by cause per paired
// rollout step, the step totals, and each eval dataset's score and pass@k. The gate, causes,
// datasets and flipped prompts are static HTML the CLI wrote (escaped there). Log strings
// (reasons, dataset names, paths) reach the page only through textContent or a canvas.
import Chart from 'chart.js/auto';
import type { DiffChartData, DiffDelta } from '../../shared/diffViewModel';
import { el, section, tooltipLabel } from './page';
import { canvasIn, charts } from './runCharts';

const PALETTE = ['#cf222e', '#0969da', '#1a7f37', '#8250df', '#bf8700', '#e16f24', '#6e7781', '#bf3989', '#116329', '#54aeff'];
const BASELINE_DASH = [6, 4];

type Side = 'baseline' | 'candidate';

function stepLabel(b: number | null, c: number | null): string {
  return b === c ? String(b ?? '?') : `${b ?? '?'} → ${c ?? '?'}`;
}

function series(label: string, colour: string, side: Side, data: (number | null)[]) {
  return {
    label: `${label} (${side})`,
    data,
    borderColor: colour,
    backgroundColor: colour,
    borderDash: side === 'baseline' ? BASELINE_DASH : [],
    spanGaps: true,
  };
}

function percent(d: DiffDelta, side: Side): number | null {
  const v = d[side];
  return v === null ? null : v * 100;
}

function lineChart(parent: HTMLElement, id: string, labels: string[], datasets: ReturnType<typeof series>[], yTitle: string, small = false): void {
  charts.push(
    new Chart(canvasIn(parent, id, small), {
      type: 'line',
      data: { labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { title: { display: true, text: 'step (baseline → candidate)' } }, y: { beginAtZero: true, title: { display: true, text: yTitle } } },
        plugins: { legend: { position: 'bottom' } },
      },
    }),
  );
}

function rolloutCharts(app: HTMLElement, diff: DiffChartData): void {
  const steps = diff.steps.filter((s) => s.kind === 'rollout');
  if (steps.length === 0) return;
  const labels = steps.map((s) => stepLabel(s.baseline, s.candidate));
  const reasons = [...new Set(steps.flatMap((s) => Object.keys(s.causes)))].sort();
  const causes = section(
    app,
    'Drops by cause per step',
    'Dropped groups for each reason as a share of the step’s groups (%): the baseline dashed, the candidate solid.',
  );
  lineChart(
    causes,
    'chart-diff-causes',
    labels,
    reasons.flatMap((r, i) => {
      const colour = PALETTE[i % PALETTE.length];
      return (['baseline', 'candidate'] as const).map((side) =>
        series(
          r,
          colour,
          side,
          steps.map((s) => (s.causes[r] ? percent(s.causes[r], side) : 0)),
        ),
      );
    }),
    'dropped groups (%)',
  );
  const totals = section(app, 'Step totals', 'Drop rate and zero-std share (%), and the mean reward: the baseline dashed, the candidate solid.');
  lineChart(
    totals,
    'chart-diff-drop-rate',
    labels,
    (['baseline', 'candidate'] as const).flatMap((side) => [
      series(
        'drop rate',
        PALETTE[0],
        side,
        steps.map((s) => percent(s.dropRate, side)),
      ),
      series(
        'zero-std share',
        PALETTE[2],
        side,
        steps.map((s) => percent(s.zeroStdShare, side)),
      ),
    ]),
    '%',
    true,
  );
  lineChart(
    totals,
    'chart-diff-reward',
    labels,
    (['baseline', 'candidate'] as const).map((side) =>
      series(
        'reward mean',
        PALETTE[1],
        side,
        steps.map((s) => s.rewardMean[side]),
      ),
    ),
    'reward mean',
    true,
  );
}

function evalCharts(app: HTMLElement, diff: DiffChartData): void {
  if (diff.datasets.length === 0) return;
  const s = section(app, 'Eval: score and pass@k per dataset', 'Each dataset at each paired eval step: the baseline grey, the candidate blue.');
  diff.datasets.forEach((d, i) => {
    s.appendChild(el('h3', `${d.name} (step ${stepLabel(d.baselineStep, d.candidateStep)})`));
    const keys = ['score', ...Object.keys(d.passAtK).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))];
    const value = (key: string, side: Side) => (key === 'score' ? d.score[side] : (d.passAtK[key]?.[side] ?? null));
    charts.push(
      new Chart(canvasIn(s, `chart-diff-eval-${i}`, true), {
        type: 'bar',
        data: {
          labels: keys,
          datasets: [
            { label: 'baseline', data: keys.map((k) => value(k, 'baseline')), backgroundColor: '#8c959f' },
            { label: 'candidate', data: keys.map((k) => value(k, 'candidate')), backgroundColor: '#0969da' },
          ],
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { y: { beginAtZero: true } },
          plugins: { legend: { position: 'bottom' } },
        },
      }),
    );
  });
}

function start(): void {
  const data = document.getElementById('diff-model');
  if (!data) return;
  const body = getComputedStyle(document.body);
  Chart.defaults.color = body.color;
  Chart.defaults.font.family = body.fontFamily;
  Chart.defaults.plugins.tooltip.callbacks.label = tooltipLabel;
  const diff = JSON.parse(data.textContent ?? 'null') as DiffChartData;
  const app = document.getElementById('app')!;
  rolloutCharts(app, diff);
  evalCharts(app, diff);
  if (charts.length === 0) section(app, 'Nothing to chart', 'No paired rollout step and no eval dataset.');
  document.body.dataset.rendered = String(charts.length);
}

start();
