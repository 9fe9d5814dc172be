// Generates the evaluation half of the example run in examples/run/ (seeded: same output every run):
//   node examples/generate-eval.mjs
// - eval/eval_100.jsonl   miles eval dump (`Sample.to_dict()` lines, Python json.dumps layout) of
//                         step 100: aime (no dataset name: told apart by index restarts + config
//                         order; own n 4 vs global 2), gpqa (config says 2, prompts repeat 3 times;
//                         one attempt without reward; one truncated), swe_verified (every attempt aborted)
// - eval_config.yaml      the miles eval config, with comments (what `check --fix` edits)
// - metrics.jsonl         the miles dashboard log of that eval: one value differs from the recomputed
//                         one, and pass@2 of aime is the global-n (wrong) grouping
// - verl/rollout/12.jsonl    verl rollout dump with empty outputs (critic/score/mean inflation)
// - verl/validation/12.jsonl verl validation dump where one prompt lost a sample
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumps, f, seededRandom } from './pyjson.mjs';

const RUN = join(dirname(fileURLToPath(import.meta.url)), 'run');
const STEP = 100;
const GLOBAL_N = 2; // miles' --n-samples-per-eval-prompt in this run (rollout-lens.yaml says so too)

const { rand, randInt } = seededRandom(20240612);

const lines = (rows) => rows.map(dumps).join('\n') + '\n';

// ---- miles eval dump ----
// Per dataset: prompts, each with its attempts: reward (null: none), and a status.
const AIME = [[1, 1, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]].map((p) => p.map((r) => ({ r })));
const GPQA = [
  [{ r: 1 }, { r: 1 }, { r: 0 }],
  [{ r: 0 }, { r: null, status: 'aborted', exit: 'ServerUnreachable' }, { r: 1 }],
  [{ r: 1 }, { r: 0, status: 'truncated' }, { r: 0 }],
  [{ r: 1 }, { r: 1 }, { r: 1 }],
];
const SWE = [[0, 1], [2, 3]].map((p) => p.map(() => ({ r: null, status: 'aborted', exit: 'SandboxUnavailable' })));

const QUESTIONS = {
  aime: (i) => `Find the number of ordered pairs (a, b) of positive integers with a + b = ${1000 + 17 * i} and gcd(a, b) = 1.`,
  gpqa: (i) => `A particle of mass m in a 1D box of width L is in state n = ${i + 2}. Which expression gives its energy?`,
  swe_verified: (i) => `Repository tern/http, issue #${2200 + i}: redirects drop the Authorization header on the same host.`,
};

function sample(ds, prompt, attempt, index, named) {
  const status = attempt.status ?? 'completed';
  const aborted = status === 'aborted';
  const len = aborted ? 0 : status === 'truncated' ? 64 : randInt(8, 40);
  const metadata = { rm_type: ds === 'swe_verified' ? 'swe' : 'math' };
  if (named) metadata.dataset_name = ds;
  if (attempt.exit) metadata.exit_status = attempt.exit;
  return {
    group_index: null, index, rollout_id: STEP,
    prompt: [{ role: 'user', content: QUESTIONS[ds](prompt) }],
    tokens: Array.from({ length: 6 + len }, () => randInt(100, 30000)),
    response: aborted ? '' : status === 'truncated' ? 'Using the boundary conditions, E = ' : 'The answer is ' + randInt(1, 999) + '.',
    response_length: len,
    label: String(randInt(1, 999)),
    reward: attempt.r === null ? null : f(attempt.r),
    loss_mask: Array(len).fill(1),
    rollout_log_probs: Array.from({ length: len }, () => f(-Math.round(rand() * 250000) / 100000)),
    remove_sample: false,
    status,
    metadata,
  };
}

function datasetRows(ds, prompts, named) {
  let index = 0;
  return prompts.flatMap((attempts, p) => attempts.map((a) => sample(ds, p, a, index++, named)));
}

const evalRows = [...datasetRows('aime', AIME, false), ...datasetRows('gpqa', GPQA, true), ...datasetRows('swe_verified', SWE, true)];
mkdirSync(join(RUN, 'eval'), { recursive: true });
writeFileSync(join(RUN, 'eval', `eval_${STEP}.jsonl`), lines(evalRows));

