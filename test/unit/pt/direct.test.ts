// Records built straight from the pickled samples (server/src/core/scan/ptSampleRecord.ts)
// against the JSON Lines path they replace: every .pt fixture scanned both ways gives the same
// records, findings and counts, and each sample's direct record equals what the per-line path
// reads from the sample's line (or is refused wherever that path would hand the line to the full
// scan). Line lengths computed without the line equal the line's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { MilesLineReader } from '../../../server/src/core/formats/milesSample/line';
import { buildRule } from '../../../server/src/core/formats/rule';
import { sampleLineLength } from '../../../server/src/core/reader/pt/lineLength';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { PtSampleReader } from '../../../server/src/core/scan/ptSampleRecord';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import { sampleLine } from '../../../server/src/core/reader/pt/serialize';
import { intSum, PyDict, PyFloat, PyList, PyObject, PyText, PyTuple } from '../../../server/src/core/reader/pt/values';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

import { ptFiles, scanPtWay } from './helpers';

const FILES = [...ptFiles(join(repoRoot(), 'test/fixtures/pt')), ...ptFiles(join(repoRoot(), 'test/fixtures/real/miles'))].sort();

test('pt direct records: every .pt fixture scans to the same records, findings and counts as through its JSON lines', async () => {
  assert.ok(FILES.length >= 20, `${FILES.length} fixtures`);
  let records = 0;
  for (const path of FILES) {
    const viaLines = await scanPtWay(path, false);
    const direct = await scanPtWay(path, true);
    assert.deepEqual(direct, viaLines, path);
    records += direct.samples.length;
  }
  assert.ok(records > 100, `${records} records compared`);
});

test('pt direct records: number runs cut by the read window anywhere count the same (chunks of 7, 61 and 4096 bytes)', async () => {
  for (const path of FILES.filter((f) => /rollout_data|memo|zip64/.test(f))) {
    const whole = await scanPtWay(path, true);
    for (const chunkSize of [7, 61, 4096]) assert.deepEqual(await scanPtWay(path, true, chunkSize), whole, `${path} in chunks of ${chunkSize}`);
  }
});

const encoder = new TextEncoder();

/** The per-line path's record of a sample's line, and the direct one. */
function bothWays(value: unknown, index: number, rows: PtSampleReader) {
  const line = encoder.encode(sampleLine(value));
  const reader = new MilesLineReader(buildRule(DEFAULT_SETTINGS.fields));
  const viaLine = reader.read(line, 0, line.length, { line: index + 1, offset: index, byteLength: line.length });
  const direct = rows.record(value, index);
  // The row the scan pushes (no record made) is the direct record's row, or refused with it.
  const store = new SampleStore();
  assert.equal(rows.pushRow(value, index, store, null), direct !== null, `sample ${index}: the row path refuses what the record path does`);
  if (direct !== null) assert.deepEqual(store.at(0), SampleStore.of([direct]).at(0), `sample ${index}: the row is the record's`);
  return { viaLine, direct, lineBytes: line.length };
}

test('pt direct records: each fixture sample equals the per-line read of its line; line lengths equal', async () => {
  let compared = 0;
  for (const path of FILES) {
    for (const summarize of [true, false]) {
      const rows = new PtSampleReader();
      await readPt(nodeFileAccess, path, {
        summarize,
        onSample: (value, index) => {
          const { viaLine, direct, lineBytes } = bothWays(value, index, rows);
          assert.equal(sampleLineLength(value), lineBytes, `${path} sample ${index}: line length`);
          if (viaLine === null) assert.equal(direct, null, `${path} sample ${index}: the per-line path refuses it`);
          else if (direct !== null) {
            assert.deepEqual(direct, viaLine, `${path} sample ${index}`);
            compared++;
          }
        },
      });
    }
  }
  assert.ok(compared > 100, `${compared} samples compared`);
});

function dict(entries: Record<string, unknown>): PyDict {
  const d = new PyDict();
  for (const [k, v] of Object.entries(entries)) d.map.set(k, v);
  return d;
}

function list(items: unknown[], summarized = false): PyList {
  const l = new PyList();
  l.items = summarized ? [] : items;
  l.count = items.length;
  l.summarized = summarized;
  // A summarised list keeps the sum of its ints (NaN once one is not), as the machine sums them.
  if (summarized) l.sum = intSum(items);
  return l;
}

function text(s: string): PyText {
  return new PyText(0, encoder.encode(s).length, false, s);
}

