// The compare code's fast paths against plain references, on random summaries: the summary reader
// that keeps prompt rows in compact tables gives what `parseSummary` gives (the same summary, the
// same error), the diff of summaries read that way is the diff of plain ones, the flips are those
// a plain pass over the rows finds, and the bootstrap's inlined draws are `seededRandom`'s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { hashText, pairedBootstrap, type PairedItem, seededRandom } from '../../../server/src/core/compare/bootstrap';
import { diffRuns, type StepPair } from '../../../server/src/core/compare/diff';
import { diffPrompts } from '../../../server/src/core/compare/diffPrompts';
import { gateRulesOf } from '../../../server/src/core/compare/gate';
import { promptRowsOf } from '../../../server/src/core/compare/attachedRows';
import { PromptTable } from '../../../server/src/core/compare/promptTable';
import type { RunSummary } from '../../../server/src/core/compare/summary';
import { decodeSummary } from '../../../server/src/core/compare/summaryDecode';
import { parseSummary, renderSummary } from '../../../server/src/core/compare/summaryJson';
import { outcome } from '../../shared/outcome';
import { randomSummary } from '../../shared/randomSummary';

const layouts: ((s: RunSummary) => string)[] = [
  renderSummary,
  (s) => JSON.stringify(s, null, 2),
  (s) => `\t${JSON.stringify(s, null, '\t').replaceAll('\n', ' \r\n')} `,
];

test('fast reader: the same summary as parseSummary, whatever the layout; prompt rows read back from their tables', () => {
  fc.assert(
    fc.property(randomSummary, fc.constantFrom(...layouts), (summary, layout) => {
      const text = layout(summary);
      const decoded = decodeSummary(text);
      const plain = parseSummary(text);
      // The tables first (reading `prompts` makes the rows), then the whole summary.
      for (const [s, step] of plain.steps.entries()) {
        for (const [f, file] of step.files.entries()) {
          const rows = promptRowsOf(decoded.steps[s].files[f]);
          assert.ok(rows instanceof PromptTable);
          assert.deepEqual(rows.rows(), file.prompts);
        }
      }
      assert.deepEqual(decoded, plain);
      assert.equal(renderSummary(decoded), renderSummary(plain));
    }),
    { numRuns: 150, seed: 46 },
  );
});

test('fast reader: a damaged summary gives the same error as parseSummary (or the same summary)', () => {
  fc.assert(
    fc.property(
      randomSummary,
      fc.nat(),
      fc.constantFrom('', '"', '-', '01', '1e', ']', '}', ',', 'x', '\\', '\u0000', '[]', '{}', '"prompts":[]'),
      (summary, at, insert) => {
        const text = renderSummary(summary);
        const i = at % (text.length + 1);
        for (const damaged of [text.slice(0, i) + insert + text.slice(i), text.slice(0, i) + insert + text.slice(i + 1)]) {
          assert.deepEqual(
            outcome(() => decodeSummary(damaged)),
            outcome(() => parseSummary(damaged)),
            damaged,
          );
        }
      },
    ),
    { numRuns: 400, seed: 46 },
  );
  // Repeated keys: JSON.parse keeps the last value, and so does the fast reader.
  const one = '["a",0,1,1,1,3,7]';
  const base = JSON.parse(
    renderSummary(
      fc.sample(
        randomSummary.filter((s) => s.steps.length > 0),
        { numRuns: 1, seed: 1 },
      )[0],
    ),
  ) as RunSummary;
  const text = JSON.stringify(base).replace('"prompts":[', `"prompts":[${one}],"prompts":[`);
  assert.deepEqual(decodeSummary(text), parseSummary(text));
});

test('diff: summaries read by the fast reader give the diff of plain ones', () => {
  const options = { align: { mode: 'number' as const }, seed: 3, resamples: 50, rules: gateRulesOf(undefined), maxPrompts: 5 };
  fc.assert(
    fc.property(randomSummary, randomSummary, (a, b) => {
      const [ta, tb] = [renderSummary(a), renderSummary(b)];
      const fast = diffRuns({ source: 'a', summary: decodeSummary(ta) }, { source: 'b', summary: decodeSummary(tb) }, options);
      const plain = diffRuns({ source: 'a', summary: parseSummary(ta) }, { source: 'b', summary: parseSummary(tb) }, options);
      assert.deepEqual(fast, plain);
    }),
    { numRuns: 150, seed: 46 },
  );
});

