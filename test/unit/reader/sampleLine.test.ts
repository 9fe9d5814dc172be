// The views re-read a sample's line; a .pt dump's sample N (its offset is an index into the
// pickle) is line N of the dump's JSON Lines export, read by the same inert pickle machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFiles, scanFile } from '../../../server/src/core/engine';
import { inspectLine } from '../../../server/src/core/inspect';
import type { FileAccess } from '../../../server/src/core/seams/fileAccess';
import { KeptPtLines, readSampleLine, readSampleLines } from '../../../server/src/core/scan/sampleLine';
import { parseLine } from '../../../server/src/core/views/sampleValues';
import { readSampleView, sampleTitle } from '../../../server/src/core/views/sampleView';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { isLogFileName, isPtDumpName, RUN_FILE_GLOB } from '../../../shared/logFiles';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { tempDir, writeIn } from '../../shared/tempDir';

const ROOT = join(__dirname, '../../../..');

async function detailOf(path: string) {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
  return report.files[0];
}

/** The export line in the canonical form generate.py writes torch.load's view in. */
function canonical(text: string): unknown {
  const go = (v: unknown): unknown => {
    if (typeof v === 'number' && !Number.isFinite(v)) return { $float: Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf' };
    if (Array.isArray(v)) return v.map(go);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, go(x)]));
    return v;
  };
  return go(parseLine(text));
}

