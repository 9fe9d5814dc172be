// Settings: validated field by field with readable messages (bad values fall back to defaults,
// good ones are kept), read per resource through `workspace/configuration`, dropped on change;
// the maxProblems cap with its one summary diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import { validateSettings } from '../../server/src/core/vocabulary/settingsSchema';
import { milesSample, rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace, startHarness } from './harness';

test('validateSettings: missing keys take defaults silently; bad ones take defaults with a readable message; good ones are kept', () => {
  assert.deepEqual(validateSettings(undefined), { settings: DEFAULT_SETTINGS, problems: [] });
  assert.deepEqual(validateSettings({}), { settings: DEFAULT_SETTINGS, problems: [] });
  const { settings, problems } = validateSettings({
    maxProblems: -3,
    dynamicFilter: 'check_reward_nonzero_std',
    framework: 'pytorch',
    nSamplesPerEvalPrompt: 2.5,
    rewardKey: 'acc',
    infraCauses: ['DockerPullFailed'],
    fields: { groupKey: 'meta.group' },
  });
  assert.equal(settings.maxProblems, DEFAULT_SETTINGS.maxProblems);
  assert.equal(settings.dynamicFilter, 'check_reward_nonzero_std');
  assert.equal(settings.framework, 'auto');
  assert.equal(settings.nSamplesPerEvalPrompt, null);
  assert.equal(settings.rewardKey, 'acc');
  assert.deepEqual(settings.infraCauses, ['DockerPullFailed']);
  assert.deepEqual(settings.fields, {});
  assert.deepEqual(problems, [
    'rolloutLens.nSamplesPerEvalPrompt: must be a whole number (got 2.5); using the default null',
    'rolloutLens.framework: Invalid option: expected one of "auto"|"miles"|"slime"|"verl" (got "pytorch"); using the default "auto"',
    'rolloutLens.fields: groupKey: must be a JSON pointer such as /meta/group (got {"groupKey":"meta.group"}); using the default {}',
    'rolloutLens.maxProblems: must be at least 1 (got -3); using the default 1000',
  ]);
  assert.deepEqual(validateSettings('yes').problems, ['rolloutLens: expected an object of settings, got "yes"; using defaults']);
});

test('a bad setting is reported once as a window/logMessage and the document is analysed with the default', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { settings: () => ({ maxProblems: 'many', nSamplesPerPrompt: 4 }) }, async (h) => {
    const a = ws.uri('a.jsonl');
    const b = ws.uri('b.jsonl');
    h.open(a, `${rolloutLines().join('\n')}\n`);
    h.open(b, `${rolloutLines().join('\n')}\n`);
    await h.diagnostics(a, (d) => d.length > 0);
    await h.diagnostics(b, (d) => d.length > 0);
    const reports = h.logs.filter((l) => l.message.startsWith('rolloutLens.maxProblems'));
    assert.equal(reports.length, 1, 'reported once, not once per document');
    assert.equal(reports[0].type, 2, 'a warning');
    assert.match(
      reports[0].message,
      /^rolloutLens\.maxProblems: expected number, received string|^rolloutLens\.maxProblems: Invalid input: expected number, received string/,
    );
  });
});

test('settings are read per resource: two folders, two settings, two results', async () => {
  const one = tempWorkspace();
  const two = tempWorkspace();
  const h = await startHarness({
    workspaceFolders: [one.dir, two.dir],
    // Only folder two runs the dynamic filter.
    settings: (scope) => (scope?.startsWith(`file://${two.dir}`) ? { dynamicFilter: 'check_reward_nonzero_std' } : {}),
  });
  try {
    const lines = [0, 1, 2, 3].map((i) => milesSample({ group: 0, index: i, reward: '0.0' }));
    const text = `${lines.join('\n')}\n`;
    h.open(one.uri('r.jsonl'), text);
    h.open(two.uri('r.jsonl'), text);
    const d1 = await h.diagnostics(one.uri('r.jsonl'));
    const d2 = await h.diagnostics(two.uri('r.jsonl'), (d) => d.length > 0);
    assert.deepEqual(
      d1.map((d) => d.code),
      [],
    );
    assert.deepEqual(
      d2.map((d) => d.code),
      ['zero-std-group'],
    );
    assert.match(String(d2[0].message), /^group dropped: zero_std_0\.0/);
  } finally {
    await h.stop();
    one.remove();
    two.remove();
  }
});

test('maxProblems: the most severe first, then one too-many-problems diagnostic counting the rest by code', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { settings: () => ({ maxProblems: 2 }) }, async (h) => {
    const uri = ws.uri('capped.jsonl');
    // group-dropped (warning) on line 6, then three invalid JSON lines (errors) at the end.
    const text = `${[...rolloutLines(), '{"group_index": 9,', 'not json', '[1, 2'].join('\n')}\n`;
    const diags = await h.openAndWait(uri, text);
    assert.deepEqual(
      diags.map((d) => [d.code, d.range.start.line]),
      [
        ['invalid-json', 12],
        ['invalid-json', 13],
        ['too-many-problems', 13],
      ],
    );
    // The engine's cap (core/findingCap.ts), as check applies it: the reader kept the first two
    // errors and only counted the third.
    assert.equal(
      diags[2].message,
      '2 more problems not shown (maxProblems = 2); most severe shown first; not shown: group-dropped: 1, and 1 more counted while reading',
    );
    assert.equal(diags[2].severity, 3);
    assert.equal(diags[2].source, 'rollout-lens');
  });
});

test('clients without workspace/configuration: settings from didChangeConfiguration are used', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { capabilities: { textDocument: {} } }, async (h) => {
    const uri = ws.uri('r.jsonl');
    const lines = [0, 1].map((i) => milesSample({ group: 0, index: i, reward: '1' }));
    h.open(uri, `${lines.join('\n')}\n`);
    assert.deepEqual(await h.diagnostics(uri), []);
    const mark = h.published.length;
    void h.client.sendNotification('workspace/didChangeConfiguration', { settings: { rolloutLens: { dynamicFilter: 'check_reward_nonzero_std' } } });
    const after = await h.diagnostics(uri, (d) => d.length > 0, mark);
    // An int reward written `1` names the reason as Python prints an int: zero_std_1.
    assert.match(String(after[0].message), /^group dropped: zero_std_1 /);
  });
});

test('clients without workspace/configuration: initializationOptions.settings apply from the first analysis', async () => {
  const ws = tempWorkspace();
  await inWorkspace(
    ws,
    {
      capabilities: { textDocument: {} },
      initializationOptions: { settings: { rolloutLens: { dynamicFilter: 'check_reward_nonzero_std' } } },
    },
    async (h) => {
      const uri = ws.uri('r.jsonl');
      h.open(uri, `${[0, 1].map((i) => milesSample({ group: 0, index: i, reward: '0.5' })).join('\n')}\n`);
      const diags = await h.diagnostics(uri);
      assert.match(String(diags[0]?.message), /^group dropped: zero_std_0\.5 /);
      assert.equal(h.published.filter((p) => p.uri === uri).length, 1, 'no first analysis with defaults');
    },
  );
});
