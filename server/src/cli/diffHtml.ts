// `rollout-lens diff --out diff.html`: the diff as one self-contained HTML file, made like the
// report (shared/runViewPage.ts: the data as inert JSON, the chart script and styles inline under a
// nonce, a Content-Security-Policy that allows nothing else). The page carries the diff exactly as
// `--format json` prints it; its script (webview/src/diffView.ts) overlays both runs' charts. The
// gate, the causes, the datasets and the flipped prompts are static HTML made here: every string
// in them is log text (paths, reasons, dataset names, prompt ids), shown with its unsafe characters
// as visible labels and HTML-escaped, so none becomes markup.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { escapeHtml, runViewHtml } from '../../../shared/runViewPage';
import { RUN_VIEW_STYLES } from '../../../shared/runViewStyles';
import { revealInvisible } from '../../../shared/unsafeText';
import type { Delta, IntervalDelta, Place, RunDiff } from '../../../shared/runDiff';

/** The diff page's chart script bundled beside the CLI (dist/diffView.js). */
export function diffChartScript(): string {
  return readFileSync(join(__dirname, 'diffView.js'), 'utf8');
}

const DIFF_STYLES = `
#gate.passed h2 { color: #1a7f37; }
#gate.failed h2 { color: #cf222e; }
.rule { font-weight: 600; }
td.text { max-width: 520px; }
`;

function text(value: string): string {
  return escapeHtml(revealInvisible(value, false));
}

function num(x: number | null): string {
  return x === null ? '–' : String(Math.round(x * 1e4) / 1e4);
}

function signed(x: number | null): string {
  if (x === null) return '–';
  const r = Math.round(x * 1e4) / 1e4;
  return r > 0 ? `+${r}` : String(r === 0 ? 0 : r);
}

function cells(d: Delta): string {
  return `<td class="num">${num(d.baseline)}</td><td class="num">${num(d.candidate)}</td><td class="num">${signed(d.delta)}</td>`;
}

function interval(d: IntervalDelta): string {
  return `<td class="num">${d.interval ? `[${num(d.interval[0])}, ${num(d.interval[1])}]` : '–'}</td>`;
}

function place(p: Place | null): string {
  return p === null ? '–' : `${text(p.file)}:${p.line}`;
}

function places(list: readonly Place[]): string {
  return list.map((p) => `<div class="mono">${place(p)}</div>`).join('');
}

function gateSection(diff: RunDiff, gated: boolean): string {
  const g = diff.gate;
  const verdict = g.passed ? 'passed' : `failed (${g.failures.length})`;
  const parts = [`<section id="gate" class="${g.passed ? 'passed' : 'failed'}"><h2>Gate: ${verdict}</h2>`];
  parts.push(
    `<p class="muted">baseline <span class="mono">${text(diff.baseline.source)}</span> (${text(diff.baseline.framework ?? 'no run')}, ${diff.baseline.steps} steps, ${diff.baseline.samples} samples); ` +
      `candidate <span class="mono">${text(diff.candidate.source)}</span> (${text(diff.candidate.framework ?? 'no run')}, ${diff.candidate.steps} steps, ${diff.candidate.samples} samples); ` +
      `${diff.steps.length} paired steps${gated ? '' : '; the gate is reported, not enforced (--gate)'}.</p>`,
  );
  if (g.failures.length > 0) {
    parts.push('<table><tr><th>rule</th><th>message</th><th>evidence</th></tr>');
    for (const f of g.failures)
      parts.push(`<tr class="failure"><td class="rule mono">${text(f.rule)}</td><td class="text">${text(f.message)}</td><td>${places(f.evidence)}</td></tr>`);
    parts.push('</table>');
  }
  parts.push('</section>');
  return parts.join('');
}

