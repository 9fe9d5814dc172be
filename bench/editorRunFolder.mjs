// The editor bench's input: a seeded miles rollout log (bench/generate.mjs) that is the last step of
// a run folder with other step files, the run settings and a metrics log that disagrees with every
// step, so each step has a run-level finding (docs/editors.md#run-level-findings).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { GENERATION, generateMilesRollout } from './generate.mjs';
import { root } from './measure.mjs';

/** `rollout-lens check --format json` on a file or folder (the built CLI). */
export function checkJson(folder) {
  const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', folder], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`check ${folder} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A metrics log whose `rollout/response_len/mean` is off by one at every step (from what `check` recomputes). */
function writeMetricsLog(folder) {
  const report = checkJson(join(folder, 'rollout'));
  const lines = report.files.map((f) => {
    const step = Number(/rollout_(\d+)\.jsonl$/.exec(f.path)[1]);
    const metrics = { 'rollout/step': step, ...f.metrics, 'rollout/response_len/mean': f.metrics['rollout/response_len/mean'] + 1 };
    return { step, line: JSON.stringify({ ts: 1718198400 + step, step_key: 'rollout/step', step, metrics }) };
  });
  writeFileSync(
    join(folder, 'metrics.jsonl'),
    `${lines
      .sort((a, b) => a.step - b.step)
      .map((l) => l.line)
      .join('\n')}\n`,
  );
}

const settingsYaml = (settings) =>
  Object.entries(settings)
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('');

/**
 * The run folder in `dataDir`, built once: the `mb` MB log as step `otherSteps + 1` (a hard link to
 * the data file), `otherSteps` other steps of `otherMb` MB each, the run settings and the metrics log.
 * Returns the log's text and the paths.
 */
export function editorRunFolder(dataDir, { mb, otherMb, otherSteps, seed, settings }) {
  mkdirSync(dataDir, { recursive: true });
  const dataFile = join(dataDir, `miles-rollout-${mb}m-seed${seed}-${GENERATION}.jsonl`);
  if (!existsSync(dataFile) || statSync(dataFile).size < mb * 1e6) {
    console.log(`generating ${dataFile} (${mb} MB, seed ${seed}) ...`);
    generateMilesRollout(dataFile, mb * 1e6, seed);
  }
  const runDir = join(dataDir, `run-${mb}m-${otherSteps}x${otherMb}m-seed${seed}-${GENERATION}`);
  const step = otherSteps + 1;
  const log = join(runDir, `rollout/rollout_${step}.jsonl`);
  const metrics = join(runDir, 'metrics.jsonl');
  if (!existsSync(metrics)) {
    console.log(`building the run folder ${runDir} ...`);
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(join(runDir, 'rollout'), { recursive: true });
    writeFileSync(join(runDir, 'rollout-lens.yaml'), settingsYaml(settings));
    for (let s = 1; s <= otherSteps; s++) generateMilesRollout(join(runDir, `rollout/rollout_${s}.jsonl`), otherMb * 1e6, seed + s);
    try {
      linkSync(dataFile, log);
    } catch {
      cpSync(dataFile, log);
    }
    writeMetricsLog(runDir);
  }
  return { text: readFileSync(dataFile, 'utf8'), runDir, step, otherSteps, log, metrics, metricsText: readFileSync(metrics, 'utf8') };
}

/**
 * `check`'s JSON report on a copy of the run whose log holds `text` (the other files hard-linked),
 * with the copy's paths in its findings as they are; the copy is removed after.
 */
export function checkEditedRun(run, dataDir, text) {
  const copy = join(dataDir, 'run-edited');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(join(copy, 'rollout'), { recursive: true });
  for (const name of ['rollout-lens.yaml', 'metrics.jsonl']) cpSync(join(run.runDir, name), join(copy, name));
  for (let s = 1; s <= run.otherSteps; s++) linkSync(join(run.runDir, `rollout/rollout_${s}.jsonl`), join(copy, `rollout/rollout_${s}.jsonl`));
  writeFileSync(join(copy, `rollout/rollout_${run.step}.jsonl`), text);
  try {
    return { copy, report: checkJson(copy) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
