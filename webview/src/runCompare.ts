// The run view's comparison with a baseline run ("Compare with Run…", docs/editors.md): the gate's
// verdict and the main deltas in the header, then the gate's failures, drop causes, eval datasets
// with their intervals, both runs' per-step charts and the prompts that flipped, each with links
// to its sample on both sides. Log strings reach the page through textContent only; a link posts
// the number of its place, never a path.
import type { ComparedDelta, ComparedIntervalDelta, PlaceLink, RunComparison } from '../../shared/compareViewModel';
import { formatForPeople, formatOrMissing } from '../../shared/numberFormat';
import { pyFloatRepr } from '../../shared/pythonRepr';
import { el, section, vscode } from './page';
import { compareCharts } from './runCompareCharts';

/** A signed difference for people: `+4.167`, `−0.3333`, `0`; `–` when there is none. */
export function signed(x: number | null, scale = 1): string {
  if (x === null) return '–';
  const v = x * scale;
  if (v === 0) return '0';
  return v > 0 ? `+${formatForPeople(v)}` : `−${formatForPeople(-v)}`;
}

/** `b → c (Δ)`, each scaled (`100`: shares as percentage points). */
export function deltaText(d: ComparedDelta, scale = 1): string {
  const side = (x: number | null) => (x === null ? '–' : formatForPeople(x * scale));
  return `${side(d.baseline)} → ${side(d.candidate)} (${signed(d.delta, scale)})`;
}

function intervalText(d: ComparedIntervalDelta): string {
  return d.interval === null ? 'no paired prompt' : `[${signed(d.interval[0])}, ${signed(d.interval[1])}]`;
}

/** A sample's place: a link in VS Code (opens its sample view), plain text in a browser; `withSide`: named by its run. */
export function placeLink(link: PlaceLink, withSide = false): HTMLElement {
  const api = vscode;
  const text = withSide && link.side ? `${link.side === 'baseline' ? 'baseline' : 'this run'}: ${link.label}` : link.label;
  const a = el(api ? 'a' : 'span', text, api ? 'mono reveal' : 'mono');
  a.dataset.place = String(link.place);
  if (link.side) a.title = `Open the ${link.side}'s sample`;
  if (api) a.addEventListener('click', () => api.postMessage({ type: 'place', place: link.place }));
  return a;
}

function placesCell(links: readonly PlaceLink[], withSide = false): HTMLTableCellElement {
  const td = el('td');
  links.forEach((l, i) => {
    if (i > 0) td.appendChild(el('br'));
    td.appendChild(placeLink(l, withSide));
  });
  return td;
}

function numTd(text: string, exact?: number | null): HTMLTableCellElement {
  const td = el('td', text, 'num');
  if (exact !== undefined && exact !== null) td.title = pyFloatRepr(exact);
  return td;
}

function headRow(table: HTMLTableElement, names: string[], numeric: ReadonlySet<string> = new Set()): void {
  const tr = el('tr');
  for (const h of names) tr.appendChild(el('th', h, numeric.has(h) ? 'num' : undefined));
  table.appendChild(tr);
}

/** The header's part: which run is compared with which, the gate's verdict, the deltas that matter, and Clear. */
export function renderCompareHeader(header: HTMLElement, c: RunComparison): void {
  const who = el('p', null, 'compare-headline');
  who.id = 'compare-headline';
  who.appendChild(el('span', 'Compared with the baseline '));
  who.appendChild(el('code', c.baseline.name));
  who.appendChild(el('span', ' (this run is the candidate): '));
  const verdict = c.gate.passed ? 'the gate passes' : `the gate fails (${c.gate.failures.length} rule${c.gate.failures.length === 1 ? '' : 's'})`;
  who.appendChild(el('span', verdict, c.gate.passed ? 'gate-passed' : 'gate-failed'));
  const api = vscode;
  if (api) {
    const clear = el('button', 'Clear comparison');
    clear.id = 'clear-comparison';
    clear.addEventListener('click', () => api.postMessage({ type: 'clearComparison' }));
    who.appendChild(clear);
  }
  header.appendChild(who);
  const parts: string[] = [];
  for (const cause of c.causes) {
    if (cause.status === 'new') parts.push(`new: ${cause.reason} (${formatOrMissing(cause.groups.candidate)} groups)`);
    else if (cause.status === 'vanished') parts.push(`vanished: ${cause.reason}`);
    else if (cause.ratePoints.delta) parts.push(`${cause.reason} ${signed(cause.ratePoints.delta)} points`);
  }
  for (const d of c.datasets) {
    if (d.score.delta) parts.push(`${d.name} score ${signed(d.score.delta)} ${intervalText(d.score)}`);
    for (const [k, v] of Object.entries(d.passAtK)) if (v.delta) parts.push(`${d.name} ${k} ${signed(v.delta)} ${intervalText(v)}`);
    if (d.shrank) parts.push(`${d.name}: fewer samples or more without a reward`);
  }
  const flips = Object.values(c.prompts.flips).reduce((a, b) => a + b, 0);
  parts.push(`${flips} flipped prompt${flips === 1 ? '' : 's'} of ${c.prompts.paired} paired`);
  const deltas = el('p', parts.join('; '), 'compare-deltas');
  deltas.id = 'compare-deltas';
  header.appendChild(deltas);
}

function renderGate(s: HTMLElement, c: RunComparison): void {
  if (c.gate.failures.length === 0) {
    s.appendChild(el('p', 'The gate passes: no rule fails (docs/compare.md#gate).', 'muted'));
    return;
  }
  const table = el('table');
  table.id = 'compare-gate';
  headRow(table, ['rule', 'failure', 'evidence']);
  for (const f of c.gate.failures) {
    const tr = el('tr');
    tr.appendChild(el('td', f.rule, 'mono'));
    tr.appendChild(el('td', f.message, 'text'));
    tr.appendChild(placesCell(f.evidence, true));
    table.appendChild(tr);
  }
  s.appendChild(table);
}

