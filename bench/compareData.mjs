// Seeded run summaries for the compare bench (bench/compare.mjs) and the compare tests' large
// inputs: `steps` rollout steps of `prompts` prompt groups each (one step file, prompts kept or
// dropped by a handful of causes), and an eval step every 50 rollout steps with two datasets.
// Written as `rollout-lens summarize` writes them (one line per step, docs/compare.md); the
// candidate (`shift` > 0) solves a few more prompts and drops a few more groups.
import { writeFileSync } from 'node:fs';

import { rng } from './generate.mjs';

const CAUSES = ['group_has_aborted_SandboxUnavailable', 'group_has_aborted_ServerUnreachable', 'zero_std_0.0', 'zero_std_1.0'];

function rolloutStep(rand, step, prompts, shift) {
  const states = ['kept'];
  const stateOf = new Map();
  const rows = [];
  const droppedByCause = {};
  const examples = {};
  const reward = { count: 0, sum: 0, sumSq: 0, none: 0 };
  let kept = 0;
  let tokens = 0;
  let droppedTokens = 0;
  for (let p = 0; p < prompts; p++) {
    const r = rand();
    const cause = r < 0.04 + shift ? CAUSES[0] : r < 0.06 ? CAUSES[1] : r < 0.2 ? CAUSES[2] : r < 0.3 ? CAUSES[3] : null;
    const line = p * 8 + 1;
    let state = 0;
    if (cause !== null) {
      state = stateOf.get(cause) ?? states.length;
      if (state === states.length) {
        stateOf.set(cause, state);
        states.push(cause);
      }
      droppedByCause[cause] = (droppedByCause[cause] ?? 0) + 1;
      examples[cause] ??= line;
    } else kept++;
    const passes = cause === 'zero_std_0.0' ? 0 : cause === 'zero_std_1.0' ? 8 : Math.floor(rand() * (8 + 4 * shift * 10));
    const capped = Math.min(8, passes);
    const length = 8 * (200 + Math.floor(rand() * 800));
    tokens += length;
    if (cause !== null) droppedTokens += length;
    reward.count += 8;
    reward.sum += capped;
    reward.sumSq += capped;
    rows.push([(step * 7919 + p * 104729).toString(16).padStart(16, '0').slice(-16), state, 8, capped, capped, line, length]);
  }
  const groups = { total: prompts, kept, dropped: prompts - kept };
  const metrics = {};
  for (const [c, n] of Object.entries(droppedByCause)) metrics[`rollout/dynamic_filter/drop_${c}`] = n;
  for (const m of ['response_len/mean', 'response_len/median', 'response_len/max', 'response_len/min', 'truncated_ratio', 'repetition_frac'])
    metrics[`rollout/${m}`] = Math.round(rand() * 1e6) / 1e3;
  const path = `run/rollout/rollout_${step}.jsonl`;
  const file = {
    path,
    format: 'miles-sample',
    samples: prompts * 8,
    groups,
    droppedByCause,
    responseTokens: tokens,
    droppedTokens,
    reward,
    truncated: 0,
    withStatus: prompts * 8,
    metrics,
    examples,
    findings: {},
    states,
    prompts: rows,
    datasets: [],
  };
  const sorted = Object.fromEntries(Object.entries(droppedByCause).sort(([a], [b]) => (a < b ? -1 : 1)));
  const { path: _p, format: _f, metrics: _m, examples: _e, findings: _fi, states: _s, prompts: _pr, datasets: _d, ...figures } = file;
  return { kind: 'rollout', step, partial: false, ...figures, droppedByCause: sorted, datasets: [], files: [file] };
}

function evalStep(rand, step, shift) {
  const datasets = [];
  const fileDatasets = [];
  let samples = 0;
  for (const [name, n, count] of [
    ['aime', 16, 30],
    ['math500', 4, 500],
  ]) {
    const rows = [];
    let rewardSum = 0;
    for (let p = 0; p < count; p++) {
      const passes = Math.min(n, Math.floor(rand() * (n + 1) + shift * n * 2));
      rewardSum += passes;
      rows.push([`${name}-${p}`, n, passes, passes, 1 + (datasets.length * 1000 + p) * n]);
    }
    samples += n * count;
    fileDatasets.push({ name, n, samples: n * count, noneReward: 0, truncated: 0, line: 1 + datasets.length * 1000 * n, metrics: {}, prompts: rows });
    datasets.push({ name, n, samples: n * count, noneReward: 0, truncated: 0, score: rewardSum / (n * count), passAtK: {} });
  }
  const file = {
    path: `run/eval/eval_${step}.jsonl`,
    format: 'miles-sample',
    samples,
    groups: { total: 0, kept: 0, dropped: 0 },
    droppedByCause: {},
    responseTokens: 0,
    droppedTokens: 0,
    reward: { count: samples, sum: 0, sumSq: 0, none: 0 },
    truncated: 0,
    withStatus: samples,
    metrics: {},
    examples: {},
    findings: {},
    states: ['kept'],
    prompts: [],
    datasets: fileDatasets,
  };
  return {
    kind: 'eval',
    step,
    partial: false,
    samples,
    groups: file.groups,
    droppedByCause: {},
    responseTokens: 0,
    droppedTokens: 0,
    reward: file.reward,
    truncated: 0,
    withStatus: samples,
    datasets,
    files: [file],
  };
}

/**
 * Writes a summary of `steps` rollout steps × `prompts` prompts (plus an eval step every 50) to
 * `path`, seeded; returns its size in bytes and its prompt-steps. The datasets' pass@k figures are
 * left empty (the diff reads them as absent); everything else is as `summarize` writes it.
 */
export function writeSyntheticSummary(path, { steps = 1000, prompts = 512, seed = 1, shift = 0 } = {}) {
  const rand = rng(seed);
  const lines = [];
  let promptSteps = 0;
  for (let s = 1; s <= steps; s++) {
    lines.push(JSON.stringify(rolloutStep(rand, s, prompts, shift)));
    promptSteps += prompts;
    if (s % 50 === 0) lines.push(JSON.stringify(evalStep(rand, s, shift)));
  }
  const text = `{"version":3,"framework":"miles","steps":[\n${lines.join(',\n')}\n]}\n`;
  writeFileSync(path, text);
  return { bytes: Buffer.byteLength(text), promptSteps };
}
