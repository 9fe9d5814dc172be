// Every field the analysis reads, of every format, with every wrong type: one invalid-record
// warning on that line naming the field, what it held and what was expected; the other lines of
// the file are still records. One file per format, good lines first (so detection settles), then
// one bad line per case between more good lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { RolloutLensSettings } from '../../shared/protocol';
import { check, tempDir, write } from './helpers';

type Json = Record<string, unknown>;

const INT_WRONG = ['"1"', '1.5', 'true', '[1]', '{"a": 1}', 'NaN', 'Infinity', '"x"'];
const NUMBER_WRONG = ['"1.0"', 'true', '[1]', '{"a": 1}', '"NaN"'];
const STRING_WRONG = ['1', 'true', '[]', '{}', JSON.stringify('x'.repeat(2000))];
const STATUS_WRONG = ['"done"', '"ABORTED"', '1', 'true', '[]', '{}'];
// A JSON bool is a reward: Python's sum and == 1 count True as 1 (docs/framework-files.md, "Stock configurations").
const REWARD_WRONG = ['"1.0"', '"true"', '[1, 0]', '"null"'];
const OBJECT_WRONG = ['"meta"', '1', '[]', 'true'];
const ID_WRONG = ['1.5', 'true', '[]', '{}', 'NaN'];

interface FormatCase {
  format: string;
  file: string;
  settings?: Partial<RolloutLensSettings>;
  /** A valid record; `i` makes each line distinct. */
  base: (i: number) => Json;
  /** Field path (dots) → wrong JSON texts; `undefined` in the list means "missing". */
  fields: Record<string, (string | undefined)[]>;
  /** How the message names a field (the generic format names its setting). */
  label?: (path: string) => string;
}

const CASES: FormatCase[] = [
  {
    format: 'miles-sample',
    file: 'rollout_3.jsonl',
    base: (i) => ({
      group_index: Math.floor(i / 4),
      index: i,
      rollout_id: 3,
      prompt: `p${Math.floor(i / 4)}`,
      tokens: [1, 2],
      response: 'r',
      response_length: 1,
      status: 'completed',
      reward: i % 2,
      metadata: { exit_status: 'Submitted' },
    }),
    fields: {
      group_index: INT_WRONG,
      index: INT_WRONG,
      rollout_id: INT_WRONG,
      status: STATUS_WRONG,
      reward: REWARD_WRONG,
      response_length: INT_WRONG,
      dataset: STRING_WRONG,
      data_source: STRING_WRONG,
      metadata: OBJECT_WRONG,
      'metadata.exit_status': STRING_WRONG,
      'metadata.dataset': STRING_WRONG,
      'metadata.dataset_name': STRING_WRONG,
      'metadata.instance_id': ID_WRONG,
    },
  },
  {
    format: 'miles-trajectory',
    file: 'trajectory/3.jsonl',
    base: (i) => ({ sample_index: i, group_index: Math.floor(i / 4), status: 'completed', reward: i % 2, prompt: `p${Math.floor(i / 4)}`, messages: [] }),
    fields: {
      sample_index: [...INT_WRONG, undefined],
      group_index: INT_WRONG,
      status: STATUS_WRONG,
      reward: REWARD_WRONG,
      dataset: STRING_WRONG,
      data_source: STRING_WRONG,
      metadata: OBJECT_WRONG,
    },
  },
  {
    format: 'miles-eval-trials',
    file: 'trials.jsonl',
    base: (i) => ({
      instance_id: `repo__issue-${Math.floor(i / 4)}`,
      trial_idx: i % 4,
      status_code: 0,
      elapsed_sec: 12.5,
      reward: i % 2,
      exit_status: 'Submitted',
      agent_metrics: {},
      eval_report: {},
    }),
    fields: {
      instance_id: [...ID_WRONG, undefined],
      trial_idx: INT_WRONG,
      status_code: INT_WRONG,
      elapsed_sec: NUMBER_WRONG,
      reward: REWARD_WRONG,
      exit_status: STRING_WRONG,
      dataset: STRING_WRONG,
      metadata: OBJECT_WRONG,
    },
  },
  {
    format: 'miles-metrics',
    file: 'metrics.jsonl',
    base: (i) => ({ ts: 1700000000 + i, step_key: 'rollout/step', step: i, metrics: { 'eval/aime': 0.5 } }),
    fields: { step: NUMBER_WRONG, step_key: STRING_WRONG, metrics: [...OBJECT_WRONG, undefined] },
  },
  {
    format: 'verl-rollout',
    file: 'verl/12.jsonl',
    base: (i) => ({ input: `q${Math.floor(i / 4)}`, output: 'a', gts: '1', score: i % 2, step: 12, uid: `u${Math.floor(i / 4)}` }),
    fields: { output: [...STRING_WRONG.slice(0, 4), undefined], score: NUMBER_WRONG, step: NUMBER_WRONG, uid: ID_WRONG, data_source: STRING_WRONG },
  },
  {
    format: 'verl-validation',
    file: 'val/12.jsonl',
    base: (i) => ({
      input: `q${Math.floor(i / 4)}`,
      output: 'a',
      gts: '1',
      score: i % 2,
      reward: i % 2,
      step: 12,
      data_source: 'gsm8k',
      uid: `u${Math.floor(i / 4)}`,
    }),
    fields: { input: [undefined], output: STRING_WRONG.slice(0, 4), reward: NUMBER_WRONG, data_source: STRING_WRONG },
  },
  {
    format: 'generic',
    file: 'custom.jsonl',
    settings: { fields: { groupKey: '/meta/g', index: '/meta/i', status: '/st', reward: '/r', cause: '/why', dataset: '/ds', responseLength: '/len' } },
    base: (i) => ({ meta: { g: `g${Math.floor(i / 4)}`, i }, st: 'completed', r: i % 2, why: 'Submitted', ds: 'aime', len: 3 }),
    fields: { 'meta.g': [...ID_WRONG, undefined], 'meta.i': INT_WRONG, st: STATUS_WRONG, r: REWARD_WRONG, why: STRING_WRONG, ds: STRING_WRONG, len: INT_WRONG },
    label: (path) =>
      `${{ 'meta.g': 'groupKey', 'meta.i': 'index', st: 'status', r: 'reward', why: 'cause', ds: 'dataset', len: 'responseLength' }[path] ?? path} (/${path.replace('.', '/')})`,
  },
];

