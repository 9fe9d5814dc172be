// Bad .pt input (docs/pt.md, docs/reliability.md): every hostile fixture through the built CLI
// gives its finding in the JSON contract, exit 1, and runs nothing; a real dump cut at every byte
// and mutated at random never throws or hangs and keeps its line accounting; mutated, every real
// dump gives the same rows read straight from its pickle as read from its samples' lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { scanFile } from '../../server/src/core/engine';
import { KeptPtLines, readSampleLine, type SamplePlace } from '../../server/src/core/scan/sampleLine';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import { repoRoot } from '../lsp/fixtures';
import { ptFiles, scanPtWay } from '../unit/pt/helpers';
import { cliJson, scan, tempDir, write } from './helpers';

const FIX = join(repoRoot(), 'test/fixtures/pt');
const PWNED = '/tmp/rollout-lens-pwned';

const HOSTILE: [string, string, RegExp][] = [
  ['system.pt', 'pt-unsafe-callable', /posix\.system.*not run/],
  ['eval.pt', 'pt-unsafe-callable', /builtins\.eval.*not run/],
  ['subprocess.pt', 'pt-unsafe-callable', /subprocess\.call.*not run/],
  ['truncated.pt', 'pt-unreadable', /truncated/],
  ['no-data-pkl.pt', 'pt-unreadable', /no <name>\/data\.pkl/],
  ['huge-string.pt', 'pt-unreadable', /claims 2147483652 bytes/],
  ['bad-memo.pt', 'pt-unreadable', /memo read of slot 7/],
  ['deep.pt', 'pt-unreadable', /nested more than 1000 levels/],
  ['deep-stack.pt', 'pt-unreadable', /nested more than 1000 levels/],
  ['unknown-opcode.pt', 'pt-unreadable', /unknown pickle opcode 0xfe/],
  ['protocol-6.pt', 'pt-unreadable', /protocol 6 is not supported/],
  ['no-stop.pt', 'pt-unreadable', /ends without STOP/],
];

test('hostile .pt files through the CLI: each its finding, exit 1, JSON contract kept, nothing run', () => {
  for (const [name, code, message] of HOSTILE) {
    const r = cliJson([join(FIX, 'hostile', name)]);
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    const f = r.doc.findings.find((x) => x.code === code);
    assert.ok(f, `${name}: ${JSON.stringify(r.doc.findings)}`);
    assert.match(f.message, message, name);
    assert.match(f.message, /not run|nothing in it was run/, name);
  }
  assert.equal(existsSync(PWNED), false, 'no hostile callable ran');
});

test('hostile .pt: the samples around a blocked callable are still analysed', async () => {
  const s = await scan(join(FIX, 'hostile/system.pt'));
  assert.equal(s.format, 'miles-pt');
  assert.equal(s.records + s.invalidLines, 4);
  assert.equal(s.findings.find((f) => f.code === 'pt-unsafe-callable')?.line, 2);
});

test('a real dump cut at every byte: no throw, no hang; what was read is accounted for', async (t) => {
  const whole = readFileSync(join(FIX, 'run/rollout_data/2.pt'));
  const dir = tempDir(t);
  for (let cut = 0; cut < whole.length; cut += 7) {
    const path = write(dir, `cut.pt`, whole.subarray(0, cut));
    const s = await scan(path);
    assert.ok(s.records <= 12, `cut ${cut}`);
    if (cut > 4)
      assert.ok(
        s.findings.some((f) => f.code === 'pt-unreadable' || f.code === 'unknown-format'),
        `cut ${cut}`,
      );
  }
});

/**
 * Where `dump`'s pickle is (`<name>/data.pkl`), from the zip's central directory: torch.save's local
 * headers leave the sizes 0 (a data descriptor follows the data).
 */
