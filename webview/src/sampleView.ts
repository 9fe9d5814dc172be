// The sample view page's script (bundled with Chart.js into dist/sampleView.js): reads the model
// from the page's JSON element and lays out the sample: what happened to it, its siblings, the
// conversation, the response, token facts with a small log-prob chart, weight versions, metadata
// and the raw JSON. Every string from the log reaches the page through textContent only.
import Chart from 'chart.js/auto';
import type { Clip, MessageView, SampleView, TreeValue } from '../../shared/sampleViewModel';
import { el, section, tooltipLabel, vscode } from './page';
import { renderSampleMismatch } from './sampleMismatch';
import { formatForPeople, formatOrMissing } from '../../shared/numberFormat';

/** 4 significant digits (shared/numberFormat.ts); the hover, CLI and messages keep the exact value. */
const fmt = (v: number | null | undefined): string => formatOrMissing(v);

function clipText(c: Clip | null): string {
  if (!c) return '';
  return c.length !== undefined ? `${c.text}\n… (${c.length} characters in all)` : c.text;
}

/** Rows whose value is not null; none: no heading either. */
function present(rows: [string, string | number | null][]): [string, string | number][] {
  return rows.filter((r): r is [string, string | number] => r[1] !== null);
}

function fields(parent: HTMLElement, rows: [string, string | number | null][]): void {
  const table = el('table');
  for (const [k, v] of rows) {
    if (v === null) continue;
    const tr = el('tr');
    tr.appendChild(el('th', k));
    tr.appendChild(el('td', v, 'text'));
    table.appendChild(tr);
  }
  parent.appendChild(table);
}

function message(m: MessageView): HTMLElement {
  const box = el('div', null, `message role-${/^[a-z]+$/.test(m.role) ? m.role : 'other'}`);
  const head = el('div', null, 'role');
  head.appendChild(el('strong', m.role));
  if (m.name) head.appendChild(el('span', ` · ${m.name}`));
  if (m.toolCallId) head.appendChild(el('span', ` · answers ${m.toolCallId}`, 'muted'));
  box.appendChild(head);
  if (m.content) box.appendChild(el('pre', clipText(m.content), 'text'));
  for (const c of m.toolCalls) {
    const call = el('div', null, 'tool-call');
    call.appendChild(el('span', `tool call ${c.name ?? '?'}${c.id ? ` (${c.id})` : ''}`));
    if (c.arguments) call.appendChild(el('pre', clipText(c.arguments), 'text'));
    box.appendChild(call);
  }
  return box;
}

function tree(v: TreeValue, label: string | null): HTMLElement {
  if (v.kind === 'scalar' || v.kind === 'skipped') {
    const row = el('div', null, 'leaf');
    if (label !== null) row.appendChild(el('span', `${label}: `, 'key'));
    row.appendChild(el('span', v.kind === 'scalar' && v.type === 'string' ? JSON.stringify(v.text) : v.text, 'mono'));
    return row;
  }
  const d = el('details');
  const count = v.kind === 'object' ? `{${v.entries.length + v.more}}` : `[${v.length}]`;
  d.appendChild(el('summary', label === null ? count : `${label} ${count}`));
  if (v.kind === 'object') {
    for (const [k, x] of v.entries) d.appendChild(tree(x, k));
    if (v.more > 0) d.appendChild(el('div', `… ${v.more} more keys`, 'muted'));
  } else {
    v.items.forEach((x, i) => d.appendChild(tree(x, String(i))));
    if (v.length > v.items.length) d.appendChild(el('div', `… ${v.length - v.items.length} more items`, 'muted'));
  }
  return d;
}

