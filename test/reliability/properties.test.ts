// Property-based tests (fast-check) on the reader and the engine, over real files: for any bytes,
// and for near-valid JSONL (records with fields of any type, cut lines, stray bytes, duplicate
// keys, NaN, CRLF, blank lines, a BOM), no throw escapes; records + invalid lines + blank lines
// (+ an unfinished last line) account for every line; the chunk size changes nothing; the report
// is internally consistent; its JSON is valid and matches the contract; the text report carries
// no terminal control characters. The built CLI is checked on a sample of the same inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../shared/protocol';
import { analyzeScans, type ScanState } from '../../server/src/core/engine';
import { renderJson } from '../../server/src/cli/jsonReport';
import { renderText } from '../../server/src/cli/textReport';
import { CONTRACT, firstUnsafe, parseContract } from './contract';
import { accounted, runCli, scan, tempDir } from './helpers';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';

/** A scan, compactly (what must not depend on the chunk size). */
function summary(s: ScanState) {
  return {
    format: s.format,
    records: s.records,
    invalidLines: s.invalidLines,
    blankLines: s.blankLines,
    lines: s.lines,
    samples: s.samples.toArray().map((x) => [x.line, x.offset, x.byteLength, x.groupKey, x.index, x.status, x.reward, x.cause]),
    findings: s.findings.map((f) => [f.code, f.line, f.message]),
  };
}

const SETTINGS: RolloutLensSettings[] = [DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, dynamicFilter: 'check_reward_nonzero_std', nSamplesPerPrompt: 4 }];

/** Scans at the default chunk size and at `chunk`, checks the invariants, and returns the analysed report. */
async function checkFile(path: string, chunk: number, settings: RolloutLensSettings) {
  const s = await scan(path, settings, nodeFileAccess);
  const small = await scan(path, settings, nodeFileAccess, chunk);
  assert.deepEqual(summary(small), summary(s), `chunk size ${chunk} changes nothing`);
  const a = accounted(s);
  assert.equal(a.counted, a.lines, 'every line accounted for');
  for (const f of s.findings) assert.ok(f.line >= 1 && f.line <= Math.max(1, s.lines), `finding on line ${f.line} of ${s.lines}`);
  const report = await analyzeScans([s], { access: nodeFileAccess, settings, evalConfig: null });
  const file = report.files[0];
  assert.equal(file.groups.total, file.groups.kept + file.groups.dropped);
  if (file.kind === 'rollout') {
    const drops = Object.entries(file.metrics)
      .filter(([k]) => k.startsWith('rollout/dynamic_filter/drop_'))
      .reduce((n, [, v]) => n + v, 0);
    assert.equal(drops, file.groups.dropped, 'every dropped group is counted in exactly one drop metric');
  }
  const doc = CONTRACT.parse(JSON.parse(renderJson(report)));
  assert.equal(doc.files[0].records, s.records);
  assert.equal(firstUnsafe(renderText(report)), null, 'text report is terminal-safe');
  return report;
}

test('reader + engine (property, 500 runs): any bytes → no throw, every line accounted for, chunk size irrelevant, report consistent, JSON within the contract, text terminal-safe', async (t) => {
  const dir = tempDir(t);
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.uint8Array({ maxLength: 3000 }),
        // Bytes biased towards what JSON lines are made of, so many lines are nearly valid.
        fc
          .array(fc.constantFrom(...Buffer.from('{}[]",:0123456789-.eE \t\r\n\n\naNIntrufl\\u\u00e9\u0000\u00ff\u001b')), { maxLength: 3000 })
          .map((a) => Uint8Array.from(a)),
      ),
      fc.integer({ min: 16, max: 512 }),
      fc.constantFrom(...SETTINGS),
      async (bytes, chunk, settings) => {
        const path = join(dir, `bytes-${n++}.jsonl`);
        writeFileSync(path, bytes);
        await checkFile(path, chunk, settings);
      },
    ),
    { numRuns: 500 },
  );
});

/** A JSON value of any type (the wrong type for most fields), as JSON text. */
const anyValue = fc.oneof(
  fc.integer({ min: -3, max: 12 }).map(String),
  fc.constantFrom('1.0', '0.0', '0.5', '1', '0', 'NaN', 'Infinity', '-Infinity', 'null', 'true', '9007199254740993', '-0', '1e400'),
  fc.constantFrom('"completed"', '"aborted"', '"truncated"', '"failed"', '"pending"', '"Submitted"', '"ServerUnreachable"', '"TimeLimitExceeded"', '""'),
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('[]', '{}', '[1, 2]', '{"a": 1}', '{"exit_status": "SandboxUnavailable"}'),
);

