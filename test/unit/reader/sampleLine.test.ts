// The views re-read a sample's line by its offset; a .pt dump's samples have no line on disk (their
// offset is an index into the pickle), so they must say so instead of reading zip bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analyzeFiles } from '../../../server/src/core/engine';
import { inspectLine } from '../../../server/src/core/inspect';
import { PT_SAMPLE_UNAVAILABLE, readSampleLine } from '../../../server/src/core/sampleLine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';

const ROOT = join(__dirname, '../../../..');

async function detailOf(path: string) {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
  return report.files[0];
}

test('a .pt sample is never re-read by offset: the detail says how to see it', async () => {
  const path = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const report = await detailOf(path);
  const failed = report.detail!.samples.find((s) => s.status !== 'completed');
  assert.ok(failed, 'the fixture step has a failed sample');
  const line = await readSampleLine(nodeFileAccess, path, failed, Infinity);
  assert.deepEqual(line, { bytes: null, unavailable: PT_SAMPLE_UNAVAILABLE });
  const inspected = await inspectLine({ report, path, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, failed.line);
  assert.equal(inspected?.detail?.unavailable, PT_SAMPLE_UNAVAILABLE);
});

test('a JSON Lines sample is re-read as written; a longer-than-allowed line is named, not read', async () => {
  const path = join(ROOT, 'examples/run/rollout/rollout_1.jsonl');
  const report = await detailOf(path);
  const s = report.detail!.samples[0];
  const line = await readSampleLine(nodeFileAccess, path, s, Infinity);
  assert.ok(line.bytes);
  assert.equal(line.bytes.byteLength, s.byteLength);
  assert.equal(typeof JSON.parse(new TextDecoder().decode(line.bytes)), 'object');
  assert.deepEqual(await readSampleLine(nodeFileAccess, path, s, s.byteLength - 1), { bytes: null, unavailable: `the line is ${s.byteLength} bytes long` });
});
