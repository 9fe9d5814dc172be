import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { capFindings } from '../../../server/src/core/findingCap';
import type { Finding } from '../../../server/src/core/vocabulary/types';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../shared/repoRoot';

import { tempDir } from './helpers';

function options(over: Partial<RolloutLensSettings> = {}) {
  return { access: nodeFileAccess, settings: { ...DEFAULT_SETTINGS, ...over } };
}

/** Two prompts × 2 attempts of dataset aime, prompt-major. */
function evalLog(dir: string): string {
  const line = (i: number, p: string, r: string) =>
    `{"index": ${i}, "prompt": "${p}", "response": "x", "response_length": 1, "status": "completed", "reward": ${r}, "metadata": {"dataset_name": "aime"}}`;
  const path = join(dir, 'eval_5.jsonl');
  writeFileSync(path, [line(0, 'p0', '1.0'), line(1, 'p0', '0.0'), line(2, 'p1', '1.0'), line(3, 'p1', '1.0')].join('\n') + '\n');
  return path;
}

test('engine: eval_config.yaml beside an eval log is loaded (its dataset n groups the samples)', async (t) => {
  const dir = tempDir(t);
  const path = evalLog(dir);
  writeFileSync(join(dir, 'eval_config.yaml'), 'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2\n');
  const r = await analyzeFiles([{ path, displayPath: 'eval_5.jsonl' }], { ...options(), keepDetail: true });
  const ds = r.files[0].detail?.datasets ?? [];
  assert.deepEqual(
    ds.map((d) => [d.name, d.n, d.nSource]),
    [['aime', 2, 'dataset']],
  );
  assert.deepEqual(r.files[0].groups, { total: 2, kept: 2, dropped: 0 });
});

test('engine: options.evalConfig = null means no config, even with one beside the log', async (t) => {
  const dir = tempDir(t);
  const path = evalLog(dir);
  writeFileSync(join(dir, 'eval_config.yaml'), 'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2\n');
  const r = await analyzeFiles([{ path, displayPath: 'eval_5.jsonl' }], { ...options(), evalConfig: null, keepDetail: true });
  assert.notEqual(r.files[0].detail?.datasets[0].nSource, 'dataset');
});

test('engine: settings.evalConfig names the config to load', async (t) => {
  const dir = tempDir(t);
  const path = evalLog(dir);
  const config = join(dir, 'other.json');
  writeFileSync(config, JSON.stringify({ eval: { datasets: [{ name: 'aime', n_samples_per_eval_prompt: 2 }] } }));
  const r = await analyzeFiles([{ path, displayPath: 'e' }], { ...options({ evalConfig: config }), keepDetail: true });
  assert.equal(r.files[0].detail?.datasets[0].nSource, 'dataset');
});

test('engine: progress reports bytes read of each file; detail only with keepDetail', async (t) => {
  const dir = tempDir(t);
  const path = evalLog(dir);
  const seen: [string, number, number][] = [];
  const r = await analyzeFiles([{ path, displayPath: 'e' }], { ...options(), onProgress: (f, done, total) => seen.push([f, done, total]) });
  assert.ok(seen.length >= 1);
  const [file, done, total] = seen.at(-1)!;
  assert.equal(file, path);
  assert.equal(done, total);
  assert.deepEqual(r.files[0].detail?.samples ?? [], [], 'no per-sample detail without keepDetail');
});

test('engine: maxProblems never hides that a .pt dump could not be read to its end', () => {
  const finding = (code: string, line: number): Finding => ({
    code,
    severity: 'warning',
    file: 'f.pt',
    line,
    message: code,
    group: null,
    dataset: null,
    fix: null,
  });
  const findings = [1, 2, 3, 4, 5].map((line) => finding('group-dropped', line)).concat(finding('pt-unreadable', 100));
  const kept = capFindings(findings, 3, 'f.pt');
  assert.deepEqual(
    kept.map((f) => [f.code, f.line]),
    [
      ['group-dropped', 1],
      ['group-dropped', 2],
      ['pt-unreadable', 100],
      ['too-many-problems', 100],
    ],
  );
  assert.equal(kept[3].message, '3 more problems not shown (maxProblems = 3); most severe shown first; not shown: group-dropped: 3');
  // Under the limit nothing moves.
  assert.deepEqual(capFindings(findings, 10, 'f.pt'), findings);
});

test('engine: eval and verl files give the same report read through row views (no detail) as through records (detail)', async () => {
  // Without keepDetail the eval and verl analyses read row views of the store (core/store/rowView.ts);
  // with it, the records the detail keeps. Every file of the example run and of the real writers'
  // fixtures, each of its findings and metrics, must not tell the two apart.
  const root = repoRoot();
  const dirs = ['examples/run', 'test/fixtures/real/miles/eval', 'test/fixtures/real/verl', 'test/fixtures/formats'];
  const paths = dirs.flatMap((d) =>
    readdirSync(join(root, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => join(root, d, f)),
  );
  const targets = paths.map((path) => ({ path, displayPath: path }));
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerEvalPrompt: 2 };
  const viewed = await analyzeFiles(targets, { access: nodeFileAccess, settings });
  const recorded = await analyzeFiles(targets, { access: nodeFileAccess, settings, keepDetail: true });
  const kinds = new Set(viewed.files.map((f) => f.format));
  for (const format of ['miles-sample', 'verl-rollout', 'verl-validation'] as const) assert.ok(kinds.has(format), `no ${format} file`);
  assert.ok(
    viewed.files.some((f) => f.kind === 'eval' && f.format === 'miles-sample'),
    'no miles eval file',
  );
  const strip = (r: typeof viewed) => ({ ...r, files: r.files.map(({ detail: _detail, ...f }) => f) });
  assert.deepEqual(strip(viewed), strip(recorded));
});

test('engine: an eval dump written out of index order is read in index order through row views too', async (t) => {
  // miles computes an eval dataset's sample metrics in index order. Here one group's two rewards are
  // equal under Python's == but not alike (1.0 at index 0, the int 1 at index 1, written in reverse):
  // its zero-std count is keyed by the first reward in index order, str(round(1.0, 1)) = "1.0".
  const dir = join(tempDir(t), 'eval');
  mkdirSync(dir);
  const line = (i: number, r: string) =>
    `{"group_index": 0, "index": ${i}, "prompt": "p0", "response": "x", "response_length": ${i + 1}, "status": "completed", "reward": ${r}, "metadata": {"dataset_name": "aime"}}`;
  const path = join(dir, 'eval_7.jsonl');
  writeFileSync(path, `${line(1, '1')}\n${line(0, '1.0')}\n`);
  for (const keepDetail of [false, true]) {
    const r = await analyzeFiles([{ path, displayPath: path }], { ...options(), keepDetail });
    const m = r.files[0].metrics;
    assert.equal(m['eval/aime/zero_std/count_1.0'], 1, `keepDetail ${keepDetail}`);
    assert.equal(m['eval/aime/zero_std/count_1'], undefined);
    assert.equal(m['eval/aime/zero_std/all_one_percentage'], 1);
  }
});