/** One miles-sample-like line: plausible fields, each sometimes of another type, sometimes repeated or dropped. */
const recordLine = fc
  .record({
    group: fc.integer({ min: 0, max: 5 }).map(String),
    index: fc.integer({ min: 0, max: 40 }).map(String),
    status: fc.constantFrom('"completed"', '"aborted"', '"truncated"'),
    reward: fc.constantFrom('1.0', '0.0', '1', '0', 'null', 'NaN', '0.25'),
    cause: fc.constantFrom('', ', "exit_status": "ServerUnreachable"', ', "exit_status": "TimeLimitExceeded"', ', "exit_status": "Weird\\u001b[31m"'),
    wrongField: fc.option(fc.tuple(fc.constantFrom('group_index', 'index', 'status', 'reward', 'response_length', 'metadata', 'dataset'), anyValue)),
    dropKey: fc.option(fc.constantFrom('group_index', 'index', 'status', 'reward', 'metadata')),
  })
  .map((r) => {
    const fields: [string, string][] = [
      ['group_index', r.group],
      ['index', r.index],
      ['prompt', `"prompt ${r.group}"`],
      ['tokens', '[1, 2, 3]'],
      ['response', '"ok"'],
      ['response_length', '2'],
      ['status', r.status],
      ['reward', r.reward],
      ['metadata', `{"source": "x"${r.cause}}`],
    ];
    const kept = fields.filter(([k]) => k !== r.dropKey);
    if (r.wrongField) kept.push(r.wrongField); // a repeated key: the last one wins
    return `{${kept.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`;
  });

/** Damage to one line: none (most of the time), cut, a stray byte, or replaced by junk. */
const damaged = fc.tuple(recordLine, fc.nat(99), fc.nat(1000), fc.integer({ min: 0, max: 255 })).map(([line, kind, at, byte]) => {
  const b = Buffer.from(line);
  const cut = at % (b.length + 1);
  if (kind < 70) return b;
  if (kind < 80) return b.subarray(0, cut);
  if (kind < 90) return Buffer.concat([b.subarray(0, cut), Buffer.from([byte === 0x0a ? 0x00 : byte]), b.subarray(cut)]);
  if (kind < 95) return Buffer.from('');
  return Buffer.from(kind % 2 ? '[1, 2]' : '   ');
});

test('reader + engine (property, 500 runs): near-valid miles JSONL (wrong types, cut lines, stray bytes, duplicate keys, NaN, CRLF, blanks, BOM) → the same invariants', async (t) => {
  const dir = tempDir(t);
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(damaged, fc.boolean()), { maxLength: 60 }),
      fc.boolean(),
      fc.boolean(),
      fc.integer({ min: 16, max: 512 }),
      fc.constantFrom(...SETTINGS),
      async (lines, bom, finalNewline, chunk, settings) => {
        const parts: Buffer[] = bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
        lines.forEach(([b, crlf], i) => {
          parts.push(b);
          if (i < lines.length - 1 || finalNewline) parts.push(Buffer.from(crlf ? '\r\n' : '\n'));
        });
        const path = join(dir, `near-${n++}.jsonl`);
        writeFileSync(path, Buffer.concat(parts));
        const report = await checkFile(path, chunk, settings);
        const clean = lines.every(([b]) => b.length > 0 && b[0] === 0x7b && b[b.length - 1] === 0x7d) && lines.length > 0;
        if (clean && finalNewline) assert.equal(report.files[0].invalidLines + report.files[0].records, lines.length);
      },
    ),
    { numRuns: 500 },
  );
});

test('the built CLI (property, 8 runs): on near-valid JSONL its --format json output is valid and within the contract, its text output terminal-safe, exit 0 or 1', async (t) => {
  const dir = tempDir(t);
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(damaged, { minLength: 1, maxLength: 40 }), async (lines) => {
      const name = `cli-${n++}.jsonl`;
      writeFileSync(join(dir, name), Buffer.concat(lines.flatMap((b) => [b, Buffer.from('\n')])));
      const json = runCli(['check', '--format', 'json', '--dynamic-filter', 'check_reward_nonzero_std', name], dir);
      assert.ok(json.status === 0 || json.status === 1, `exit ${json.status}: ${json.stderr}`);
      const doc = parseContract(json.stdout);
      assert.equal(doc.files.length, 1);
      // The same settings: a null reward reaching the zero-std filter is an error only with the filter on.
      const text = runCli(['check', '--dynamic-filter', 'check_reward_nonzero_std', name], dir);
      assert.equal(text.status, json.status);
      assert.equal(firstUnsafe(text.stdout), null);
      assert.equal(firstUnsafe(text.stderr), null);
    }),
    { numRuns: 8 },
  );
});