// ---- the dashboard metrics miles logged for that eval ----
const flat = (prompts) => prompts.flat().map((a) => a.r ?? 0);
function estimator(n, c, k) {
  if (n - c < k) return 1.0;
  let prod = 1.0;
  for (let i = n - c + 1; i <= n; i++) prod *= 1.0 - k / i;
  return 1.0 - prod;
}
function passAtK(rewards, n) {
  const out = {};
  for (let k = 1; k <= n; k *= 2) {
    const est = [];
    for (let g = 0; g < rewards.length; g += n) est.push(estimator(n, rewards.slice(g, g + n).filter((r) => r === 1).length, k));
    out[`pass@${k}`] = est.reduce((a, b) => a + b, 0) / est.length;
  }
  return out;
}
const aime = flat(AIME);
const gpqa = flat(GPQA);
const gpqaScored = GPQA.flat().filter((a) => a.r !== null).map((a) => a.r);
const logged = {
  // Older miles grouped pass@k by the global n (2), not aime's own 4: pass@2 is over wrong groups.
  'eval/aime-none_reward_ratio': f(0), 'eval/aime': f(aime.reduce((a, b) => a + b, 0) / aime.length),
  'eval/aime-truncated_ratio': f(0),
  ...Object.fromEntries(Object.entries(passAtK(aime, GLOBAL_N)).map(([k, v]) => [`eval/aime-${k}`, f(v)])),
  'eval/gpqa-none_reward_ratio': f(1 / 12),
  // A patched logger averaged gpqa over the attempts that had a reward only: 7/11, not 7/12.
  'eval/gpqa': f(gpqaScored.reduce((a, b) => a + b, 0) / gpqaScored.length),
  'eval/gpqa-truncated_ratio': f(1 / 12),
  ...Object.fromEntries(Object.entries(passAtK(gpqa, GLOBAL_N)).map(([k, v]) => [`eval/gpqa-${k}`, f(v)])),
  'eval/step': STEP,
  // swe_verified: every attempt aborted; older miles crashed before logging it.
};
writeFileSync(join(RUN, 'metrics.jsonl'), lines([{ ts: f(1718198400.5), step_key: 'eval/step', step: STEP, metrics: logged }]));

// ---- verl dumps ----
const MATH = (i) => `Natalia sold clips to ${40 + i} of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether?`;
// verl rollout: per prompt, attempts as score or '' (empty output: verl masks response_length == 0).
const ROLLOUT = [[1, 1, 0, 1], [0, '', 0, 1], [1, '', 1, ''], [0, 0, 0, 0]];
const rolloutRows = ROLLOUT.flatMap((attempts, p) => attempts.map((a, j) => ({
  input: `<|im_start|>user\n${MATH(p)}<|im_end|>\n<|im_start|>assistant\n`,
  output: a === '' ? '' : `Natalia sold ${40 + p} / 2 = ${(40 + p) / 2} clips in May. #### ${(40 + p) * 1.5}`,
  gts: String((40 + p) * 1.5),
  score: f(a === '' ? 0 : a),
  step: 12,
  uid: `9f1c${p}e2a-77b4-4c1e-a3d0-5e0b2c${p}d1f0a_0_${j}`,
})));
mkdirSync(join(RUN, 'verl', 'rollout'), { recursive: true });
writeFileSync(join(RUN, 'verl', 'rollout', '12.jsonl'), lines(rolloutRows));

// verl validation: acc per attempt; the third prompt lost one of its 4 samples.
const VALIDATION = [[1, 1, 0, 1], [1, 1, 1, 1], [0, 0, 1]];
const validationRows = VALIDATION.flatMap((attempts, p) => attempts.map((a, j) => ({
  input: `<|im_start|>user\n${MATH(10 + p)}<|im_end|>\n<|im_start|>assistant\n`,
  output: `... #### ${a ? (50 + p) * 1.5 : 7}`,
  gts: String((50 + p) * 1.5),
  score: f(a),
  step: 12,
  reward: f(a),
  acc: a === 1,
  pred: String(a ? (50 + p) * 1.5 : 7),
  data_source: 'gsm8k',
  uid: `c0ffee${p}0-1b2c-4d5e-8f90-a1b2c3d4e5f${p}_0_${j}`,
})));
mkdirSync(join(RUN, 'verl', 'validation'), { recursive: true });
writeFileSync(join(RUN, 'verl', 'validation', '12.jsonl'), lines(validationRows));
