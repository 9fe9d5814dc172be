// Both runs on one chart (the comparison of the run view): per paired rollout step the drop rate,
// each cause's share and the reward mean and truncated ratio, and per eval dataset the score. The
// baseline is drawn grey and dashed, this run (the candidate) in colour and solid, and every series
// says which run it is. Chart.js draws labels on a canvas: log strings never become markup.
import Chart from 'chart.js/auto';
import type { ChartDataset } from 'chart.js';
import type { ComparedDelta, ComparedStep, RunComparison } from '../../shared/compareViewModel';
import { el } from './page';
import { canvasIn, charts, percent } from './runCharts';

export const BASELINE_COLOUR = '#8c959f';
export const CANDIDATE_COLOUR = '#0969da';
const EXTRA = ['#8250df', '#bf8700', '#1a7f37', '#cf222e', '#bc4c00', '#6e7781'];

type Series = ChartDataset<'line', (number | null)[]>;

function label(s: ComparedStep): string {
  return s.baseline === s.candidate ? String(s.candidate ?? '–') : `${s.baseline ?? '–'}→${s.candidate ?? '–'}`;
}

/** The baseline's and this run's series of one figure. */
function both(name: string, steps: ComparedStep[], figure: (s: ComparedStep) => ComparedDelta | undefined, colour = CANDIDATE_COLOUR): Series[] {
  return [
    {
      label: `baseline: ${name}`,
      data: steps.map((s) => figure(s)?.baseline ?? null),
      borderColor: colour === CANDIDATE_COLOUR ? BASELINE_COLOUR : colour,
      backgroundColor: colour === CANDIDATE_COLOUR ? BASELINE_COLOUR : colour,
      borderDash: [6, 4],
      pointStyle: 'rectRot',
    },
    { label: `this run: ${name}`, data: steps.map((s) => figure(s)?.candidate ?? null), borderColor: colour, backgroundColor: colour },
  ];
}

function lineChart(parent: HTMLElement, id: string, labels: string[], datasets: Series[], yTitle: string, asPercent: boolean, title?: string): void {
  if (title) parent.appendChild(el('p', title, 'chart-title'));
  charts.push(
    new Chart(canvasIn(parent, id, true), {
      type: 'line',
      data: { labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { title: { display: true, text: 'step (baseline→this run where they differ)' } },
          y: { beginAtZero: true, title: { display: true, text: yTitle }, ...(asPercent ? { ticks: { callback: (v) => percent(Number(v)) } } : {}) },
        },
        plugins: {
          legend: { position: 'bottom' },
          ...(asPercent ? { tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${percent(Number(item.raw))}` } } } : {}),
        },
      },
    }),
  );
}

/** The comparison's charts in `s`; `colour`: the shown run's colour per drop reason. */
export function compareCharts(s: HTMLElement, c: RunComparison, colour: Map<string, string>): void {
  const rollout = c.steps.filter((st) => st.kind === 'rollout');
  if (rollout.length > 0) {
    const labels = rollout.map(label);
    const h = document.createElement('h3');
    h.textContent = 'Both runs per paired rollout step';
    s.appendChild(h);
    lineChart(
      s,
      'chart-compare-drops',
      labels,
      both('dropped groups', rollout, (st) => st.dropRate),
      'share of the step’s groups',
      true,
    );
    // The causes whose share differs at some step (those that agree would only draw one line twice).
    const reasons = [...new Set(rollout.flatMap((st) => Object.keys(st.causes)))].filter((r) => rollout.some((st) => (st.causes[r]?.delta ?? 0) !== 0));
    if (reasons.length > 0) {
      const series = reasons.flatMap((r, i) => both(r, rollout, (st) => st.causes[r], colour.get(r) ?? EXTRA[i % EXTRA.length]));
      lineChart(s, 'chart-compare-causes', labels, series, 'share of the step’s groups', true, 'Causes whose share of a step’s groups changed');
    }
    lineChart(
      s,
      'chart-compare-reward',
      labels,
      [...both('reward mean', rollout, (st) => st.rewardMean), ...both('truncated ratio', rollout, (st) => st.truncatedRatio, '#bf8700')],
      'reward mean, truncated ratio',
      false,
      'Reward mean and truncated ratio',
    );
  }
  if (c.datasets.length > 0) {
    s.appendChild(el('p', 'Eval score per dataset (steps baseline→this run)', 'chart-title'));
    const names = c.datasets.map((d) => `${d.name} (${d.baselineStep ?? '–'}→${d.candidateStep ?? '–'})`);
    charts.push(
      new Chart(canvasIn(s, 'chart-compare-eval', true), {
        type: 'bar',
        data: {
          labels: names,
          datasets: [
            { label: 'baseline: score', data: c.datasets.map((d) => d.score.baseline), backgroundColor: BASELINE_COLOUR },
            { label: 'this run: score', data: c.datasets.map((d) => d.score.candidate), backgroundColor: CANDIDATE_COLOUR },
          ],
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { y: { beginAtZero: true, title: { display: true, text: 'eval score' } } },
          plugins: { legend: { position: 'bottom' } },
        },
      }),
    );
  }
}
