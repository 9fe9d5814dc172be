// The editor bench checks its answers before it times them: after incremental edits the log's
// diagnostics equal a fresh server's on the edited text, and the metrics log's equal `check`'s on
// the run, before and after edits that change the log's recomputed metrics.
import { join } from 'node:path';

import { rng } from './generate.mjs';
import { makeEdits, metricEdits } from './editorEdits.mjs';
import { checkEditedRun, checkJson } from './editorRunFolder.mjs';
import { openAndTime, openMetricsLog, startServer, timedEdit, timedMetricEdit } from './editorServer.mjs';

const strip = (diags) => JSON.stringify(diags);
const lineOf = (d) => `${d.code}\t${d.range.start.line}\t${d.message}`;
const checkLines = (findings, file, from, to) =>
  findings
    .filter((f) => f.file === file)
    .map((f) => `${f.code}\t${f.line - 1}\t${f.message.split(from).join(to)}`)
    .sort();

/**
 * Throws where the server disagrees. `run`: bench/editorRunFolder.mjs's run folder; `session`: the
 * options of bench/editorServer.mjs's startServer.
 */
export async function correctness(run, session, dataDir) {
  const { edits, finalText } = makeEdits(run.text, 12, rng(7));
  const server = await startServer(session);
  await openAndTime(server, run.text);
  let version = 1;
  for (const change of edits) await timedEdit(server, ++version, change);
  const incremental = (await server.published(version)).diagnostics;
  await server.stop();
  const fresh = await startServer(session);
  const full = (await openAndTime(fresh, finalText)).diagnostics;
  await fresh.stop();
  if (strip(incremental) !== strip(full)) throw new Error(`after ${edits.length} edits the diagnostics differ from a fresh analysis of the edited text`);
  const runLevel = await runLevelCorrectness(run, session, dataDir);
  return { edits: edits.length, diagnostics: full.length, ...runLevel };
}

/** The metrics log's diagnostics equal check's on the run, before and after metric edits of the log. */
async function runLevelCorrectness(run, session, dataDir) {
  const server = await startServer(session);
  const opened = await openMetricsLog(server, run.metricsText, run.step);
  const expected = checkLines(checkJson(run.runDir).findings, run.metrics, run.runDir, run.runDir);
  if (strip(opened.diagnostics.map(lineOf).sort()) !== strip(expected)) throw new Error('the metrics log diagnostics differ from check on the run folder');
  await openAndTime(server, run.text);
  const { edits, finalText } = metricEdits(run.text, 3, rng(9));
  let last;
  for (const [i, change] of edits.entries()) last = await timedMetricEdit(server, i + 2, change);
  await server.stop();
  const { copy, report } = checkEditedRun(run, dataDir, finalText);
  const after = checkLines(report.findings, join(copy, 'metrics.jsonl'), copy, run.runDir);
  if (strip(last.diagnostics.map(lineOf).sort()) !== strip(after))
    throw new Error('after the edits the metrics log diagnostics differ from check on the edited run');
  if (strip(after) === strip(expected)) throw new Error('the metric edits changed nothing check reports');
  return { mismatches: expected.length };
}