function causesSection(diff: RunDiff): string {
  const parts = ['<section id="causes"><h2>Drop causes over the paired rollout steps</h2>'];
  if (diff.causes.length === 0) return `${parts[0]}<p class="muted">No group was dropped on either side.</p></section>`;
  parts.push(
    '<table><tr><th>reason</th><th></th><th class="num">groups (baseline)</th><th class="num">(candidate)</th><th class="num">Δ</th><th class="num">rate % (baseline)</th><th class="num">(candidate)</th><th class="num">Δ points</th><th>samples</th></tr>',
  );
  for (const c of diff.causes) {
    const status = c.status === 'both' ? '' : c.status;
    const evidence = places(c.evidence.candidate.concat(c.evidence.baseline));
    parts.push(`<tr class="cause"><td class="mono">${text(c.reason)}</td><td>${status}</td>${cells(c.groups)}${cells(c.ratePoints)}<td>${evidence}</td></tr>`);
  }
  parts.push('</table></section>');
  return parts.join('');
}

function datasetsSection(diff: RunDiff): string {
  if (diff.datasets.length === 0) return '';
  const parts = [
    '<section id="datasets"><h2>Eval datasets</h2><p class="muted">pass@k by each dataset’s own n; intervals are paired bootstrap 95% intervals of the difference.</p>',
    '<table><tr><th>dataset</th><th>steps</th><th>figure</th><th class="num">baseline</th><th class="num">candidate</th><th class="num">Δ</th><th class="num">95% interval</th></tr>',
  ];
  for (const d of diff.datasets) {
    const head = `<td class="mono">${text(d.name)}${d.shrank ? ' <span class="wrong">(shrank)</span>' : ''}</td><td>${d.baselineStep ?? '?'} → ${d.candidateStep ?? '?'}</td>`;
    parts.push(`<tr class="dataset">${head}<td>score</td>${cells(d.score)}${interval(d.score)}</tr>`);
    for (const [k, v] of Object.entries(d.passAtK)) parts.push(`<tr class="dataset">${head}<td>${text(k)}</td>${cells(v)}${interval(v)}</tr>`);
    parts.push(`<tr class="dataset">${head}<td>samples</td>${cells(d.samples)}<td></td></tr>`);
  }
  parts.push('</table></section>');
  return parts.join('');
}

function promptsSection(diff: RunDiff): string {
  const p = diff.prompts;
  const flipped = Object.values(p.flips).reduce((a, b) => a + b, 0);
  const parts = [`<section id="flipped"><h2>Flipped prompts</h2><p>${p.paired} prompt-steps in both runs, ${flipped} flipped.</p>`];
  if (flipped > 0) {
    parts.push('<ul>');
    for (const [what, n] of Object.entries(p.flips)) parts.push(`<li><span class="mono">${text(what)}</span>: ${n}</li>`);
    parts.push('</ul>');
  }
  if (p.listed.length > 0) {
    parts.push('<table><tr><th>step</th><th>dataset</th><th>prompt</th><th>from</th><th>to</th><th>baseline</th><th>candidate</th></tr>');
    for (const f of p.listed) {
      parts.push(
        `<tr class="flip"><td>${f.kind} ${f.baselineStep ?? '?'} → ${f.candidateStep ?? '?'}</td><td class="mono">${f.dataset === null ? '' : text(f.dataset)}</td>` +
          `<td class="mono text">${text(f.id)}</td><td class="mono">${text(f.from)}</td><td class="mono">${text(f.to)}</td>` +
          `<td class="mono">${place(f.baseline)}</td><td class="mono">${place(f.candidate)}</td></tr>`,
      );
    }
    parts.push('</table>');
  }
  if (p.omitted > 0) parts.push(`<p class="muted">${p.omitted} more not listed (--max-prompts)</p>`);
  parts.push('</section>');
  return parts.join('');
}

/** The page; `script` is the chart script's text, `nonce` the page's. */
export function diffHtml(diff: RunDiff, options: { gated: boolean; script: string; nonce: string }): string {
  return runViewHtml({
    model: diff,
    dataId: 'diff-model',
    title: `Rollout Lens diff: ${revealInvisible(diff.baseline.source, false)} → ${revealInvisible(diff.candidate.source, false)}`,
    nonce: options.nonce,
    script: { inline: options.script },
    styles: RUN_VIEW_STYLES + DIFF_STYLES,
    prelude: gateSection(diff, options.gated),
    appendix: causesSection(diff) + datasetsSection(diff) + promptsSection(diff),
  });
}
