import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyCause, dropMetricName, formerNames, formerlyMetricNames, FORMERLY_ABORTED, abortedReason } from '../../../server/src/core/vocabulary/causes';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { CauseClasses } from '../../../server/src/core/rollout/causeClass';
import { aborted, codes, FILE, inFileOrder, sample, settings } from './helpers';

const defaults = { infraCauses: [], policyCauses: [] };

test('infrastructure causes: SandboxUnavailable, AgentSetupFailed, ServerUnreachable, NoModelCalls, CollectFailed, AllTruncated, NonCanonicalVerifier', () => {
  for (const cause of [
    'SandboxUnavailable',
    'AgentSetupFailed',
    'ServerUnreachable',
    'NoModelCalls',
    'CollectFailed',
    'AllTruncated',
    'NonCanonicalVerifier',
  ]) {
    assert.equal(classifyCause(cause, defaults), 'infrastructure', cause);
  }
});

test('Submitted is a normal, scored finish', () => {
  assert.equal(classifyCause('Submitted', defaults), 'scored');
});

test('policy causes: TimeLimitExceeded, timeouts, SequenceLengthLimitExceeded, turn limits, VerifierError, AgentError, Api* errors', () => {
  const policy = [
    'TimeLimitExceeded',
    'SequenceLengthLimitExceeded',
    'VerifierError',
    'AgentError',
    'Timeout',
    'AgentTimeoutError',
    'TimedOut',
    'timed_out',
    'time_limit', // timeouts
    'TurnLimitExceeded',
    'MaxTurnsExceeded',
    'max_turns', // turn limits
    'ApiError',
    'ApiRateLimitError',
    'ApiBadRequestError', // installed agents' Api* errors
  ];
  for (const cause of policy) assert.equal(classifyCause(cause, defaults), 'policy', cause);
});

test("ServerUnreachable's exceptions are infrastructure: litellm APIConnectionError, ServiceUnavailableError; httpx.TransportError", () => {
  for (const cause of ['APIConnectionError', 'ServiceUnavailableError', 'httpx.TransportError', 'litellm.exceptions.APIConnectionError', 'TransportError']) {
    assert.equal(classifyCause(cause, defaults), 'infrastructure', cause);
  }
  assert.equal(classifyCause('mypkg.AgentTimeoutError', defaults), 'policy');
  assert.equal(classifyCause('pkg.', defaults), 'unclassified');
});

test("Api* means installed agents' Api<Name> errors only; unknown causes stay unclassified", () => {
  assert.equal(classifyCause('Apis', defaults), 'unclassified');
  assert.equal(classifyCause('OutOfMemory', defaults), 'unclassified');
  assert.equal(classifyCause(null, defaults), 'unclassified');
  assert.equal(classifyCause('', defaults), 'unclassified');
  // Exact names are case-sensitive: miles writes them as class names.
  assert.equal(classifyCause('serverunreachable', defaults), 'unclassified');
});

test('the lists are allow-lists users extend: infraCauses and policyCauses add causes', () => {
  const user = { infraCauses: ['DockerPullFailed'], policyCauses: ['WrongAnswerFormat'] };
  assert.equal(classifyCause('DockerPullFailed', user), 'infrastructure');
  assert.equal(classifyCause('WrongAnswerFormat', user), 'policy');
  assert.equal(classifyCause('DockerPullFailed', defaults), 'unclassified');
  // Defaults still apply alongside.
  assert.equal(classifyCause('ServerUnreachable', user), 'infrastructure');
  assert.equal(classifyCause('TimeLimitExceeded', user), 'policy');
});

test('a user entry overrides the default classification (user infra before default policy and patterns)', () => {
  const user = { infraCauses: ['EnvironmentStartTimeoutError', 'VerifierError'], policyCauses: ['NonCanonicalVerifier'] };
  assert.equal(classifyCause('EnvironmentStartTimeoutError', defaults), 'policy', 'matches the timeout pattern by default');
  assert.equal(classifyCause('EnvironmentStartTimeoutError', user), 'infrastructure');
  assert.equal(classifyCause('VerifierError', user), 'infrastructure');
  assert.equal(classifyCause('NonCanonicalVerifier', user), 'policy');
});

