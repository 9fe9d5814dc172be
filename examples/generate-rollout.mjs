// Generates the example miles training run in examples/run/rollout/: three rollout steps of
// `Sample.to_dict()` lines as miles' JSON dump writes them (Python `json.dumps` layout: `, ` and
// `: ` separators, floats written as floats). Seeded, so the output is the same on every run:
//   node examples/generate-rollout.mjs
// The run: an agentic SWE task, n_samples_per_prompt = 4, 8 prompts per step, dynamic filter
// check_reward_nonzero_std. Each group's script below says which finding it is there to show.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumps, f, seededRandom } from './pyjson.mjs';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'run', 'rollout');
const N = 4;

const { rand, randInt } = seededRandom(20240611);


// ---- the tasks (prompts) ----
const REPOS = ['acme/billing', 'acme/ledger', 'orbit/scheduler', 'orbit/cli', 'pixel/render', 'pixel/imageio', 'tern/http', 'tern/auth'];
const BUGS = [
  'the invoice total is off by one cent when a discount applies',
  'parsing an empty CSV header raises IndexError',
  'a cron expression with step values skips the last slot',
  '`--dry-run` still writes the lock file',
  'alpha blending of two transparent layers gives black',
  'PNG files with a zero-length IDAT chunk crash the decoder',
  'redirects drop the Authorization header on the same host',
  'expired refresh tokens are accepted for 60 seconds',
];
function task(i) {
  const repo = REPOS[i % REPOS.length];
  const issue = 1000 + i * 37;
  return {
    instance_id: `${repo.replace('/', '__')}-${issue}`,
    prompt: [
      { role: 'system', content: 'You are a software engineer working in a sandboxed repository. Use the tools to inspect, edit and test the code, then submit.' },
      { role: 'user', content: `Repository ${repo}, issue #${issue}: ${BUGS[i % BUGS.length]}. Make the failing test pass without breaking others.` },
    ],
    label: `tests/test_issue_${issue}.py::test_regression`,
  };
}

// ---- one sample ----
// kind: 'ok' (scored), 'abort' (status aborted), 'trunc' (hit the length limit, scored 0).
function sample({ step, group, index, t, kind, reward, exit, intReward = false }) {
  const promptTokens = Array.from({ length: 8 }, () => randInt(100, 32000));
  const meta = { instance_id: t.instance_id };
  if (exit !== undefined) meta.exit_status = exit;
  if (kind === 'abort') {
    return {
      group_index: group, index, rollout_id: step, prompt: t.prompt, tokens: promptTokens, multimodal_inputs: null,
      response: '', response_length: 0, label: t.label, reward: null, loss_mask: [], weight_versions: [],
      rollout_log_probs: [], rollout_routed_experts: null, remove_sample: false, status: 'aborted',
      metadata: meta, train_metadata: null, non_generation_time: f(Math.round(rand() * 4000) / 100),
    };
  }
  const len = kind === 'trunc' ? 12 : randInt(5, 10);
  const respTokens = Array.from({ length: len }, () => randInt(100, 32000));
  meta.agent_metrics = { turns: randInt(3, 18), tool_calls: randInt(2, 30) };
  return {
    group_index: group, index, rollout_id: step, prompt: t.prompt, tokens: [...promptTokens, ...respTokens],
    multimodal_inputs: null,
    response: kind === 'trunc' ? 'Let me look at the parser again. The header row is read by' : 'I ran the failing test, patched the function and re-ran the suite. Submitting.',
    response_length: len, label: t.label, reward: intReward ? reward : f(reward), loss_mask: Array(len).fill(1),
    weight_versions: [String(step)], rollout_log_probs: respTokens.map(() => f(-Math.round(rand() * 250000) / 100000)),
    rollout_routed_experts: null, remove_sample: false, status: kind === 'trunc' ? 'truncated' : 'completed',
    metadata: meta, train_metadata: null, non_generation_time: f(Math.round(rand() * 4000) / 100),
  };
}

/** A group from a per-sample script: [kind, reward, exit_status?] (exit omitted → none recorded). */
function makeGroup(step, group, taskIndex, script, opts = {}) {
  const t = task(taskIndex);
  return script.map(([kind, reward, exit], i) =>
    sample({ step, group, index: group * N + i, t: opts.taskOf ? task(opts.taskOf(i)) : t, kind, reward, exit, intReward: opts.intReward }));
}
const ok = (r) => ['ok', r, 'Submitted'];