const PLACEHOLDER = '"@@wrong@@"';

/** The record's JSON text with the field at `path` set to the raw JSON `wrong` (or removed). */
function withField(record: Json, path: string, wrong: string | undefined): string {
  const copy = JSON.parse(JSON.stringify(record)) as Json;
  const keys = path.split('.');
  let at = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Json;
  const last = keys[keys.length - 1];
  if (wrong === undefined) delete at[last];
  else at[last] = '@@wrong@@';
  const text = JSON.stringify(copy);
  assert.ok(wrong === undefined || text.includes(PLACEHOLDER));
  return text.replace(PLACEHOLDER, wrong ?? '');
}

const total = CASES.reduce((n, c) => n + Object.values(c.fields).reduce((m, v) => m + v.length, 0), 0);

test(`every field of every format with the wrong type or missing (${total} cases over 7 formats): one invalid-record warning on its line naming the field, the value and what was expected; every other line is a record`, async (t) => {
  const dir = tempDir(t);
  for (const c of CASES) {
    await t.test(c.format, async () => {
      const lines: string[] = [];
      for (let i = 0; i < 8; i++) lines.push(JSON.stringify(c.base(i)));
      const bad: { line: number; field: string; wrong: string | undefined }[] = [];
      let i = 8;
      for (const [field, wrongs] of Object.entries(c.fields)) {
        for (const wrong of wrongs) {
          lines.push(withField(c.base(i++), field, wrong));
          bad.push({ line: lines.length, field, wrong });
          lines.push(JSON.stringify(c.base(i++)));
        }
      }
      mkdirSync(join(dir, c.file, '..'), { recursive: true });
      const r = await check(write(dir, c.file, `${lines.join('\n')}\n`), c.settings);
      assert.equal(r.file.format, c.format);
      const reported = new Set(r.findings.filter((f) => f.code === 'invalid-record').map((f) => f.line));
      const missed = bad.filter((b) => !reported.has(b.line)).map((b) => `${b.field}=${(b.wrong ?? '(missing)').slice(0, 20)}`);
      assert.deepEqual(missed, [], 'every wrong value is reported');
      assert.equal(r.file.records, lines.length - bad.length, 'every good line is a record');
      assert.equal(r.file.invalidLines, bad.length);
      const invalid = r.findings.filter((f) => f.code === 'invalid-record');
      assert.deepEqual(
        invalid.map((f) => f.line),
        bad.map((b) => b.line),
        'one finding per bad line, on that line',
      );
      for (const [k, f] of invalid.entries()) {
        const { field, wrong } = bad[k];
        const name = (c.label ?? ((p: string) => p))(field);
        assert.equal(f.severity, 'warning');
        assert.ok(f.message.startsWith(`invalid ${c.format} record: field ${name}: `), `${field}=${wrong}: ${f.message}`);
        assert.match(f.message, wrong === undefined ? /missing|expected/ : /expected .+, got .+/, `${field}=${wrong}: ${f.message}`);
      }
    });
  }
});