function render(m: SampleView): void {
  document.getElementById('summary')!.textContent = `${m.title} · ${m.format} (${m.kind})`;
  const app = document.getElementById('app')!;

  const what = section(app, 'What happened');
  const v = m.verdict;
  const rows: [string, string | number | null][] = [
    ['status', m.status ?? (m.aborted ? 'aborted' : null)],
    ['reward', fmt(m.reward)],
    ...(m.rewards ? Object.entries(m.rewards).map(([k, x]): [string, string] => [`reward.${k}`, fmt(x)]) : []),
    ['label', m.label ? clipText(m.label) : null],
    ['group', m.group],
    ['index', m.index],
    ['step', m.step],
    ['dataset', m.dataset],
  ];
  if (v?.kind === 'rollout') {
    rows.push(['group verdict', v.kept ? 'kept' : `dropped: ${v.reason ?? 'unknown'}`]);
    if (v.droppedBy) rows.push(['dropped by', v.droppedBy === 'aborted-group' ? 'the aborted-group filter' : 'check_reward_nonzero_std']);
    if (v.metric) rows.push(['counted in', v.metric]);
    if (v.formerly.length) rows.push(['miles main (31f1ca9) logs', v.formerly.map((f) => `${f.name} (${f.mode})`).join(', ')]);
    if (v.namedBy !== null) rows.push(['reason named by line', v.namedBy]);
  } else if (v?.kind === 'eval') {
    rows.push(['pass@k group', `${v.groupIndex ?? '?'} of dataset ${v.dataset}, n = ${v.n} (${v.nSource})`]);
  }
  if (m.cause) rows.push(['cause', `${m.cause.name} (${m.cause.class})`]);
  if (m.failure) rows.push([m.failure.field, m.failure.text]);
  if (m.unavailable) rows.push(['not shown', m.unavailable]);
  fields(what, rows);

  if (m.siblings.length > 0) {
    const s = section(app, 'Group');
    // Members this file lacks have no line to step to.
    const steps = m.siblings.filter((x) => x.line !== null);
    const here = steps.findIndex((x) => x.current);
    const nav = el('div', null, 'nav');
    const step = (d: number) => {
      const target = steps[here + d];
      if (target && target.line !== null && vscode) vscode.postMessage({ type: 'sibling', line: target.line });
    };
    const prev = el('button', '◀ previous sibling');
    prev.id = 'prev-sibling';
    prev.disabled = here <= 0;
    prev.addEventListener('click', () => step(-1));
    const next = el('button', 'next sibling ▶');
    next.id = 'next-sibling';
    next.disabled = here < 0 || here >= steps.length - 1;
    next.addEventListener('click', () => step(1));
    nav.append(prev, next);
    s.appendChild(nav);
    const table = el('table');
    const head = el('tr');
    for (const h of ['line', 'index', 'status', 'reward', 'cause']) head.appendChild(el('th', h));
    table.appendChild(head);
    for (const x of m.siblings) {
      const tr = el('tr', null, x.current ? 'current' : x.missingFrom || x.missingIn ? 'missing' : undefined);
      let line: HTMLElement;
      if (x.line === null)
        line = el('td', x.missingFrom ? `missing here (${x.missingFrom.file} · sample ${x.missingFrom.line})` : 'missing here', 'muted mono');
      else {
        const at = x.line;
        line = el('td', x.missingIn ? `${at} (no row in ${x.missingIn})` : at, 'mono reveal');
        line.addEventListener('click', () => vscode?.postMessage({ type: 'sibling', line: at }));
      }
      tr.append(line, el('td', x.index), el('td', x.status ?? (x.aborted ? 'aborted' : '')), el('td', fmt(x.reward), 'num'), el('td', x.cause, 'text mono'));
      table.appendChild(tr);
    }
    s.appendChild(table);
    if (m.siblingsOmitted) s.appendChild(el('p', `${m.siblingsOmitted} more not listed`, 'muted'));
  }

  if (m.prompt.length > 0) {
    const s = section(app, 'Prompt');
    for (const x of m.prompt) s.appendChild(message(x));
  }
  if (m.conversation.length > 0 || m.conversationMissing) {
    const s = section(app, 'Conversation');
    if (m.conversationSource) s.appendChild(el('p', `from ${m.conversationSource.file}, line ${m.conversationSource.line}`, 'muted mono'));
    if (m.conversationMissing) s.appendChild(el('p', m.conversationMissing, 'muted'));
    for (const x of m.conversation) s.appendChild(message(x));
  }
  if (m.response || m.responseNote) {
    const r = section(app, 'Response');
    r.appendChild(m.response ? el('pre', clipText(m.response), 'text') : el('p', m.responseNote, 'muted'));
  }

  const lp = m.tokens.logProbs;
  const tokenRows = present([
    ['response length', m.tokens.responseLength],
    ['tokens', m.tokens.tokens],
    [
      'loss mask',
      m.tokens.lossMask
        ? `${m.tokens.lossMask.ones} of ${m.tokens.lossMask.length} (${m.tokens.lossMask.coverage === null ? '–' : `${formatForPeople(m.tokens.lossMask.coverage * 100)}%`})`
        : null,
    ],
    ['log-probs', lp ? `${lp.count} · mean ${fmt(lp.mean)} · min ${fmt(lp.min)} · max ${fmt(lp.max)}` : null],
  ]);
  const t = tokenRows.length > 0 ? section(app, 'Tokens') : null;
  if (t) fields(t, tokenRows);
  if (t && lp && lp.points.length > 1) {
    const box = el('div', null, 'chart small');
    const canvas = el('canvas');
    canvas.id = 'chart-log-probs';
    box.appendChild(canvas);
    t.appendChild(box);
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: lp.points.map((_, i) => String(Math.round((i * lp.count) / lp.points.length))),
        datasets: [{ label: 'log-prob (min per bucket)', data: lp.points, borderColor: '#8250df', pointRadius: 0 }],
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { title: { display: true, text: 'response token' } } } },
    });
  }
  if (m.trainMismatch) renderSampleMismatch(app, m.trainMismatch);
  if (m.weightVersions) {
    const w = section(app, 'Weight versions');
    const wv = m.weightVersions;
    w.appendChild(el('p', wv.values.length === 0 ? '(none recorded)' : wv.values.join(', '), 'mono'));
    if (wv.mixed) w.appendChild(el('p', `mixed: generated across ${wv.distinct.length} weight versions (${wv.distinct.join(', ')})`, 'wrong'));
  }
  if (m.metadata) {
    const md = section(app, 'Metadata');
    md.appendChild(tree(m.metadata, 'metadata'));
  }
  const raw = section(app, 'Raw JSON');
  const toggle = el('button', 'show raw JSON');
  toggle.id = 'raw-toggle';
  const pre = el('pre', m.raw + (m.rawClipped ? '\n… (long strings and arrays cut)' : ''), 'text mono');
  pre.hidden = true;
  toggle.addEventListener('click', () => {
    pre.hidden = !pre.hidden;
    toggle.textContent = pre.hidden ? 'show raw JSON' : 'hide raw JSON';
  });
  raw.append(toggle, pre);
}

const data = document.getElementById('sample-view-model');
if (data) {
  const body = getComputedStyle(document.body);
  Chart.defaults.color = body.color;
  Chart.defaults.plugins.tooltip.callbacks.label = tooltipLabel;
  render(JSON.parse(data.textContent ?? 'null') as SampleView);
  document.body.dataset.rendered = '1';
  vscode?.postMessage({ type: 'rendered' });
}
