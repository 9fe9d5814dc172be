// Differential test of the fast validation (formats/validation/fast.ts) against its reference, zod alone: near-valid
// records of each format, written as JSON text (int vs float literals, NaN/Infinity, big ints, -0,
// long strings the scanner skips, nested metadata/reward objects), are scanned through the real
// reader twice, once with the fast path and once with zod only. Records, metrics and findings
// (the `invalid-record` messages included) must be identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import type { RolloutLensSettings } from '../../../shared/protocol';

import { scanPath, tempDir, writeLines } from './helpers';

const RUNS = 1000;

const LONG = JSON.stringify('x'.repeat(1100)); // longer than MAX_STRING: scanned as `Skipped`
/** Any JSON value, of every kind the schemas tell apart. */
const ANY = fc.constantFrom(
  '0',
  '3',
  '-1',
  '-0',
  '1.0',
  '1.5',
  '-2.0',
  '1e3',
  '1E+2',
  '2.5e-3',
  '12345678901234567890',
  '9007199254740993',
  '-12345678901234567890.0',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'true',
  'false',
  '"s"',
  '""',
  '"3"',
  '"aborted"',
  '"completed"',
  '"done"',
  '"Completed"',
  LONG,
  '[1]',
  '[]',
  '{}',
  '{"a":1}',
  '{"score":1.0,"acc":1}',
);
const INT = fc.constantFrom('0', '3', '-1', '-0', '7', '12345678901234567890', '9007199254740993', '1.0', '2e0');
const TEXT = fc.constantFrom('"gsm8k"', '""', '"timeout"', '"math"', '"a\\nb"', LONG);
const NUM = fc.constantFrom('0', '1', '1.0', '0.5', '-2.5', 'NaN', 'Infinity', '-Infinity', '1e308', '12345678901234567890');
const STATUS = fc.constantFrom('"pending"', '"completed"', '"truncated"', '"aborted"', '"failed"');
const ID = fc.oneof(TEXT, INT, fc.constantFrom('"u1_0_3"', '"abc_1_x"', '"7_2_1"'));
const REWARD = fc.oneof(
  NUM,
  fc.constantFrom('null', '{"score":1}', '{"score":1.0,"acc":true}', '{"acc":0}', '{}', '{"score":null}', '{"score":"1"}', '{"score":NaN}'),
);

/** A field: valid per its schema (most often), any other JSON value, or left out (undefined). */
const field = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 10, arbitrary: valid }, { weight: 1, arbitrary: ANY }, { weight: 2, arbitrary: fc.constant(undefined) });

type Fields = [string, fc.Arbitrary<string | undefined>][];

function object(fields: Fields, extras: string[] = []): fc.Arbitrary<string> {
  return fc.tuple(...fields.map(([, arb]) => arb), fc.subarray(extras)).map((values) => {
    const extra = values[fields.length] as string[]; // not popped: fast-check reuses the tuple when shrinking
    const parts = fields.flatMap(([key], k) => (values[k] === undefined ? [] : [`${JSON.stringify(key)}: ${values[k]}`]));
    return `{${[...parts, ...extra].join(', ')}}`;
  });
}

