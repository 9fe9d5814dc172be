// The summary reader on a file's bytes (how `diff` and `summarize --merge` read a summary): the
// same summary, or the same error, as parsing the file's text decoded as UTF-8 (Node's decoding,
// a byte order mark kept, a bad sequence replaced); and the bootstrap's numerators-only draws
// (every item the same whole denominator) against draws through `seededRandom`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { hashText, pairedBootstrap, type PairedItem, seededRandom } from '../../../server/src/core/compare/bootstrap';
import { diffRuns } from '../../../server/src/core/compare/diff';
import { gateRulesOf } from '../../../server/src/core/compare/gate';
import { PromptTable, promptRowsOf } from '../../../server/src/core/compare/promptTable';
import { decodeSummary } from '../../../server/src/core/compare/summaryDecode';
import { parseSummary, renderSummary } from '../../../server/src/core/compare/summaryJson';
import { outcome } from '../../shared/outcome';
import { randomSummary } from '../../shared/randomSummary';

test('bytes: a summary read from its UTF-8 bytes is the summary of its text, rows in tables', () => {
  fc.assert(
    fc.property(randomSummary, fc.boolean(), (summary, spaced) => {
      const text = spaced ? JSON.stringify(summary, null, 1) : renderSummary(summary);
      const decoded = decodeSummary(Buffer.from(text, 'utf8'));
      const plain = parseSummary(text);
      for (const [s, step] of plain.steps.entries()) {
        for (const [f, file] of step.files.entries()) {
          const rows = promptRowsOf(decoded.steps[s].files[f]);
          assert.ok(rows instanceof PromptTable);
          assert.deepEqual(rows.rows(), file.prompts);
        }
      }
      assert.deepEqual(decoded, plain);
    }),
    { numRuns: 150, seed: 5 },
  );
});

test('bytes: damaged bytes (bad UTF-8, a byte order mark, a NUL) give what their UTF-8 text gives', () => {
  const inserts = [[0xff], [0xc3], [0xe2, 0x89], [0xef, 0xbb, 0xbf], [0x00], [0x22], [0x5c], [0x5d], [0xf0, 0x9f, 0x98]];
  fc.assert(
    fc.property(randomSummary, fc.nat(), fc.constantFrom(...inserts), (summary, at, insert) => {
      const bytes = Buffer.from(renderSummary(summary), 'utf8');
      const i = at % (bytes.length + 1);
      for (const damaged of [Buffer.concat([bytes.subarray(0, i), Buffer.from(insert), bytes.subarray(i)]), Buffer.concat([Buffer.from(insert), bytes])]) {
        assert.deepEqual(
          outcome(() => decodeSummary(damaged)),
          outcome(() => parseSummary(damaged.toString('utf8'))),
        );
      }
    }),
    { numRuns: 300, seed: 5 },
  );
});

test('bytes: the diff of summaries read from bytes is the diff of their texts', () => {
  const options = { align: { mode: 'number' as const }, seed: 9, resamples: 40, rules: gateRulesOf(undefined), maxPrompts: 4 };
  fc.assert(
    fc.property(randomSummary, randomSummary, (a, b) => {
      const [ta, tb] = [renderSummary(a), renderSummary(b)];
      const fromBytes = diffRuns({ source: 'a', summary: decodeSummary(Buffer.from(ta)) }, { source: 'b', summary: decodeSummary(Buffer.from(tb)) }, options);
      const plain = diffRuns({ source: 'a', summary: parseSummary(ta) }, { source: 'b', summary: parseSummary(tb) }, options);
      assert.deepEqual(fromBytes, plain);
    }),
    { numRuns: 100, seed: 5 },
  );
});

test('bootstrap: items of one whole denominator a side give the interval of draws through seededRandom', () => {
  const reference = (items: readonly PairedItem[], seed: number, label: string, resamples: number) => {
    const m = items.length;
    const random = seededRandom(hashText(label, hashText(String(seed))));
    const deltas: number[] = [];
    for (let r = 0; r < resamples; r++) {
      let [bn, bd, cn, cd] = [0, 0, 0, 0];
      for (let j = 0; j < m; j++) {
        const it = items[Math.floor(random() * m)];
        [bn, bd, cn, cd] = [bn + it.baseline[0], bd + it.baseline[1], cn + it.candidate[0], cd + it.candidate[1]];
      }
      deltas.push(cn / cd - bn / bd);
    }
    const sorted = Float64Array.from(deltas).sort();
    const q = (p: number) => {
      const pos = p * (sorted.length - 1);
      const [lo, hi] = [Math.floor(pos), Math.ceil(pos)];
      return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    };
    return [q(0.025), q(0.975)];
  };
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.double({ min: -4, max: 16, noNaN: true }), fc.nat({ max: 16 })), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 16 }),
      fc.nat(),
      fc.string(),
      (figures, bDen, cDen, seed, label) => {
        const items = figures.map(([b, c]) => ({ baseline: [b, bDen], candidate: [c, cDen] }) as PairedItem);
        assert.deepEqual(pairedBootstrap(items, seed, label, 200), reference(items, seed, label, 200));
      },
    ),
    { numRuns: 300, seed: 5 },
  );
});

test('rows as bytes: writeRowsJson writes rowsJson text as UTF-8, in any buffer sizes', () => {
  const text = (table: PromptTable) => {
    const parts: Buffer[] = [];
    table.writeRowsJson((bytes, length) => parts.push(Buffer.from(bytes.subarray(0, length))));
    return Buffer.concat(parts).toString('utf8');
  };
  fc.assert(
    fc.property(randomSummary, (summary) => {
      const decoded = decodeSummary(renderSummary(summary));
      for (const [s, step] of summary.steps.entries()) {
        for (const [f, file] of step.files.entries()) {
          const built = PromptTable.of(file.prompts);
          if (built) assert.equal(text(built), [...built.rowsJson()].join(''));
          const read = promptRowsOf(decoded.steps[s].files[f]) as PromptTable;
          assert.equal(text(read), JSON.stringify(file.prompts));
        }
      }
    }),
    { numRuns: 150, seed: 5 },
  );
  // More rows than one buffer holds, ids long and short, figures whole, fractional and not finite.
  const rows = Array.from(
    { length: 5000 },
    (_, i) => [`${'x'.repeat(i % 97)}${i}`, i % 5, i, i % 9, i % 3 === 0 ? i / 7 : i, i + 1, i % 11 === 0 ? 2 ** 53 + 2 : i] as const,
  );
  const big = PromptTable.of(rows.map((r) => [...r]));
  assert.ok(big);
  assert.equal(text(big), JSON.stringify(rows));
});