function pickleBytes(dump: Buffer): { start: number; size: number } {
  const end = dump.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'));
  let entry = dump.readUInt32LE(end + 16);
  for (let k = dump.readUInt16LE(end + 10); k > 0; k--) {
    const nameLength = dump.readUInt16LE(entry + 28);
    if (dump.toString('latin1', entry + 46, entry + 46 + nameLength).endsWith('/data.pkl')) {
      const local = dump.readUInt32LE(entry + 42);
      return { start: local + 30 + dump.readUInt16LE(local + 26) + dump.readUInt16LE(local + 28), size: dump.readUInt32LE(entry + 20) };
    }
    entry += 46 + nameLength + dump.readUInt16LE(entry + 30) + dump.readUInt16LE(entry + 32);
  }
  throw new Error('no data.pkl in the central directory');
}

/**
 * Seeded copies of real dumps (`files`, taken in turn) with a few bytes changed inside their
 * pickle: to a random byte, or to one of the pickle's own bytes (an opcode or length from
 * elsewhere, so more copies still read past the change).
 */
function* mutatedDumps(runs: number, seed: number, files = [join(FIX, 'run/rollout_data/1.pt')]): Generator<Buffer> {
  const dumps = files.map((f) => {
    const whole = readFileSync(f);
    return { whole, ...pickleBytes(whole) };
  });
  assert.ok(dumps.every((d) => d.size > 100));
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let run = 0; run < runs; run++) {
    const { whole, start, size } = dumps[run % dumps.length];
    const bytes = Buffer.from(whole);
    for (let k = 0; k <= rand(4); k++) bytes[start + rand(size)] = rand(2) === 0 ? rand(256) : whole[start + rand(size)];
    yield bytes;
  }
}

test('a real dump with seeded random bytes changed inside its pickle (2 000 runs): no throw, no hang, nothing run', async (t) => {
  const dir = tempDir(t);
  let run = 0;
  for (const bytes of mutatedDumps(2000, 12345)) {
    run++;
    const path = write(dir, 'mutated.pt', bytes);
    const s = await scan(path);
    assert.ok(s.records + s.invalidLines <= 24, `run ${run}`);
  }
  assert.equal(existsSync(PWNED), false);
});

test("mutated dumps (300 runs) with every sample's line kept by the analysis and read again: no throw, no hang, the same lines", async (t) => {
  const dir = tempDir(t);
  for (const bytes of mutatedDumps(300, 777)) {
    const path = write(dir, 'mutated.pt', bytes);
    // The 24 samples of the dump, kept as the analysis reads it (the reading builds each in full).
    const kept = new KeptPtLines(new Set(Array.from({ length: 24 }, (_, i) => i)), 1 << 20);
    const s = await scanFile({ path, displayPath: path }, { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepPtLines: kept });
    assert.ok(s.records + s.invalidLines <= 24);
    const samples = s.samples.toArray();
    for (const sample of samples) {
      const place: SamplePlace = { offset: sample.offset, byteLength: sample.byteLength };
      const line = kept.line(place.offset);
      if (line === undefined) continue;
      assert.deepEqual(line, await readSampleLine(nodeFileAccess, path, place, 1 << 20), `sample ${place.offset}`);
    }
  }
  assert.equal(existsSync(PWNED), false);
});

test("mutated dumps (400 runs, every real .pt fixture): rows read straight from the pickle equal those read from the samples' lines", async (t) => {
  // Every real sample dump among the fixtures (the hostile ones are made by hand; train_data and
  // tensor files hold no samples, and the hostile tensor files are the tensor ring's).
  const files = [...ptFiles(FIX), ...ptFiles(join(repoRoot(), 'test/fixtures/real/miles'))]
    .filter((f) => !f.includes('/hostile/') && !f.includes('/train_data/') && !f.includes('/tensors'))
    .sort();
  assert.ok(files.length >= 12, `${files.length} dumps`);
  const dir = tempDir(t);
  let samples = 0;
  let run = 0;
  for (const bytes of mutatedDumps(400, 2024, files)) {
    const path = write(dir, 'mutated.pt', bytes);
    // Direct rows read in small chunks too: a number run cut by the read window counts the same.
    const direct = await scanPtWay(path, true, run++ % 2 === 0 ? 61 : undefined);
    assert.deepEqual(direct, await scanPtWay(path, false), `run ${run}: ${files[(run - 1) % files.length]}`);
    samples += direct.samples.length;
  }
  assert.ok(samples > 2000, `${samples} samples compared`);
  assert.equal(existsSync(PWNED), false);
});