test('pt direct records: odd values agree with the per-line path field by field, or go through the line', () => {
  const base = () =>
    dict({
      group_index: 3,
      index: 24,
      rollout_id: 7,
      prompt: 'Solve problem 3',
      tokens: list(new Array(20).fill(1), true),
      response: 'answer',
      response_length: 6,
      label: '3',
      reward: new PyFloat(1),
      loss_mask: list(new Array(6).fill(1), true),
      weight_versions: list(['7']),
      status: 'completed',
      metadata: dict({}),
      prefix_cache_info: dict({ cached_tokens: 0, total_prompt_tokens: 0 }),
    });
  const repetitive = 'abc '.repeat(3000);
  const variants: Record<string, unknown[]> = {
    group_index: [null, undefined, new PyFloat(3), new PyFloat(-0), new PyFloat(1e16), 2.5, NaN, true, 'x', 2n ** 60n, 2 ** 53],
    index: [null, new PyFloat(24), 2.5, false, -1],
    rollout_id: [null, undefined, 'x', new PyFloat(7)],
    response_length: [null, new PyFloat(6), 'six', 1.5],
    reward: [null, undefined, 1, 0, 0.5, -0.25, 1e-7, NaN, Infinity, -Infinity, new PyFloat(-0), 'x', true, dict({ score: 1 }), 2n ** 70n, list([1])],
    status: [null, undefined, 'aborted', 'truncated', 'bogus', 'x'.repeat(2000), text('completed'.repeat(10)), 3],
    dataset: [null, 'gsm8k', 'd'.repeat(1500), text('d'.repeat(100)), 5],
    data_source: ['src', null, true],
    metadata: [
      null,
      undefined,
      dict({ exit_status: 'TimeLimitExceeded' }),
      dict({ exit_status: '' }),
      dict({ exit_status: null, dataset: 'aime', dataset_name: 'x' }),
      dict({ dataset_name: 'gpqa' }),
      dict({ instance_id: 7 }),
      dict({ instance_id: 'task-1' }),
      dict({ instance_id: new PyFloat(7) }),
      dict({ instance_id: 2.5 }),
      dict({ instance_id: true }),
      dict({ instance_id: 'i'.repeat(2000) }),
      dict({ exit_status: 7 }),
      dict({ exit_status: text('e'.repeat(80)) }),
      list([1, 2]),
      'meta',
      new PyObject('miles.Meta'),
    ],
    prompt: [null, undefined, text('a long prompt '.repeat(20)), list([dict({ role: 'user', content: 'hi "there"\n' })]), 'é∑λ\u0001 \ud800 😀', 5],
    label: ['x', null, undefined, list([1, 2])],
    loss_mask: [
      null,
      undefined,
      list([1, 0, 1]),
      new PyTuple([1, new PyFloat(1), 0.5], 1),
      list([1, 'x']),
      list([NaN]),
      list([]),
      5,
      new PyFloat(5),
      'x',
      list([2n ** 60n]),
      dict({}),
      // Counted runs: a multi-turn mask's 0s and 1s (its sum), floats and one past 2^53 (no sum).
      list([...new Array(30).fill(1), ...new Array(12).fill(0), 1, 1], true),
      list(new Array(12).fill(0.5), true),
      list([...new Array(9).fill(1), new PyFloat(1)], true),
      list([2 ** 52, 2 ** 52, ...new Array(8).fill(1)], true),
      list(new Array(9).fill(-3), true),
    ],
    weight_versions: [
      null,
      undefined,
      list([7, '8']),
      list([new PyFloat(2), 0.5]),
      list([true]),
      list([null]),
      list(new Array(300).fill('7')),
      list(new Array(20).fill(7), true),
      list(['w'.repeat(2000)]),
      list([text('w'.repeat(100))]),
      list([2n ** 60n]),
      'x',
      new PyTuple(['7'], 1),
    ],
    prefix_cache_info: [
      null,
      undefined,
      dict({ cached_tokens: 3, total_prompt_tokens: new PyFloat(10) }),
      dict({ cached_tokens: 'x' }),
      dict({ cached_tokens: 2n ** 60n }),
      list([1]),
      'x',
    ],
    response: [
      null,
      undefined,
      5,
      text(repetitive),
      text(repetitive.slice(0, 9000)),
      text(`${repetitive}\ud800 tail`),
      text(`${'x'.repeat(12000)}\udc00\udc01`),
      text(Array.from({ length: 11000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('')),
      'short "quoted"\n',
    ],
  };
  let direct = 0;
  let refused = 0;
  let index = 0;
  const rows = new PtSampleReader();
  for (const [field, values] of Object.entries(variants)) {
    for (const v of values) {
      const sample = base();
      if (v === undefined) sample.map.delete(field);
      else sample.map.set(field, v);
      const r = bothWays(sample, index++, rows);
      assert.equal(sampleLineLength(sample), r.lineBytes, `${field}: line length`);
      if (r.viaLine === null) assert.equal(r.direct, null, `${field}=${String(v)}: the per-line path refuses it`);
      else if (r.direct !== null) {
        assert.deepEqual(r.direct, r.viaLine, `${field}=${String(v)}`);
        direct++;
      } else refused++;
    }
  }
  // A sample whose prompt refers back to the sample itself: the line holds a cycle marker there.
  const cyclic = base();
  cyclic.map.set('prompt', list([cyclic]));
  const r = bothWays(cyclic, index, rows);
  assert.notEqual(r.direct, null);
  assert.deepEqual(r.direct, r.viaLine);
  assert.ok(direct >= 80, `${direct} read directly`);
  assert.ok(refused <= 20, `${refused} fed as lines`);
});