test("a .pt sample is re-read as line N of the dump's export: torch.load's sample, field by field", async () => {
  const path = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const expected = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/pt/expected/1.json'), 'utf8')).samples as Record<string, unknown>[];
  const report = await detailOf(path);
  const samples = report.detail!.samples;
  assert.equal(samples.length, expected.length);
  for (const s of samples) {
    const line = await readSampleLine(nodeFileAccess, path, s, Infinity);
    assert.ok(line.bytes, `sample ${s.offset}: ${line.unavailable}`);
    const got = canonical(new TextDecoder().decode(line.bytes)) as Record<string, unknown>;
    const want = expected[s.offset];
    assert.deepEqual(Object.keys(got), Object.keys(want), `sample ${s.offset} keys`);
    for (const key of Object.keys(want)) assert.deepEqual(got[key], want[key], `sample ${s.offset} field ${key}`);
  }
  const failed = samples.find((s) => s.status !== 'completed')!;
  assert.ok(failed, 'the fixture step has a failed sample');
  // The hover's detail reads the same line.
  const inspected = await inspectLine({ report, path, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, failed.line);
  assert.equal(inspected?.detail?.unavailable, null);
  // The sample view of a .pt sample shows its response and status.
  const view = await readSampleView({ report, path, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, failed.line);
  assert.equal(view?.unavailable, null);
  assert.equal(view?.status, expected[failed.offset].status);
  assert.equal(view?.response?.text, expected[failed.offset].response);
  assert.equal(view?.tokens.tokens, (expected[failed.offset].tokens as unknown[]).length);
});

test('a .pt sample longer than allowed, or one the analysis saw differently, is named, not shown', async () => {
  const path = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const s = (await detailOf(path)).detail!.samples[0];
  const whole = await readSampleLine(nodeFileAccess, path, s, Infinity);
  assert.ok(whole.bytes);
  const short = await readSampleLine(nodeFileAccess, path, s, whole.bytes.byteLength - 1);
  assert.deepEqual(short, { bytes: null, unavailable: `the sample's line is more than ${whole.bytes.byteLength - 1} bytes long` });
  assert.deepEqual(await readSampleLine(nodeFileAccess, path, { ...s, byteLength: s.byteLength + 1 }, Infinity), {
    bytes: null,
    unavailable: 'the file changed since it was analysed',
  });
  assert.deepEqual(await readSampleLine(nodeFileAccess, path, { offset: 10_000, byteLength: s.byteLength }, Infinity), {
    bytes: null,
    unavailable: 'the file changed since it was analysed',
  });
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

/**
 * `nodeFileAccess` counting its readings of a file: the openings that read more than the 4-byte
 * header by which a dump is told by its content (`isTorchDump`).
 */
function countingAccess(): { access: FileAccess; opens: () => number } {
  let opens = 0;
  const access: FileAccess = {
    ...nodeFileAccess,
    open: async (path) => {
      const handle = await nodeFileAccess.open(path);
      let counted = false;
      return {
        close: () => handle.close(),
        read: (buffer, offset, length, position) => {
          if (!counted && (position > 0 || length > 4)) {
            counted = true;
            opens++;
          }
          return handle.read(buffer, offset, length, position);
        },
      };
    },
  };
  return { access, opens: () => opens };
}

test('several samples of a .pt dump are read in one pass over it, each as it is read alone', async (t) => {
  const path = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const samples = (await detailOf(path)).detail!.samples;
  assert.ok(samples.length > 20);
  // Out of order, one the analysis saw differently, one past the dump's end.
  const places = [...samples.slice(12), { ...samples[3], byteLength: samples[3].byteLength + 1 }, { offset: 10_000, byteLength: 5 }, ...samples.slice(0, 12)];
  const alone = [];
  for (const p of places) alone.push(await readSampleLine(nodeFileAccess, path, p, Infinity));
  const counted = countingAccess();
  assert.deepEqual(await readSampleLines(counted.access, path, places, Infinity), alone);
  // Each sample built in full from its bytes as the summarising reading reaches it.
  assert.equal(counted.opens(), 1);
  assert.equal(alone.filter((l) => l.bytes !== null).length, samples.length);

  // The same places in a copy whose pickle breaks after 10 samples (those are read, the others
  // have changed), and in a file that is gone: as each is read alone.
  const dir = tempDir(t, 'pt-changed');
  const bytes = readFileSync(path);
  bytes[64 + 4000] = 0xff; // an unknown opcode inside 1/data.pkl, stored uncompressed
  const damaged = writeIn(dir, 'damaged.pt', bytes);
  const gone = join(dir, 'gone.pt');
  for (const [copy, read, reason] of [
    [damaged, 10, 'the file changed since it was analysed'],
    [gone, 0, `could not re-read the sample (ENOENT: no such file or directory, stat '${gone}')`],
  ] as const) {
    const lines = [];
    for (const p of places) lines.push(await readSampleLine(nodeFileAccess, copy, p, Infinity));
    assert.deepEqual(await readSampleLines(nodeFileAccess, copy, places, Infinity), lines);
    assert.equal(lines.filter((l) => l.bytes !== null).length, read, copy);
    assert.deepEqual([...new Set(lines.filter((l) => l.bytes === null).map((l) => l.unavailable))], [reason]);
  }
});

test('a .pt sample that holds numbers of an earlier sample is read from a second reading that keeps them', async () => {
  // shared/generate.py: samples 5 and 9 hold long number lists of samples 2 and 1 (the same list
  // objects, read back from the pickle's memo), which a summarising reading has only counted;
  // sample 7 holds a short one of sample 6, which it keeps.
  const path = join(ROOT, 'test/fixtures/pt/shared/6.pt');
  const expected = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/pt/shared/6.json'), 'utf8')).samples as Record<string, unknown>[];
  const samples = (await detailOf(path)).detail!.samples;
  assert.equal(samples.length, expected.length);
  const readings = [];
  for (const s of samples) {
    const counted = countingAccess();
    const line = await readSampleLine(counted.access, path, s, Infinity);
    assert.ok(line.bytes, `sample ${s.offset}: ${line.unavailable}`);
    assert.deepEqual(canonical(new TextDecoder().decode(line.bytes)), expected[s.offset], `sample ${s.offset}`);
    readings.push(counted.opens());
  }
  assert.deepEqual(readings, [1, 1, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1]);
  // Together: the second reading only for those two, each line as it is read alone.
  const alone = [];
  for (const s of samples) alone.push(await readSampleLine(nodeFileAccess, path, s, Infinity));
  const counted = countingAccess();
  assert.deepEqual(await readSampleLines(counted.access, path, samples, Infinity), alone);
  assert.equal(counted.opens(), 2);
  // The aborted sample's hover detail is read the same way.
  const report = await detailOf(path);
  const aborted = samples.find((s) => s.aborted)!;
  const inspected = await inspectLine({ report, path, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, aborted.line);
  assert.deepEqual(inspected?.detail?.fields, [
    { name: 'metadata.exit_status', value: 'ServerUnreachable' },
    { name: 'response_length', value: '12' },
  ]);
});

test("the analysis's own reading of a .pt dump keeps the lines asked for, as readSampleLine gives them", async () => {
  for (const [fixture, notKept] of [
    ['test/fixtures/pt/run/rollout_data/1.pt', []],
    // Samples 5 and 9 hold numbers of earlier samples: not kept, readSampleLine reads them.
    ['test/fixtures/pt/shared/6.pt', [5, 9]],
  ] as const) {
    const path = join(ROOT, fixture);
    const samples = (await detailOf(path)).detail!.samples;
    const kept = new KeptPtLines(new Set(samples.map((s) => s.offset)), 1 << 20);
    const scan = await scanFile({ path, displayPath: path }, { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepPtLines: kept });
    assert.equal(scan.samples.length, samples.length);
    for (const s of samples) {
      const line = kept.line(s.offset);
      if ((notKept as readonly number[]).includes(s.offset)) assert.equal(line, undefined, `${fixture} sample ${s.offset}`);
      else assert.deepEqual(line, await readSampleLine(nodeFileAccess, path, s, 1 << 20), `${fixture} sample ${s.offset}`);
    }
  }
  // Bounded as readSampleLine bounds a line.
  const path = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const s = (await detailOf(path)).detail!.samples[0];
  const whole = byteLengthOf(await readSampleLine(nodeFileAccess, path, s, Infinity));
  const kept = new KeptPtLines(new Set([0]), whole - 1);
  await scanFile({ path, displayPath: path }, { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepPtLines: kept });
  assert.deepEqual(kept.line(0), await readSampleLine(nodeFileAccess, path, s, whole - 1));
  assert.equal(kept.line(0)?.unavailable, `the sample's line is more than ${whole - 1} bytes long`);
});

function byteLengthOf(line: { bytes: Uint8Array | null }): number {
  assert.ok(line.bytes);
  return line.bytes.byteLength;
}

test('a torch.save file named .pth is a dump everywhere: scanned and re-read as its export lines', async (t) => {
  const pth = join(tempDir(t, 'pth-'), 'weights.pth');
  copyFileSync(join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt'), pth);
  const [asPt, asPth] = [await detailOf(join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt')), await detailOf(pth)];
  assert.equal(asPth.format, asPt.format);
  assert.equal(asPth.detail!.samples.length, asPt.detail!.samples.length);
  const [ptLine, pthLine] = [
    await readSampleLine(nodeFileAccess, join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt'), asPt.detail!.samples[5], Infinity),
    await readSampleLine(nodeFileAccess, pth, asPth.detail!.samples[5], Infinity),
  ];
  assert.ok(pthLine.bytes, `the .pth sample re-read: ${pthLine.unavailable}`);
  assert.deepEqual(pthLine.bytes, ptLine.bytes);
  assert.ok(isPtDumpName(pth) && RUN_FILE_GLOB.includes('pth') && !isLogFileName(pth));
});

test('a torch.save dump under another name is known by its content: scanned, re-read and titled as a dump', async (t) => {
  const source = join(ROOT, 'test/fixtures/pt/run/rollout_data/1.pt');
  const renamed = join(tempDir(t, 'dump-'), 'rollout_1.bin');
  copyFileSync(source, renamed);
  const [asPt, asBin] = [await detailOf(source), await detailOf(renamed)];
  assert.equal(asBin.format, asPt.format);
  const [ptLine, binLine] = [
    await readSampleLine(nodeFileAccess, source, asPt.detail!.samples[5], Infinity),
    await readSampleLine(nodeFileAccess, renamed, asBin.detail!.samples[5], Infinity),
  ];
  assert.ok(binLine.bytes, `the sample re-read from the pickle, not as bytes at its index: ${binLine.unavailable}`);
  assert.deepEqual(binLine.bytes, ptLine.bytes);
  assert.ok(!isPtDumpName(renamed), 'the name alone does not say dump');
  assert.equal(sampleTitle('rollout_1.bin', 6, asBin.format), 'rollout_1.bin · sample 6');
  assert.equal(sampleTitle('rollout_1.jsonl', 6, 'miles-sample'), 'rollout_1.jsonl:6');
});
