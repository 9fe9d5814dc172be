// How an eval file's samples are split into datasets (core/eval/datasets.ts splitDatasets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitDatasets } from '../../../server/src/core/eval/datasets';
import { sampleList } from '../../../server/src/core/store/sampleList';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { EvalConfig } from '../../../server/src/core/eval/config';
import { rec } from './records';

const config = { path: 'eval_config.yaml', datasets: [{ name: 'aime' }, { name: 'gpqa' }], defaults: {} } as unknown as EvalConfig;

/** The split as a list of (name, source, lines), one pushed sample at a time. */
function reference(samples: ReturnType<typeof rec>[], withConfig: boolean): [string, string, number[]][] {
  const names = withConfig ? ['aime', 'gpqa'] : [];
  const unnamed = samples.some((s) => s.dataset === null);
  const segs: number[] = [];
  let seg = 0;
  let prev: number | null = null;
  for (const s of samples) {
    if (s.index !== null) {
      if (prev !== null && s.index <= prev) seg++;
      prev = s.index;
    }
    segs.push(seg);
  }
  const count = unnamed ? segs[segs.length - 1] + 1 : 0;
  const parts = new Map<string, [string, string, number[]]>();
  samples.forEach((s, i) => {
    const [name, source] =
      s.dataset !== null
        ? [s.dataset, 'recorded']
        : unnamed && segs[i] < names.length
          ? [names[segs[i]], 'config-order']
          : unnamed && count > 1
            ? [`dataset ${segs[i] + 1}`, 'index-restart']
            : ['eval_3', 'file-name'];
    if (!parts.has(name)) parts.set(name, [name, source, []]);
    parts.get(name)![2].push(s.line);
  });
  return [...parts.values()];
}

test('splitDatasets: names, sources and members as one sample at a time gives them, from records and store rows; one dataset handed on as is', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          dataset: fc.oneof(fc.constant(null), fc.constantFrom('aime', 'gpqa', 'math')),
          index: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 })),
        }),
        { maxLength: 14 },
      ),
      fc.boolean(),
      (rows, withConfig) => {
        const samples = rows.map((r, k) => rec({ line: k + 1, ...r }));
        const want = reference(samples, withConfig);
        // Records and the store's rows alike.
        for (const list of [sampleList(samples), sampleList(SampleStore.of(samples))]) {
          const parts = splitDatasets('eval/eval_3.jsonl', 'miles-sample', list, withConfig ? config.datasets.map((d) => d.name) : []);
          assert.deepEqual(
            parts.map((p) => [p.name, p.source, Array.from({ length: p.samples.length }, (_, k) => p.samples.line(k))]),
            want,
          );
          if (parts.length === 1) assert.equal(parts[0].samples, list);
        }
      },
    ),
    { numRuns: 500 },
  );
});
