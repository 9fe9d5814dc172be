// The run's tokenizer found from the run itself (core/tokenizer/runTokenizer.ts): the `tokenizer`
// setting wins; else the tokenizer miles main 31f1ca9 saves in its dump folder (`D/tokenizer/`,
// RolloutDataSource's save_pretrained); else the hf_checkpoint that the dashboard's meta.json names
// (test/fixtures/real/miles/dashboard-meta: the file miles' own collector writes, made by
// scripts/gen-dashboard-meta.py), followed only where the host allows (the editor's rule:
// server/src/server/features/runTokenizers.ts `mayFollow`, tested here too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { findRunTokenizer, followAny, hfCheckpointOf, withStepTokenTexts } from '../../../server/src/core/tokenizer/runTokenizer';
import { loadTokenTexts } from '../../../server/src/core/tokenizer/tokenText';
import type { TrainStepReport } from '../../../server/src/core/vocabulary/types';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { mayFollow } from '../../../server/src/server/features/runTokenizers';
import { repoRoot } from '../../lsp/fixtures';

const ROOT = repoRoot();
const QWEN = join(ROOT, 'test/fixtures/real/tokenizers/qwen3/tokenizer.json');
const SP = join(ROOT, 'test/fixtures/real/tokenizers/sentencepiece/tokenizer.json');
const META = join(ROOT, 'test/fixtures/real/miles/dashboard-meta');

/** A dump folder D with miles' meta.json, its hf_checkpoint pointed at `checkpoint` when given. */
function dumpWithMeta(dir: string, checkpoint?: string): string {
  const d = join(dir, 'dump');
  mkdirSync(join(d, 'dashboard'), { recursive: true });
  const meta = JSON.parse(readFileSync(join(META, 'dump/dashboard/meta.json'), 'utf8')) as { args: Record<string, unknown> };
  if (checkpoint !== undefined) meta.args.hf_checkpoint = checkpoint;
  writeFileSync(join(d, 'dashboard', 'meta.json'), JSON.stringify(meta, null, 1));
  return d;
}

const query = (root: string | null, setting: string | null = null) => ({ setting, base: null, root, mayFollow: followAny });

test("miles' dashboard meta.json names hf_checkpoint: the file its own collector writes", async () => {
  const expected = JSON.parse(readFileSync(join(META, 'expected.json'), 'utf8')) as { hf_checkpoint: string; args: string[] };
  assert.equal(await hfCheckpointOf(nodeFileAccess, join(META, 'dump/dashboard/meta.json')), expected.hf_checkpoint);
  assert.ok(expected.args.includes('hf_checkpoint'));
  // The placeholder checkpoint is not on this machine: said, with the file that named it.
  const found = await findRunTokenizer(nodeFileAccess, query(join(META, 'dump')));
  assert.equal(found.texts, null);
  assert.equal(
    found.problem,
    `${join(META, 'dump', 'dashboard', 'meta.json')} names hf_checkpoint /models/Qwen3-0.6B: /models/Qwen3-0.6B: cannot read the tokenizer (ENOENT)`,
  );
});

