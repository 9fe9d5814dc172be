// What the inspection (hover, sample view, Datasets view) says of an eval sample: the dataset the
// analysis put it in and its prompt group, by the analysis's own split and grouping order, for a
// detail kept as records and one kept as the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { firstLineOf, inspectSample } from '../../../server/src/core/inspect';
import type { FileReport } from '../../../server/src/core/vocabulary/types';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../shared/repoRoot';

const RUN = join(repoRoot(), 'examples/run');
const SETTINGS: RolloutLensSettings = { ...DEFAULT_SETTINGS, evalConfig: join(RUN, 'eval_config.yaml') };

async function evalReport(path: string, keepDetail: true | 'store', settings = SETTINGS): Promise<FileReport> {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings, keepDetail });
  const file = report.files.find((f) => f.kind === 'eval');
  assert.ok(file?.detail, `${path}: an eval report with its detail`);
  return file;
}

/** Per line: its dataset, prompt group index and the lines of the group's members. */
function places(report: FileReport): [number, string | null, number | null, number[]][] {
  return Array.from({ length: report.records }, (_, k) => {
    const at = inspectSample({ report, settings: SETTINGS }, k + 1);
    return [k + 1, at?.dataset?.name ?? null, at?.evalGroup?.index ?? null, at?.evalGroup?.members.map((m) => m.line) ?? []];
  });
}

test('an eval sample without a recorded dataset is in the dataset its index restart names, with its prompt group', async () => {
  const path = join(RUN, 'eval/eval_100.jsonl');
  for (const keep of [true, 'store'] as const) {
    const got = places(await evalReport(path, keep));
    // aime's 12 samples record no dataset: the first index run, named by the config's first entry (n = 4).
    assert.deepEqual(
      got.slice(0, 12).map(([line, name, index, members]) => [line, name, index, members]),
      Array.from({ length: 12 }, (_, k) => {
        const g = Math.floor(k / 4);
        return [k + 1, 'aime', g, [4 * g + 1, 4 * g + 2, 4 * g + 3, 4 * g + 4]];
      }),
      `${keep}: aime`,
    );
    assert.ok(
      got.every(([, name, index]) => name !== null && index !== null),
      `${keep}: every sample has a dataset and a prompt group`,
    );
    assert.deepEqual(got, places(await evalReport(path, true)), `${keep}: the store's answers are the records'`);
  }
});

test('datasets found by index restarts start on their own first lines; a named one out of index order is grouped by index', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-inspect-eval-'));
  try {
    // The eval analysis reads a miles dump under an `eval/` folder.
    mkdirSync(join(dir, 'eval'));
    // Two datasets back to back, neither named in the samples: index 0-3, then 0-3 again.
    const line = (i: number, reward: number) =>
      `{"group_index": null, "index": ${i}, "prompt": "Problem ${Math.floor(i / 2)}", "response": "x", "label": "1", "reward": ${reward}, "status": "completed", "metadata": {}}`;
    const lines = [0, 1, 2, 3, 0, 1, 2, 3].map((i, k) => line(i, k % 2));
    // And a third, named in its samples and written out of index order (3, 1, 2, 0): grouped by index.
    for (const i of [3, 1, 2, 0]) lines.push(line(i, i % 2).replace('"metadata": {}', '"metadata": {"dataset_name": "swe"}'));
    writeFileSync(join(dir, 'eval/eval_7.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(dir, 'eval_config.yaml'),
      'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2\n    - name: gpqa\n      n_samples_per_eval_prompt: 2\n    - name: swe\n      n_samples_per_eval_prompt: 2\n',
    );
    const settings = { ...DEFAULT_SETTINGS, evalConfig: join(dir, 'eval_config.yaml') };
    for (const keep of [true, 'store'] as const) {
      const report = await evalReport(join(dir, 'eval/eval_7.jsonl'), keep, settings);
      const detail = report.detail!;
      assert.deepEqual(
        detail.datasets.map((d) => [d.name, firstLineOf(report, detail, d.name)]),
        [
          ['aime', 1],
          ['gpqa', 5],
          ['swe', 9],
        ],
        `${keep}`,
      );
      assert.deepEqual(
        [inspectSample({ report, settings }, 6)?.dataset?.name, inspectSample({ report, settings }, 6)?.evalGroup?.members.map((m) => m.line)],
        ['gpqa', [5, 6]],
        `${keep}: line 6`,
      );
      // Line 9 holds index 3: the second group of swe by index, lines 11 (index 2) and 9.
      assert.deepEqual(
        inspectSample({ report, settings }, 9)?.evalGroup?.members.map((m) => m.line),
        [11, 9],
        `${keep}: line 9`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
