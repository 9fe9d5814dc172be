// The summary reader on a file's bytes (how `diff` and `summarize --merge` read a summary): the
// same summary, or the same error, as parsing the file's text decoded as UTF-8 (Node's decoding,
// a byte order mark kept, a bad sequence replaced); and the bootstrap's numerators-only draws
// (every item the same whole denominator) against draws through `seededRandom`, in WebAssembly
// against the JS loop; the hand check of a parsed summary against the zod schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';

import { bootstrapInWasm, hashText, pairedBootstrap, type PairedItem, seededRandom } from '../../../server/src/core/compare/bootstrap';
import { diffRuns } from '../../../server/src/core/compare/diff';
import { gateRulesOf } from '../../../server/src/core/compare/gate';
import { promptRowsOf } from '../../../server/src/core/compare/attachedRows';
import { PromptTable } from '../../../server/src/core/compare/promptTable';
import { promptTableOf } from '../../../server/src/core/compare/promptTableBuilder';
import { decodeSummary } from '../../../server/src/core/compare/summaryDecode';
import type { RunSummary } from '../../../server/src/core/compare/summary';
import { SUMMARY_VERSION } from '../../../server/src/core/compare/summaryFormat';
import { parseSummary, parseSummaryBySchema, renderSummary } from '../../../server/src/core/compare/summaryJson';
import { isPlainSummary } from '../../../server/src/core/compare/summaryShape';
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
          const built = promptTableOf(file.prompts);
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
  const big = promptTableOf(rows.map((r) => [...r]));
  assert.ok(big);
  assert.equal(text(big), JSON.stringify(rows));
});

/** `summary` with what randomSummary leaves out: step datasets with pass@k, train_data mismatches, a step of train_data alone. */
function withStepExtras(summary: RunSummary, worst: number | null): RunSummary {
  const steps = summary.steps.map((s, i) => {
    const { files, ...rest } = s;
    const datasets =
      i % 2 === 0
        ? [{ name: 'aime', n: 4, samples: 8, noneReward: 1, truncated: 0, score: i === 0 ? null : 0.25, passAtK: { 'pass@1': 0.25, 'pass@2': null } }]
        : [];
    const mismatch =
      s.kind === 'rollout' && i % 3 !== 2 ? { mismatch: { tokens: 12, mean: 0.5, p99: 1.5, ranks: 2, file: 'train_data/1_0.pt', worstSample: worst } } : {};
    return { ...rest, datasets, ...mismatch, files };
  });
  if (summary.steps.length > 0) {
    const { files: _files, datasets: _datasets, kind: _kind, step: _step, partial: _partial, ...figures } = summary.steps[0];
    const mismatch = { tokens: 1, mean: 0, p99: 0, ranks: 1, file: 'train_data/99_0.pt', worstSample: null };
    steps.push({ kind: 'rollout', step: 99, partial: false, ...figures, datasets: [], mismatch, files: [] });
  }
  return { ...summary, steps };
}

/** The JSON containers of `doc` in depth-first order, each with the path that reaches it. */
function containers(doc: unknown, out: unknown[] = []): unknown[] {
  if (doc !== null && typeof doc === 'object') {
    out.push(doc);
    for (const v of Object.values(doc)) containers(v, out);
  }
  return out;
}

/**
 * One change to a copy of `doc` at its `pick`-th container: a member removed, added, moved last,
 * set to `value`, or an own `__proto__` key; what a hand-edited or damaged summary might hold.
 */
