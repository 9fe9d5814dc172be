// The editor bench's timing loop: fresh servers, each opening the log and sending the same seeded
// edits and hovers; each run interleaved with a baseline run that never opens the metrics log.
import { makeEdits, metricEdits } from './editorEdits.mjs';
import { rng } from './generate.mjs';
import { openAndTime, openMetricsLog, startServer, timedEdit, timedHover, timedMetricEdit } from './editorServer.mjs';
import { clientSerializationMs, messageReceiveMs } from './messageCost.mjs';
import { pct } from './measure.mjs';

/**
 * One fresh server: the metrics log opened first (`withRun`), or not at all (the baseline: no
 * run-level work, and no hovers), then the log, its metric edits, its other edits and the hovers.
 */
async function timedRun(run, session, o, i, withRun) {
  const server = await startServer(session);
  const metricsOpen = withRun ? await openMetricsLog(server, run.metricsText, run.step) : null;
  const open = await openAndTime(server, run.text);
  let version = 1;
  const metricEditMs = [];
  const republishMs = [];
  const metric = metricEdits(run.text, o.metricEdits, rng(300 + i));
  for (const change of metric.edits) {
    version++;
    if (withRun) {
      const r = await timedMetricEdit(server, version, change);
      metricEditMs.push(r.ownMs);
      republishMs.push(r.metricsMs);
    } else metricEditMs.push((await timedEdit(server, version, change)).ms);
  }
  // The other edits start from the text as the metric edits left it.
  const editMs = [];
  for (const change of makeEdits(metric.finalText, o.edits, rng(100 + i)).edits) editMs.push((await timedEdit(server, ++version, change)).ms);
  const rand = rng(200 + i);
  const hoverMs = [];
  for (let h = 0; h < (withRun ? o.hovers : 0); h++) hoverMs.push(await timedHover(server, Math.floor(rand() * (run.lines - 20))));
  await server.stop();
  return { openMs: open.ms, editMs, hoverMs, metricEditMs, republishMs, metricsOpenMs: metricsOpen?.firstMs ?? 0, metricsRunMs: metricsOpen?.allMs ?? 0 };
}

/** `o.runs` runs, each with its baseline (before it on even runs, after on odd), then the message costs. */
export async function timeEditor(run, session, o) {
  const t = { opens: [], edits: [], hovers: [], metricEdits: [], republishes: [], metricsOpens: [], metricsRuns: [], serialize: [], receive: [] };
  t.baseline = { opens: [], edits: [], metricEdits: [] };
  for (let i = 0; i < o.runs; i++) {
    const base = i % 2 === 0 ? await timedRun(run, session, o, i, false) : null;
    const r = await timedRun(run, session, o, i, true);
    const b = base ?? (await timedRun(run, session, o, i, false));
    t.baseline.opens.push(b.openMs);
    t.baseline.edits.push(...b.editMs);
    t.baseline.metricEdits.push(...b.metricEditMs);
    t.opens.push(r.openMs);
    t.edits.push(...r.editMs);
    t.hovers.push(...r.hoverMs);
    t.metricEdits.push(...r.metricEditMs);
    t.republishes.push(...r.republishMs);
    t.metricsOpens.push(r.metricsOpenMs);
    t.metricsRuns.push(r.metricsRunMs);
    console.log(
      `run ${i + 1}: metrics log open ${r.metricsOpenMs.toFixed(0)} ms, run read ${r.metricsRunMs.toFixed(0)} ms; didOpen→diagnostics ${r.openMs.toFixed(0)} ms; edit p50 ${pct(r.editMs, 50).toFixed(1)} ms; metric edit p50 ${pct(r.metricEditMs, 50).toFixed(1)} ms, metrics log p50 ${pct(r.republishMs, 50).toFixed(1)} ms; hover p50 ${pct(r.hoverMs, 50).toFixed(1)} ms`,
    );
  }
  for (let k = 0; k < 3; k++) {
    t.serialize.push(clientSerializationMs(session.uri, run.text));
    t.receive.push(messageReceiveMs(session.uri, run.text));
  }
  return t;
}
