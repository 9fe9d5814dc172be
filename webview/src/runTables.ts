// The run view's tables: eval scores and pass@k (with miles main (31f1ca9)'s wrong global-n values), each cause
// with the first samples of its groups, and the findings by code. Log strings reach them through
// textContent only.
import type { EvalRow, RunView } from '../../shared/runViewModel';
import { evalChart } from './runCharts';
import { el, numCell, section, vscode } from './page';

export function renderEval(app: HTMLElement, rows: EvalRow[], id = ''): void {
  const s = section(
    app,
    'Eval: score and pass@k per step and dataset',
    "pass@k is grouped by each dataset's own n; where miles main (31f1ca9) groups by the global n, the values it gets wrong follow in red.",
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
    tr.appendChild(numCell(r.score));
    for (const k of ks) tr.appendChild(numCell(r.passAtK[k]));
    table.appendChild(tr);
    if (r.wrong) {
      const w = el('tr', null, 'wrong');
      w.appendChild(el('td'));
      w.appendChild(el('td', `grouped by global n = ${r.wrong.groupSize}`));
      w.appendChild(el('td'));
      w.appendChild(el('td', r.wrong.groupSize, 'num'));
      if ('crash' in r.wrong) {
        const td = el('td', `miles main (31f1ca9) crashes: ${r.wrong.crash}`);
        td.colSpan = 1 + ks.length;
        w.appendChild(td);
      } else {
        w.appendChild(el('td'));
        for (const k of ks) w.appendChild(k in r.wrong.passAtK ? numCell(r.wrong.passAtK[k]) : el('td', '', 'num'));
      }
      table.appendChild(w);
    }
  }
  s.appendChild(table);
  evalChart(s, rows, id);
}

export function renderReasons(app: HTMLElement, model: RunView, colour: Map<string, string>): void {
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
      const api = vscode;
      if (api) {
        at.className = 'mono reveal';
        at.addEventListener('click', () => api.postMessage({ type: 'open', source: ref.source, line: ref.line }));
      }
      tr.appendChild(at);
      tr.appendChild(el('td', ref.group, 'mono'));
      tr.appendChild(el('td', ref.status));
      tr.appendChild(numCell(ref.reward));
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

/** Findings as rows: severity, code, message and where; in VS Code the place opens the sample view. */
export function renderFindings(app: HTMLElement, model: RunView): void {
  const total = Object.values(model.findings).reduce((a, b) => a + b, 0);
  if (total === 0) return;
  const counts = Object.entries(model.findings)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${n} ${code}`)
    .join(', ');
  const s = section(app, 'Findings', `${total} finding${total === 1 ? '' : 's'}: ${counts}.`);
  const table = el('table');
  const head = el('tr');
  for (const h of ['severity', 'code', 'message', 'where']) head.appendChild(el('th', h));
  table.appendChild(head);
  for (const f of model.findingRows) {
    const tr = el('tr', null, `finding severity-${f.severity}`);
    tr.appendChild(el('td', f.severity, `severity-${f.severity}`));
    tr.appendChild(el('td', f.code, 'mono'));
    tr.appendChild(el('td', f.message, 'text'));
    const at = el('td', `${f.file}:${f.line}`, 'mono');
    const api = vscode;
    if (api) {
      at.className = 'mono reveal';
      at.title = 'Open the sample view of this line';
      at.addEventListener('click', () => api.postMessage({ type: 'sample', source: f.source, line: f.line }));
    }
    tr.appendChild(at);
    table.appendChild(tr);
  }
  s.appendChild(table);
  if (model.findingRowsOmitted > 0) s.appendChild(el('p', `${model.findingRowsOmitted} more not listed`, 'muted'));
}
