// Bad .pt input (docs/pt.md, docs/reliability.md): every hostile fixture through the built CLI
// gives its finding in the JSON contract, exit 1, and runs nothing; a real dump cut at every byte
// and mutated at random never throws or hangs and keeps its line accounting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../lsp/fixtures';
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

test('a real dump with seeded random bytes changed inside its pickle (2 000 runs): no throw, no hang, nothing run', async (t) => {
  const whole = readFileSync(join(FIX, 'run/rollout_data/1.pt'));
  const dir = tempDir(t);
  // The pickle sits after the zip's first local header (30 bytes + name + extra).
  const start = 30 + whole.readUInt16LE(26) + whole.readUInt16LE(28);
  const size = whole.readUInt32LE(18);
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let run = 0; run < 2000; run++) {
    const bytes = Buffer.from(whole);
    for (let k = 0; k <= rand(4); k++) bytes[start + rand(size)] = rand(256);
    const path = write(dir, 'mutated.pt', bytes);
    const s = await scan(path);
    assert.ok(s.records + s.invalidLines <= 24, `run ${run}`);
  }
  assert.equal(existsSync(PWNED), false);
});