const steps = {
  // Step 1: a sync rollout writes group after group, members in index order.
  1: [
    makeGroup(1, 0, 0, [ok(1), ok(0), ok(1), ok(0)]), // kept
    makeGroup(1, 1, 1, [ok(1), ok(0), ['abort', null, 'ServerUnreachable'], ok(1)]), // group-dropped ServerUnreachable
    makeGroup(1, 2, 2, [ok(1), ok(1), ok(1), ok(1)]), // zero-std-group zero_std_1.0
    makeGroup(1, 3, 3, [['abort', null, 'SandboxUnavailable'], ok(1), ok(0), ['abort', null, 'ServerUnreachable']]), // two causes: first wins
    makeGroup(1, 4, 4, [ok(0), ['abort', null], ok(1), ok(0)]), // abort-cause-unknown → group_has_aborted_unknown
    makeGroup(1, 5, 5, [ok(1), ['ok', 0, 'ServerUnreachable'], ok(0), ok(1)]), // infra-failure-scored
    makeGroup(1, 6, 6, [ok(0), ['abort', null, 'TimeLimitExceeded'], ok(1), ok(0)]), // policy-failure-discarded
    makeGroup(1, 7, 7, [ok(0), ['trunc', 0, 'SequenceLengthLimitExceeded'], ok(0), ok(0)]), // zero_std_0.0 (truncation scored 0: correct)
  ].flat(),
  // Step 2: a fully-async rollout writes samples as they finish: groups interleave, out of index order.
  2: interleave([
    makeGroup(2, 8, 8, [ok(1), ok(0), ok(0), ok(1)]), // kept
    makeGroup(2, 9, 9, [['abort', null, 'ServerUnreachable'], ['abort', null, 'ServerUnreachable'], ok(1), ok(0)]), // 2 aborts, 1 drop
    makeGroup(2, 10, 10, [ok(0), ok(1), ok(1)]), // incomplete-group (3 of 4)
    makeGroup(2, 11, 11, [ok(1), ok(0), ok(0), ok(1)], { taskOf: (i) => (i < 2 ? 11 : 19) }), // misgrouped: 2 prompts
    makeGroup(2, 12, 12, [ok(1), ok(0), ok(1), ok(1)]), // misgrouped: same prompt as group 13
    makeGroup(2, 13, 12, [ok(0), ok(0), ok(1), ok(0)]),
    makeGroup(2, 14, 14, [ok(0.25), ok(0.25), ok(0.25), ok(0.25)]), // zero_std_0.2: Python rounds 0.25 half-to-even
    makeGroup(2, 15, 15, [ok(1), ok(1), ok(1), ok(1)], { intReward: true }), // zero_std_1: an int reward stays an int
  ]),
  // Step 3: sync again; infrastructure trouble early in the step.
  3: [
    makeGroup(3, 16, 16, [['abort', null, 'AgentSetupFailed'], ['abort', null, 'AgentSetupFailed'], ['abort', null, 'AgentSetupFailed'], ['abort', null, 'AgentSetupFailed']]),
    makeGroup(3, 17, 17, [ok(1), ok(0), ['ok', 0, 'TimeLimitExceeded'], ok(1)]), // policy timeout kept, scored 0: correct
    makeGroup(3, 18, 18, [ok(1), ok(0), ['abort', null, 'VerifierError'], ok(0)]), // policy-failure-discarded
    makeGroup(3, 19, 20, [ok(0), ok(1), ok(1), ok(0)]), // kept
    makeGroup(3, 20, 21, [ok(1), ok(0), ok(0), ['abort', null, 'NoModelCalls']]), // group-dropped NoModelCalls
    makeGroup(3, 21, 22, [ok(1), ok(1), ok(0), ok(1)]), // kept
    makeGroup(3, 22, 23, [ok(0), ok(0), ok(0), ok(0)]), // zero_std_0.0
    makeGroup(3, 23, 24, [ok(1), ['abort', null, ''], ok(1), ok(0)]), // empty exit_status → unknown
  ].flat(),
};

/** Fully-async write order: a seeded shuffle of all samples of the step. */
function interleave(groups) {
  const all = groups.flat();
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}

mkdirSync(OUT, { recursive: true });
for (const [step, samples] of Object.entries(steps)) {
  const file = join(OUT, `rollout_${step}.jsonl`);
  writeFileSync(file, samples.map(dumps).join('\n') + '\n');
  console.log(`${file}: ${samples.length} samples`);
}