test('the checkpoint meta.json names is read (a folder holding tokenizer.json), and said where it came from', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-run-tokenizer-'));
  try {
    const checkpoint = join(dir, 'Qwen3-0.6B');
    mkdirSync(checkpoint);
    cpSync(QWEN, join(checkpoint, 'tokenizer.json'));
    const d = dumpWithMeta(dir, checkpoint);
    const found = await findRunTokenizer(nodeFileAccess, query(d));
    assert.deepEqual(found.note, {
      file: join(checkpoint, 'tokenizer.json'),
      decoder: 'ByteLevel',
      from: 'hf_checkpoint',
      namedBy: join(d, 'dashboard', 'meta.json'),
    });
    assert.equal(found.texts?.text(30565), ' crops');
    assert.equal(found.problem, null);

    // The host refuses the path (an untrusted workspace): nothing is read, and the view says why.
    let asked: string | null = null;
    const refused = await findRunTokenizer(nodeFileAccess, {
      ...query(d),
      mayFollow: async (p) => {
        asked = p;
        return 'outside the workspace';
      },
    });
    assert.equal(asked, checkpoint);
    assert.deepEqual([refused.texts, refused.note], [null, null]);
    assert.equal(refused.problem, `${join(d, 'dashboard', 'meta.json')} names hf_checkpoint ${checkpoint}: outside the workspace`);

    // A hub id (or a path relative to where miles ran) is not looked for.
    const hub = await findRunTokenizer(nodeFileAccess, query(dumpWithMeta(join(dir, 'hub'), 'Qwen/Qwen3-0.6B')));
    assert.equal(hub.texts, null);
    assert.match(hub.problem ?? '', /names hf_checkpoint "Qwen\/Qwen3-0\.6B", not an absolute path: it is not looked for$/);

    // miles' own copy in the dump folder (D/tokenizer/) comes before the checkpoint.
    mkdirSync(join(d, 'tokenizer'));
    cpSync(SP, join(d, 'tokenizer', 'tokenizer.json'));
    const saved = await findRunTokenizer(nodeFileAccess, query(d));
    assert.deepEqual(saved.note, { file: join(d, 'tokenizer', 'tokenizer.json'), decoder: saved.texts?.decoder, from: 'dump', namedBy: null });
    assert.notEqual(saved.texts?.decoder, 'ByteLevel', 'the SentencePiece one, not the checkpoint’s');

    // The setting wins; one that cannot be read is said, never replaced by what the run holds.
    const set = await findRunTokenizer(nodeFileAccess, query(d, QWEN));
    assert.equal(set.note?.from, 'setting');
    const bad = await findRunTokenizer(nodeFileAccess, query(d, join(dir, 'nothing-here')));
    assert.deepEqual([bad.texts, bad.note], [null, null]);
    assert.match(bad.problem ?? '', /nothing-here: cannot read the tokenizer \(ENOENT\)$/);

    // No setting and no run folder: nothing looked for, nothing to say.
    assert.deepEqual(await findRunTokenizer(nodeFileAccess, query(null)), { texts: null, note: null, problem: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('withStepTokenTexts sets the worst tokens’ texts on copies', async () => {
  const qwen = await loadTokenTexts(nodeFileAccess, QWEN);
  const token = { sample: 1, position: 0, token: 30565, rolloutLogProb: -1, trainLogProb: -2, absDiff: 1, line: 2 };
  const step = { step: 0, files: [], samples: 1, metrics: {}, buckets: {}, root: 'D', mismatch: { worstTokens: [token] } } as unknown as TrainStepReport;
  const [out] = withStepTokenTexts([step], qwen);
  assert.equal(out.mismatch?.worstTokens[0].text, ' crops');
  assert.equal(step.mismatch?.worstTokens[0].text, undefined, 'a host’s kept result is not changed');
});

test('the editor follows a path a log names only inside the workspace when it is not trusted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-may-follow-'));
  try {
    const ws = join(dir, 'ws');
    mkdirSync(join(ws, 'models'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(ws, 'link'));
    const untrusted = { workspaceTrusted: false, folders: [ws], overlay: nodeFileAccess } as Parameters<typeof mayFollow>[0];
    assert.equal(await mayFollow(untrusted, join(ws, 'models')), null);
    assert.equal(await mayFollow(untrusted, join(ws, 'models', 'not-yet')), null);
    for (const p of [join(dir, 'outside'), join(ws, '..', 'outside'), join(ws, 'link'), `${ws}-other`, '/models/Qwen3-0.6B'])
      assert.match((await mayFollow(untrusted, p)) ?? '', /^outside the workspace, which is not trusted: not read/, p);
    assert.equal(await mayFollow({ ...untrusted, workspaceTrusted: true }, join(dir, 'outside')), null, 'a trusted workspace reads it');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