const METADATA = fc.oneof(
  {
    weight: 4,
    arbitrary: object(
      [
        ['exit_status', field(TEXT)],
        ['dataset', field(TEXT)],
        ['dataset_name', field(TEXT)],
        ['instance_id', field(ID)],
      ],
      ['"reward": {"score": 2}', '"other": [1]'],
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"m"', '1') },
);

const SAMPLE_COMMON: Fields = [
  ['status', field(STATUS)],
  ['reward', field(REWARD)],
  ['dataset', field(TEXT)],
  ['data_source', field(TEXT)],
  ['metadata', field(METADATA)],
];

interface Format {
  name: string;
  file: string;
  /** A valid first line, so detection settles on this format. */
  anchor: string;
  record: fc.Arbitrary<string>;
  settings?: Partial<RolloutLensSettings>;
}

const FORMATS: Format[] = [
  {
    name: 'miles-sample',
    file: 'rollout_1.jsonl',
    anchor: '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "reward": 1}',
    record: object(
      [['group_index', field(INT)], ['index', field(INT)], ['rollout_id', field(INT)], ['response_length', field(INT)], ...SAMPLE_COMMON],
      ['"prompt": "p"', `"prompt": ${LONG}`, '"label": "l"', '"response": "r"', '"tokens": [1, 2]'],
    ),
  },
  {
    name: 'miles-trajectory',
    file: 'eval_3.jsonl',
    anchor: '{"sample_index": 0, "group_index": 0, "prompt": "p", "reward": 1.0}',
    record: object([['sample_index', field(INT)], ['group_index', field(INT)], ...SAMPLE_COMMON], ['"prompt": "q"']),
  },
  {
    name: 'miles-eval-trials',
    file: 'trials.jsonl',
    anchor: '{"instance_id": "a", "trial_idx": 0, "status_code": 0}',
    record: object(
      [
        ['instance_id', field(ID)],
        ['trial_idx', field(INT)],
        ['status_code', field(fc.oneof(INT, fc.constant('-1')))],
        ['elapsed_sec', field(NUM)],
        ['exit_status', field(TEXT)],
        ...SAMPLE_COMMON,
      ],
      ['"error": "boom"', '"error": ""', '"error": false'],
    ),
    settings: { evalRewardKey: 'score' },
  },
  {
    name: 'miles-metrics',
    file: 'metrics.jsonl',
    anchor: '{"step": 1, "metrics": {"a": 1}}',
    record: object(
      [
        ['step', field(NUM)],
        ['step_key', field(TEXT)],
        ['metrics', field(fc.constantFrom('{"a": 1, "b": 0.5, "c": "x", "d": NaN}', '{}', '{"e": true, "f": null}'))],
      ],
      ['"ts": 3'],
    ),
  },
  {
    name: 'verl-rollout',
    file: 'rollout.jsonl',
    anchor: '{"input": "q", "output": "a", "gts": "1", "score": 1.0, "uid": "u_0_0"}',
    record: object(
      [
        ['input', field(fc.constantFrom('"q1"', '"q2"', LONG, 'null'))],
        ['output', field(fc.constantFrom('"a"', '""', LONG))],
        ['score', field(NUM)],
        ['reward', field(NUM)],
        ['step', field(NUM)],
        ['uid', field(ID)],
        ['data_source', field(TEXT)],
      ],
      ['"gts": "1"', '"acc": true', '"acc": false', '"extra": 2.5', '"request_id": 3'],
    ),
  },
  {
    name: 'verl-validation',
    file: 'val/0.jsonl',
    anchor: '{"input": "q", "output": "a", "gts": "1", "score": 1.0, "reward": 1, "data_source": "gsm8k"}',
    record: object(
      [
        ['input', field(fc.constantFrom('"q1"', '"q2"', 'null'))],
        ['output', field(fc.constantFrom('"a"', '""', LONG))],
        ['score', field(NUM)],
        ['reward', field(NUM)],
        ['step', field(NUM)],
        ['uid', field(ID)],
        ['data_source', field(TEXT)],
      ],
      ['"acc": 1', '"pred": "x"'],
    ),
    settings: { rewardKey: 'score' },
  },
  {
    name: 'generic',
    file: 'custom.jsonl',
    anchor: '{"g": 1, "m": {"i": 0}, "st": "completed", "r": 1}',
    record: object([
      ['g', field(ID)],
      [
        'm',
        field(
          object([
            ['i', field(INT)],
            ['c', field(TEXT)],
          ]),
        ),
      ],
      ['st', field(STATUS)],
      ['r', field(REWARD)],
      ['ds', field(TEXT)],
      ['len', field(INT)],
      ['p', field(TEXT)],
    ]),
    settings: {
      fields: { groupKey: '/g', index: '/m/i', cause: '/m/c', status: '/st', reward: '/r', dataset: '/ds', responseLength: '/len', prompt: '/p' },
      rewardKey: 'score',
    },
  },
];

async function scanBoth(path: string, settings: Partial<RolloutLensSettings>) {
  const pick = (s: Awaited<ReturnType<typeof scanPath>>) => ({
    format: s.format,
    kind: s.kind,
    samples: s.samples,
    metricsRecords: s.metricsRecords,
    records: s.records,
    invalidLines: s.invalidLines,
    findings: s.findings,
  });
  const fast = pick(await scanPath(path, settings));
  const zod = pick(await scanPath(path, settings, { zodOnly: true }));
  return { fast, zod };
}

for (const format of FORMATS) {
  test(`fast validation path: ${format.name} records normalise exactly as through zod (records, invalid-record messages)`, async (t) => {
    const dir = tempDir(t);
    let valid = 0;
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(format.record, { minLength: 1, maxLength: 4 }), async (lines) => {
        const path = writeLines(dir, format.file, [format.anchor, ...lines]);
        const { fast, zod } = await scanBoth(path, format.settings ?? {});
        assert.equal(fast.format, format.name);
        assert.deepStrictEqual(fast, zod);
        valid += fast.records - 1;
        invalid += fast.findings.filter((f) => f.code === 'invalid-record' && f.message.startsWith('invalid ')).length;
      }),
      { numRuns: RUNS },
    );
    // Both outcomes were exercised often: valid records (fast path) and invalid ones (zod's message).
    assert.ok(valid > RUNS / 4, `valid records: ${valid}`);
    assert.ok(invalid > RUNS / 4, `invalid records: ${invalid}`);
  });
}