test('infra-failure-scored: an infrastructure cause on a kept, scored sample', () => {
  const samples = inFileOrder([
    sample('1', 0, { cause: 'Submitted', reward: 1 }),
    sample('1', 1, { cause: 'ServerUnreachable', reward: 0, status: 'completed' }),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, {});
  const found = codes(r, 'infra-failure-scored');
  assert.equal(found.length, 1);
  assert.equal(found[0].line, 2);
  assert.equal(found[0].severity, 'warning');
  assert.equal(found[0].group, '1');
  assert.ok(
    found[0].message.startsWith(
      'infrastructure failure ServerUnreachable was kept and scored (status completed, reward 0.0) — its group was kept, so the policy was trained as if it had failed.',
    ),
    found[0].message,
  );
  assert.equal(r.findings.length, 1, 'Submitted raises nothing');
});

test('infra-failure-scored also when its group happened to be dropped, saying so', () => {
  const samples = inFileOrder([sample('1', 0, { cause: 'SandboxUnavailable', reward: 0 }), aborted('1', 1, 'ServerUnreachable')]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  const [f] = codes(r, 'infra-failure-scored');
  assert.equal(f.line, 1);
  assert.match(f.message, /its group happened to be dropped \(group_has_aborted_ServerUnreachable\)/);
});

test('policy-failure-discarded: a cause the policy can cause on an aborted sample', () => {
  const samples = inFileOrder([sample('3', 0), aborted('3', 1, 'TimeLimitExceeded')]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_TimeLimitExceeded': 1 });
  const [f] = codes(r, 'policy-failure-discarded');
  assert.equal(f.line, 2);
  assert.equal(f.severity, 'warning');
  assert.ok(f.message.startsWith('policy failure TimeLimitExceeded was aborted — the policy can cause TimeLimitExceeded'), f.message);
  assert.match(codes(r, 'group-dropped')[0].message, /TimeLimitExceeded is a failure the policy can cause/);
});

test('correct handling raises no cause finding: infra aborted, policy kept and scored 0', () => {
  const samples = inFileOrder([
    aborted('1', 0, 'SandboxUnavailable'),
    sample('1', 1),
    sample('2', 0, { cause: 'TimeLimitExceeded', reward: 0 }),
    sample('2', 1, { cause: 'AgentError', reward: 0 }),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(
    r.findings.map((f) => f.code),
    ['group-dropped'],
  );
});

test('user-extended lists change the findings', () => {
  const samples = inFileOrder([aborted('1', 0, 'WrongAnswerFormat'), sample('2', 0, { cause: 'DockerPullFailed', reward: 0 })]);
  const plain = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(
    plain.findings.map((f) => f.code),
    ['group-dropped'],
  );
  assert.match(plain.findings[0].message, /WrongAnswerFormat is in neither cause list; add it to the setting infraCauses or policyCauses/);
  const extended = analyzeRollout(FILE, 'miles-sample', samples, settings({ infraCauses: ['DockerPullFailed'], policyCauses: ['WrongAnswerFormat'] }));
  assert.deepEqual(
    extended.findings.map((f) => f.code),
    ['group-dropped', 'policy-failure-discarded', 'infra-failure-scored'],
  );
});

test('metric names: drop_<reason>, and the formerly names of aborted drops (sync, fully async)', () => {
  assert.equal(abortedReason('X'), 'group_has_aborted_X');
  assert.equal(abortedReason(null), 'group_has_aborted_unknown');
  assert.equal(dropMetricName('zero_std_0.2'), 'rollout/dynamic_filter/drop_zero_std_0.2');
  assert.equal(FORMERLY_ABORTED.sync, 'rollout/dynamic_filter/drop_group_has_aborted');
  assert.equal(FORMERLY_ABORTED.fullyAsync, 'rollout/fully_async/aborted_groups_filtered');
  assert.deepEqual(formerNames('group_has_aborted_ServerUnreachable'), [
    { name: 'rollout/dynamic_filter/drop_group_has_aborted', mode: 'sync' },
    { name: 'rollout/fully_async/aborted_groups_filtered', mode: 'fully async' },
  ]);
  assert.deepEqual(formerlyMetricNames('zero_std_1.0'), []);
});

test('CauseClasses: past the causes it remembers, and for other settings, every cause gets its own class', () => {
  const base = new CauseClasses(settings());
  // A distinct exit status per sample fills the memo; causes met after it are still classified.
  for (let k = 0; k < 10_000; k++) assert.equal(base.of(`Cause${k}`), 'unclassified');
  assert.equal(base.of('ServerUnreachable'), 'infrastructure');
  assert.equal(base.of('httpx.ServerUnreachable'), 'infrastructure');
  assert.equal(base.of('Cause1'), 'unclassified');
  // Other settings, asked in turn with the first: neither gives back what the other remembered.
  const custom = new CauseClasses(settings({ infraCauses: ['Cause1'], policyCauses: ['ServerUnreachable'] }));
  assert.equal(custom.of('Cause1'), 'infrastructure');
  assert.equal(base.of('Cause1'), 'unclassified');
  assert.equal(custom.of('ServerUnreachable'), 'policy');
  assert.equal(base.of('ServerUnreachable'), 'infrastructure');
  assert.equal(custom.of('Cause12345'), 'unclassified');
});