/** Rollout flips as a plain pass over the rows finds them: the first row of each id on each side. */
function referenceFlips(pairs: readonly StepPair[]): { paired: number; flips: Map<string, number> } {
  let paired = 0;
  const flips = new Map<string, number>();
  for (const [b, c] of pairs) {
    if (b.kind !== 'rollout') continue;
    const firstOf = (step: typeof b) => {
      const out = new Map<string, { state: string | undefined; solved: boolean }>();
      for (const f of step.files) for (const r of f.prompts) if (!out.has(r[0])) out.set(r[0], { state: f.states[r[1]], solved: r[3] > 0 });
      return out;
    };
    const cs = firstOf(c);
    for (const [id, x] of firstOf(b)) {
      const y = cs.get(id);
      if (!y) continue;
      paired++;
      if (x.state === y.state && x.solved === y.solved) continue;
      const [xs, ys] = [x.state ?? 'kept', y.state ?? 'kept'];
      const key = xs !== ys ? `${xs} → ${ys}` : `${x.solved ? 'solved' : 'unsolved'} → ${y.solved ? 'solved' : 'unsolved'}`;
      flips.set(key, (flips.get(key) ?? 0) + 1);
    }
  }
  return { paired, flips };
}

test('diff: rollout flips are those a plain pass over the rows finds', () => {
  fc.assert(
    fc.property(randomSummary, randomSummary, (a, b) => {
      const pairs: StepPair[] = a.steps
        .filter((s) => s.kind === 'rollout')
        .flatMap((s, i) => (b.steps[i] ? [[s, { ...b.steps[i], kind: 'rollout' }] as StepPair] : []));
      const got = diffPrompts(pairs, 3);
      const want = referenceFlips(pairs);
      assert.equal(got.paired, want.paired);
      assert.deepEqual(Object.entries(got.flips), [...want.flips]);
      assert.equal(
        got.listed.length + got.omitted,
        [...want.flips.values()].reduce((x, y) => x + y, 0),
      );
    }),
    { numRuns: 200, seed: 46 },
  );
});

/** The bootstrap as first written: items drawn through `seededRandom`. */
function referenceBootstrap(items: readonly PairedItem[], seed: number, label: string, resamples: number): [number, number] | null {
  const m = items.length;
  if (m === 0 || !items.some((it) => it.baseline[1] > 0 && it.candidate[1] > 0)) return null;
  const random = seededRandom(hashText(label, hashText(String(seed))));
  const deltas: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let [bn, bd, cn, cd] = [0, 0, 0, 0];
    for (let j = 0; j < m; j++) {
      const it = items[Math.floor(random() * m)];
      bn += it.baseline[0];
      bd += it.baseline[1];
      cn += it.candidate[0];
      cd += it.candidate[1];
    }
    if (bd > 0 && cd > 0) deltas.push(cn / cd - bn / bd);
  }
  if (deltas.length === 0) return null;
  const sorted = Float64Array.from(deltas).sort();
  const q = (p: number) => {
    const pos = p * (sorted.length - 1);
    const [lo, hi] = [Math.floor(pos), Math.ceil(pos)];
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  };
  return [q(0.025), q(0.975)];
}

test('bootstrap: the inlined draws give exactly the interval of draws through seededRandom', () => {
  const side = fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }), fc.constantFrom(0, 1, 2, 4));
  fc.assert(
    fc.property(
      fc.array(fc.record({ baseline: side, candidate: side }), { maxLength: 40 }),
      fc.nat(),
      fc.string(),
      fc.integer({ min: 1, max: 300 }),
      (items, seed, label, resamples) => {
        assert.deepEqual(pairedBootstrap(items, seed, label, resamples), referenceBootstrap(items, seed, label, resamples));
      },
    ),
    { numRuns: 300, seed: 46 },
  );
});
