// Editor latency through the real protocol: spawns the built `dist/server.js --stdio`, drives it
// with vscode-languageserver-protocol as an editor would, and times (1) didOpen of a 40 MB miles
// rollout log → its first publishDiagnostics, (2) a one-line incremental didChange → the
// publishDiagnostics carrying that version, (3) an edit that changes the log's recomputed metrics
// → its own diagnostics and the republished diagnostics of the run's open metrics log, (4) hover
// on random sample lines. The log is one step of a run folder with 20 other step files and a
// metrics log (docs/editors.md#run-level-findings), and that metrics log is open throughout.
// Correctness first: after the edits, the log's diagnostics must equal a fresh server's on the
// edited text, and the metrics log's must equal `check`'s on the run with the edited text.
// Writes its table into BENCHMARKS.md between the editor markers (the throughput section stays).
//   node bench/editor.mjs [--mb 40] [--other-mb 4] [--runs 20] [--edits 30] [--metric-edits 10] [--hovers 50] [--no-write]
//   EDITOR_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server processes.
// The parts: bench/editorRunFolder.mjs (the input), editorServer.mjs (the protocol client),
// editorEdits.mjs, editorCorrectness.mjs, editorTiming.mjs (with the baseline runs),
// messageCost.mjs (the JSON-RPC baseline) and editorReport.mjs.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { correctness } from './editorCorrectness.mjs';
import { lineStarts } from './editorEdits.mjs';
import { editorReport, writeEditorSection } from './editorReport.mjs';
import { editorRunFolder } from './editorRunFolder.mjs';
import { timeEditor } from './editorTiming.mjs';
import { arg, load, machine, root } from './measure.mjs';

const options = {
  mb: Number(arg('mb', '40')),
  runs: Number(arg('runs', '20')),
  edits: Number(arg('edits', '30')),
  otherMb: Number(arg('other-mb', '4')),
  otherSteps: 20,
  metricEdits: Number(arg('metric-edits', '10')),
  hovers: Number(arg('hovers', '50')),
  seed: 42,
  settings: { nSamplesPerPrompt: 8, dynamicFilter: 'check_reward_nonzero_std' },
  target: { open: 1500, edit: 100, hover: 20, metricsLog: null },
};
const dataDir = join(root, 'bench/.data');

const run = editorRunFolder(dataDir, options);
run.lines = lineStarts(run.text).length - 1;
options.step = run.step;
const session = { runDir: run.runDir, settings: options.settings, uri: pathToFileURL(run.log).href, metricsUri: pathToFileURL(run.metrics).href };
const input = { length: run.text.length, lines: run.lines };

const loadBefore = load();
console.log(`editor bench: ${(input.length / 1e6).toFixed(1)} MB, ${input.lines} lines`);
const check = await correctness(run, session, dataDir);
console.log(`correctness: after ${check.edits} edits the diagnostics (${check.diagnostics}) equal a fresh analysis of the edited text`);
const timings = await timeEditor(run, session, options);
const onMachine = machine(loadBefore);

const report = editorReport(timings, options, input);
console.log(report.table);
console.log(report.serialization);
console.log(report.runRead);
if (!process.argv.includes('--no-write')) {
  writeEditorSection(report, options, input, check, onMachine);
  console.log('wrote the editor section of BENCHMARKS.md');
}