function renderCauses(s: HTMLElement, c: RunComparison): void {
  if (c.causes.length === 0) return;
  s.appendChild(el('h3', 'Drop causes over the paired rollout steps'));
  const table = el('table');
  table.id = 'compare-causes';
  headRow(table, ['reason', 'status', 'drop rate (points)', 'groups', 'baseline samples', 'candidate samples'], new Set(['drop rate (points)', 'groups']));
  for (const cause of c.causes) {
    const tr = el('tr');
    tr.appendChild(el('td', cause.reason, 'mono'));
    tr.appendChild(el('td', cause.status));
    tr.appendChild(numTd(deltaText(cause.ratePoints), cause.ratePoints.delta));
    tr.appendChild(numTd(deltaText(cause.groups)));
    tr.appendChild(placesCell(cause.evidence.baseline));
    tr.appendChild(placesCell(cause.evidence.candidate));
    table.appendChild(tr);
  }
  s.appendChild(table);
}

function renderDatasets(s: HTMLElement, c: RunComparison): void {
  if (c.datasets.length === 0) return;
  s.appendChild(el('h3', 'Eval datasets: score and pass@k by each dataset’s own n, with paired bootstrap 95% intervals'));
  const table = el('table');
  table.id = 'compare-datasets';
  const numeric = new Set(['baseline', 'candidate', 'Δ', '95% interval']);
  headRow(table, ['dataset', 'steps', 'figure', 'baseline', 'candidate', 'Δ', '95% interval', 'samples'], numeric);
  for (const d of c.datasets) {
    const figures: [string, ComparedIntervalDelta][] = [['score', d.score], ...Object.entries(d.passAtK)];
    figures.forEach(([name, v], i) => {
      const tr = el('tr', null, d.shrank ? 'shrank' : undefined);
      tr.appendChild(el('td', i === 0 ? d.name : '', 'mono'));
      tr.appendChild(el('td', i === 0 ? `${d.baselineStep ?? '–'} → ${d.candidateStep ?? '–'}` : ''));
      tr.appendChild(el('td', name, 'mono'));
      tr.appendChild(numTd(formatOrMissing(v.baseline), v.baseline));
      tr.appendChild(numTd(formatOrMissing(v.candidate), v.candidate));
      tr.appendChild(numTd(signed(v.delta), v.delta));
      tr.appendChild(numTd(intervalText(v)));
      if (i === 0) {
        const td = el('td');
        td.appendChild(el('span', `${deltaText(d.samples)}, without a reward ${deltaText(d.noneReward)}${d.shrank ? ' — shrank' : ''} `));
        if (d.evidence.baseline) td.appendChild(placeLink(d.evidence.baseline, true));
        td.appendChild(document.createTextNode(' '));
        if (d.evidence.candidate) td.appendChild(placeLink(d.evidence.candidate, true));
        tr.appendChild(td);
      } else tr.appendChild(el('td'));
      table.appendChild(tr);
    });
  }
  s.appendChild(table);
}

function stepsText(b: number | null, c: number | null): string {
  return b === c ? String(b ?? '–') : `${b ?? '–'} → ${c ?? '–'}`;
}

function renderPrompts(s: HTMLElement, c: RunComparison): void {
  s.appendChild(el('h3', 'Prompts that flipped'));
  const counts = Object.entries(c.prompts.flips);
  if (counts.length === 0) {
    s.appendChild(el('p', `None of the ${c.prompts.paired} prompt-steps found in both runs flipped.`, 'muted'));
    return;
  }
  s.appendChild(el('p', `${counts.map(([k, n]) => `${n} ${k}`).join(', ')} (of ${c.prompts.paired} prompt-steps found in both runs).`));
  const table = el('table');
  table.id = 'compare-prompts';
  headRow(table, ['step', 'dataset', 'prompt', 'from', 'to', 'baseline sample', 'candidate sample']);
  for (const f of c.prompts.listed) {
    const tr = el('tr', null, 'flip');
    tr.appendChild(el('td', `${f.kind} ${stepsText(f.baselineStep, f.candidateStep)}`));
    tr.appendChild(el('td', f.dataset ?? '', 'mono'));
    tr.appendChild(el('td', f.id, 'text mono'));
    tr.appendChild(el('td', f.from, 'mono'));
    tr.appendChild(el('td', f.to, 'mono'));
    tr.appendChild(placesCell([f.baseline]));
    tr.appendChild(placesCell([f.candidate]));
    table.appendChild(tr);
  }
  s.appendChild(table);
  if (c.prompts.omitted > 0) s.appendChild(el('p', `${c.prompts.omitted} more not listed`, 'muted'));
}

/** The comparison's section, above the run's own charts. */
export function renderComparison(app: HTMLElement, c: RunComparison, colour: Map<string, string>): void {
  const unpaired =
    c.unpaired.baseline + c.unpaired.candidate > 0
      ? ` Steps without a partner: ${c.unpaired.baseline} in the baseline, ${c.unpaired.candidate} in this run.`
      : '';
  const s = section(
    app,
    'Compared with the baseline',
    `Baseline: ${c.baseline.name} (${c.baseline.steps} steps, ${c.baseline.samples} samples); this run: ${c.candidate.name} (${c.candidate.steps} steps, ${c.candidate.samples} samples). Steps pair by number, eval datasets by name, prompts by identity; Δ is this run − the baseline.${unpaired}`,
  );
  s.id = 'comparison';
  renderGate(s, c);
  renderCauses(s, c);
  renderDatasets(s, c);
  compareCharts(s, c, colour);
  renderPrompts(s, c);
}