function mutated(doc: unknown, pick: number, kind: number, member: number, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as unknown;
  const all = containers(copy);
  const target = all[pick % all.length] as Record<string, unknown> | unknown[];
  const keys = Object.keys(target);
  const key = keys.length > 0 ? keys[member % keys.length] : '0';
  if (Array.isArray(target)) {
    if (kind === 0) target.splice(Number(key), 1);
    else if (kind === 1) target.push(value);
    else if (kind === 2) target.reverse();
    else target[Number(key)] = value;
    return copy;
  }
  if (kind === 0) delete target[key];
  else if (kind === 1) target[`extra${member}`] = value;
  else if (kind === 2) {
    const moved = target[key];
    delete target[key];
    target[key] = moved;
  } else if (kind === 3) target[key] = value;
  else Object.defineProperty(target, '__proto__', { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

test('hand check: a summary the schema gives back unchanged is taken as it is, anything else is zod’s (same summary, same error)', () => {
  const values = ['x', -1, 1.5, 0, 1, null, true, [], {}, 2 ** 53, 1e300, 'rollout', 'eval', 'miles', 3, [['a', 1, 1, 1, 0, 1, 0]]];
  // A summary as `summarize` writes it passes the hand check: the fast path is the one taken.
  fc.assert(
    fc.property(randomSummary, fc.constantFrom(null, 3, -2), (summary, worst) => {
      const doc = JSON.parse(renderSummary(withStepExtras(summary, worst))) as unknown;
      assert.ok(isPlainSummary(doc));
    }),
    { numRuns: 100, seed: 7 },
  );
  fc.assert(
    fc.property(
      randomSummary,
      fc.constantFrom(null, 3, -2),
      fc.nat(),
      fc.nat({ max: 4 }),
      fc.nat(),
      fc.constantFrom(...values),
      (summary, worst, pick, kind, member, value) => {
        const text = JSON.stringify(mutated(withStepExtras(summary, worst), pick, kind, member, value));
        // inspect: key order and the prototype count, not only the values.
        const show = (read: () => RunSummary) => () => inspect(read(), { depth: null, showHidden: true });
        assert.deepEqual(outcome(show(() => parseSummary(text))), outcome(show(() => parseSummaryBySchema(text))), text.slice(0, 400));
      },
    ),
    { numRuns: 1500, seed: 7 },
  );
  // The same on a summary of one step without files (a train_data mismatch alone) and its step
  // figures: the members files would otherwise outnumber.
  fc.assert(
    fc.property(fc.constantFrom(null, 3, -2), fc.nat(), fc.nat({ max: 4 }), fc.nat(), fc.constantFrom(...values), (worst, pick, kind, member, value) => {
      const one = withStepExtras({ version: SUMMARY_VERSION, framework: 'verl', steps: [] }, worst);
      const step = {
        kind: 'rollout' as const,
        step: 4,
        partial: false,
        samples: 8,
        groups: { total: 2, kept: 1, dropped: 1 },
        droppedByCause: { zero_std_1: 1 },
        responseTokens: 10,
        droppedTokens: 4,
        reward: { count: 7, sum: 3.5, sumSq: 2.25, none: 1 },
        truncated: 0,
        withStatus: 8,
        datasets: [{ name: 'aime', n: 4, samples: 8, noneReward: 1, truncated: 0, score: 0.25, passAtK: { 'pass@1': 0.25, 'pass@2': null } }],
        mismatch: { tokens: 12, mean: 0.5, p99: 1.5, ranks: 2, file: 'train_data/4_0.pt', worstSample: worst },
        files: [],
      };
      one.steps.push(step);
      assert.ok(isPlainSummary(JSON.parse(JSON.stringify(one))));
      const text = JSON.stringify(mutated(one, pick, kind, member, value));
      const show = (read: () => RunSummary) => () => inspect(read(), { depth: null, showHidden: true });
      assert.deepEqual(outcome(show(() => parseSummary(text))), outcome(show(() => parseSummaryBySchema(text))), text);
    }),
    { numRuns: 1500, seed: 7 },
  );
});

test('bootstrap: the WebAssembly draws give the JS loop’s intervals, bit for bit', () => {
  assert.ok(bootstrapInWasm(), 'WebAssembly SIMD is there (Node 20): the fast path is the one tested');
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -4, max: 16, noNaN: true }), { minLength: 1, maxLength: 700 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 400 }),
      fc.nat(),
      fc.string(),
      (numerators, bDen, cDen, resamples, seed, label) => {
        const items = numerators.map((b, j) => ({ baseline: [b, bDen], candidate: [numerators[(j * 7) % numerators.length] / 2, cDen] }) as PairedItem);
        const fast = pairedBootstrap(items, seed, label, resamples);
        assert.deepEqual(fast, pairedBootstrap(items, seed, label, resamples, { jsDraws: true }));
      },
    ),
    { numRuns: 200, seed: 7 },
  );
});
