// The run view page's script (bundled with Chart.js by esbuild into dist/runView.js): reads the
// model from the page's JSON element and draws the charts and tables. Log strings (reasons,
// causes, paths, excerpts) are hostile: they only ever reach the page through textContent, and
// Chart.js draws labels on a canvas. In VS Code, a click on a bar asks the extension to reveal that
// step and reason in the Groups view; in the report it opens the reason's sample list.
import Chart from 'chart.js/auto';
import type { ChartDataset, ChartOptions } from 'chart.js';
import type { EvalRow, ReasonInfo, RunView, StepRow } from '../../shared/runViewModel';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode: VsCodeApi | null = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;

/** What a click on a bar sends to the extension. */
export interface RevealMessage {
  type: 'reveal';
  step: number | null;
  reason: string | null;
  sources: string[];
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function fmt(v: number | null | undefined, digits = 4): string {
  if (v === null || v === undefined) return '–';
  return Number.isInteger(v) ? String(v) : v.toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
}

function stepLabel(row: StepRow): string {
  return row.step === null ? row.files[0] : String(row.step);
}

const INFRA = ['#d1242f', '#e16f24', '#bf8700', '#a0111f', '#fb8f44', '#cf222e'];
const POLICY = ['#0969da', '#8250df', '#1f6feb', '#6639ba', '#54aeff', '#bf3989'];
const OTHER = ['#6e7781', '#8c959f', '#57606a', '#424a53'];
const ZERO = ['#1a7f37', '#2da44e', '#4ac26b', '#116329', '#6fdd8b', '#0e4429'];

function colours(reasons: ReasonInfo[]): Map<string, string> {
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

function section(app: HTMLElement, title: string, note?: string): HTMLElement {
  const s = el('section');
  s.appendChild(el('h2', title));
  if (note) s.appendChild(el('p', note, 'muted'));
  app.appendChild(s);
  return s;
}

function canvasIn(parent: HTMLElement, id: string, small = false): HTMLCanvasElement {
  const box = el('div', null, small ? 'chart small' : 'chart');
  const canvas = el('canvas');
  canvas.id = id;
  box.appendChild(canvas);
  parent.appendChild(box);
  return canvas;
}

const charts: Chart[] = [];

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

function render(model: RunView): void {
  const app = document.getElementById('app')!;
  const t = model.totals;
  document.getElementById('summary')!.textContent =
    `${t.files} file${t.files === 1 ? '' : 's'}, ${model.steps.length} step${model.steps.length === 1 ? '' : 's'}: ` +
    `${t.groups} groups, ${t.kept} kept, ${t.dropped} dropped; ${t.droppedTokens} of ${t.totalTokens} response tokens were in dropped groups`;
  const labels = model.steps.map(stepLabel);
  const colour = colours(model.reasons);

  if (model.steps.length > 0) {
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
      new Chart(canvasIn(r, 'chart-reward', true), {
        type: 'line',
        data: {
          labels,
          datasets: [
            { label: 'reward mean', data: model.steps.map((row) => row.rewardMean), borderColor: '#0969da', backgroundColor: '#0969da' },
            { label: 'truncated ratio', data: model.steps.map((row) => row.truncatedRatio), borderColor: '#bf8700', backgroundColor: '#bf8700' },
          ],
        },
        options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { title: { display: true, text: 'step' } } } },
      }),
    );
    const l = section(app, 'Response length (mean tokens)');
    charts.push(
      new Chart(canvasIn(l, 'chart-length', true), {
        type: 'line',
        data: {
          labels,
          datasets: [{ label: 'response length', data: model.steps.map((row) => row.responseLengthMean), borderColor: '#8250df', backgroundColor: '#8250df' }],
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { title: { display: true, text: 'step' } }, y: { beginAtZero: true } },
        },
      }),
    );
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

  if (model.eval.length > 0) renderEval(app, model.eval);
  renderReasons(app, model, colour);
  renderFindings(app, model);
}

