// The editor bench's report: the table of p50/p95 against the targets, and the "Editor latency"
// section of BENCHMARKS.md (between the editor markers; the other sections stay).
import { pct, writeSection } from './measure.mjs';

function row(what, xs, target) {
  const p50 = pct(xs, 50);
  const p95 = pct(xs, 95);
  if (target === null) return `| ${what} | ${xs.length} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | — | no target set |`;
  const verdict =
    p95 <= target
      ? 'met (p95)'
      : p50 <= target
        ? `p50 met; p95 over by ${(p95 - target).toFixed(0)} ms`
        : `missed: p50 over by ${(p50 - target).toFixed(0)} ms`;
  return `| ${what} | ${xs.length} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${target} | ${verdict} |`;
}

/**
 * The figures as printed and as written: `t` is the timing loop's samples (ms), `o` the bench's
 * options, `input` the log's size in bytes (UTF-16 units) and lines.
 */
export function editorReport(t, o, input) {
  const { target } = o;
  const table = [
    '| measure | samples | p50 (ms) | p95 (ms) | target (ms) | verdict |',
    '|---|---:|---:|---:|---:|---|',
    row('didOpen → first publishDiagnostics', t.opens, target.open),
    row('one-line didChange → its publishDiagnostics', t.edits, target.edit),
    row('didChange that changes the recomputed metrics → its publishDiagnostics', t.metricEdits, target.edit),
    row('the same didChange → the metrics log republished', t.republishes, target.metricsLog),
    row('hover on a random sample line', t.hovers, target.hover),
    row('baseline, no metrics log open: didOpen → first publishDiagnostics', t.baseline.opens, target.open),
    row('baseline: one-line didChange → its publishDiagnostics', t.baseline.edits, target.edit),
    row('baseline: didChange that changes the recomputed metrics → its publishDiagnostics', t.baseline.metricEdits, target.edit),
  ].join('\n');
  const serialization = `Of the didOpen time, the client's own serialization of the ${(input.length / 1e6).toFixed(0)} MB notification (JSON.stringify + UTF-8 encode, measured apart, p50 of 3) takes ${pct(t.serialize, 50).toFixed(0)} ms, and receiving it (joining the 64 KB chunks, UTF-8 decode, JSON.parse: what the JSON-RPC layer does before any handler runs) ${pct(t.receive, 50).toFixed(0)} ms; the rest is transfer, the server's line split, scan and analysis, and publishing.`;
  const runRead = `Opening the metrics log: its own diagnostics after ${pct(t.metricsOpens, 50).toFixed(0)} ms (p50), every step's mismatch after ${pct(t.metricsRuns, 50).toFixed(0)} ms (p50; p95 ${pct(t.metricsRuns, 95).toFixed(0)} ms): the run's ${o.step} step files (${(o.mb + o.otherSteps * o.otherMb).toFixed(0)} MB) read from disk in the background, before the ${o.mb} MB log is opened.`;
  return { table, serialization, runRead };
}

/** Writes the "Editor latency" section; `check` is bench/editorCorrectness.mjs's answer. */
export function writeEditorSection({ table, serialization, runRead }, o, input, check, machine) {
  writeSection(
    'editor',
    `## Editor latency

Reproduce: \`npm run bench:editor\` (also run by \`npm run bench\`; or \`node bench/editor.mjs --mb ${o.mb} --runs ${o.runs}\` after \`npm run build\`).
The built \`dist/server.js --stdio\` driven through the protocol; times from sending to the answer. Input: a seeded (seed ${o.seed}) miles log,
${(input.length / 1e6).toFixed(1)} MB, ${input.lines} lines, settings \`${JSON.stringify(o.settings)}\`, step ${o.step} of a run folder (${o.otherSteps} other steps of ${o.otherMb} MB and a
\`metrics.jsonl\` that stays open). ${o.metricEdits} edits that change the recomputed metrics, then ${o.edits} one-line edits; ${o.runs} runs, ${o.hovers} hovers
each, interleaved with baseline runs that never open the metrics log. Checked first: after ${check.edits} edits the diagnostics equal a
fresh server's; the metrics log's ${check.mismatches} diagnostics equal \`check\`'s on the run.
Machine: ${machine}.

${table}

${serialization}

${runRead}`,
  );
}