function renderEval(app: HTMLElement, rows: EvalRow[]): void {
  const s = section(
    app,
    'Eval: score and pass@k per step and dataset',
    "pass@k is grouped by each dataset's own n; where older miles groups by the global n, its values follow in red.",
  );
  const ks = [...new Set(rows.flatMap((r) => Object.keys(r.passAtK).concat(r.wrong && 'passAtK' in r.wrong ? Object.keys(r.wrong.passAtK) : [])))].sort(
    (a, b) => Number(a.slice(5)) - Number(b.slice(5)),
  );
  const table = el('table');
  const head = el('tr');
  for (const h of ['step', 'dataset', 'samples', 'n', 'score', ...ks]) head.appendChild(el('th', h, h === 'step' || h === 'dataset' ? undefined : 'num'));
  table.appendChild(head);
  for (const r of rows) {
    const tr = el('tr');
    tr.appendChild(el('td', r.step ?? r.file));
    tr.appendChild(el('td', r.dataset, 'mono'));
    tr.appendChild(el('td', r.samples, 'num'));
    tr.appendChild(el('td', `${r.n} (${r.nSource})`, 'num'));
    tr.appendChild(el('td', fmt(r.score), 'num'));
    for (const k of ks) tr.appendChild(el('td', fmt(r.passAtK[k]), 'num'));
    table.appendChild(tr);
    if (r.wrong) {
      const w = el('tr', null, 'wrong');
      w.appendChild(el('td'));
      w.appendChild(el('td', `grouped by global n = ${r.wrong.groupSize}`));
      w.appendChild(el('td'));
      w.appendChild(el('td', r.wrong.groupSize, 'num'));
      if ('crash' in r.wrong) {
        const td = el('td', `older miles crashes: ${r.wrong.crash}`);
        td.colSpan = 1 + ks.length;
        w.appendChild(td);
      } else {
        w.appendChild(el('td'));
        for (const k of ks) w.appendChild(el('td', k in r.wrong.passAtK ? fmt(r.wrong.passAtK[k]) : '', 'num'));
      }
      table.appendChild(w);
    }
  }
  s.appendChild(table);
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

function renderReasons(app: HTMLElement, model: RunView, colour: Map<string, string>): void {
  if (model.reasons.length === 0) return;
  const s = section(app, 'Causes', 'Each drop reason as miles names it, who causes it, the metric it counts in, and the first samples of its groups.');
  for (const r of model.reasons) {
    const d = el('details');
    d.id = `reason-${model.reasons.indexOf(r)}`;
    const sum = el('summary');
    const swatch = el('span', '■ ');
    swatch.style.color = colour.get(r.reason) ?? '';
    sum.appendChild(swatch);
    sum.appendChild(el('code', r.reason));
    sum.appendChild(el('span', ` — ${r.groups} group${r.groups === 1 ? '' : 's'}`));
    if (r.causeClass && r.kind === 'aborted') sum.appendChild(el('span', ` (${r.causeClass})`, `class-${r.causeClass}`));
    d.appendChild(sum);
    if (r.metric) {
      const p = el('p', 'counted in ');
      p.appendChild(el('code', r.metric));
      d.appendChild(p);
    }
    const listed = model.samples[r.reason] ?? [];
    const table = el('table');
    const head = el('tr');
    for (const h of ['step', 'file:line', 'group', 'status', 'reward', 'cause', 'prompt', 'response']) head.appendChild(el('th', h));
    table.appendChild(head);
    for (const ref of listed) {
      const tr = el('tr');
      tr.appendChild(el('td', ref.step));
      const at = el('td', `${ref.file}:${ref.line}`, 'mono');
      if (vscode) {
        at.className = 'mono reveal';
        at.addEventListener('click', () => vscode.postMessage({ type: 'open', source: ref.source, line: ref.line }));
      }
      tr.appendChild(at);
      tr.appendChild(el('td', ref.group, 'mono'));
      tr.appendChild(el('td', ref.status));
      tr.appendChild(el('td', fmt(ref.reward), 'num'));
      tr.appendChild(el('td', ref.cause, 'text mono'));
      tr.appendChild(el('td', ref.prompt ?? '', 'text'));
      tr.appendChild(el('td', ref.response ?? '', 'text'));
      table.appendChild(tr);
    }
    d.appendChild(table);
    const more = model.samplesOmitted[r.reason];
    if (more) d.appendChild(el('p', `${more} more not listed`, 'muted'));
    s.appendChild(d);
  }
}

function renderFindings(app: HTMLElement, model: RunView): void {
  const codes = Object.entries(model.findings).sort((a, b) => b[1] - a[1]);
  if (codes.length === 0) return;
  const s = section(app, 'Findings');
  const table = el('table');
  for (const [code, count] of codes) {
    const tr = el('tr');
    tr.appendChild(el('td', count, 'num'));
    tr.appendChild(el('td', code, 'mono'));
    table.appendChild(tr);
  }
  s.appendChild(table);
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
  current = JSON.parse(data.textContent ?? 'null') as RunView;
  render(current);
  document.body.dataset.rendered = String(charts.length);
  vscode?.postMessage({ type: 'rendered', charts: charts.length });
}

start();
