// One sample's log-probs along its response for the sample view (core/train/sampleMismatch.ts), read
// from miles' own train_data (test/fixtures/real/miles/mismatch: step 3 over two data-parallel ranks,
// step 4 over two context-parallel ranks, each rank holding a zigzag slice of the response): the
// worst tokens torch.load and numpy found (expected.json) sit at their positions with their
// log-probs and |Δ|, Δ only where the loss mask is 1, every other position masked or whole; with the
// run's tokenizer (a subset of Qwen3's real one), each token's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../server/src/core/vocabulary/settings';
import { analyzeFiles } from '../../../server/src/core/engine';
import { MAX_MISMATCH_POSITIONS, readSampleMismatch, trainDataFilesOf } from '../../../server/src/core/train/sampleMismatch';
import { readSampleView } from '../../../server/src/core/views/sampleView';
import { loadTokenTexts } from '../../../server/src/core/tokenizer/tokenText';
import { tokenLabel, tokenTextNote } from '../../../shared/tokenLabels';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

const DIR = join(repoRoot(), 'test/fixtures/real/miles/mismatch');
const DRIFT = join(repoRoot(), 'test/fixtures/real/miles/drift');

interface Token {
  sample: number;
  position: number;
  token: number;
  rolloutLogProb: number;
  trainLogProb: number;
  absDiff: number;
}
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as {
  steps: Record<string, { cp: number; mismatch: { worstTokens: Token[]; worstSamples: { sample: number; tokens: number; max: number }[] } }>;
};

test("a sample's log-probs placed along its response from every rank's slice, as torch.load gives them", async () => {
  for (const [step, e] of Object.entries(expected.steps)) {
    const files = [0, 1].map((rank) => join(DIR, 'train_data', `${step}_${rank}.pt`));
    for (const w of e.mismatch.worstTokens) {
      const m = await readSampleMismatch(nodeFileAccess, files, w.sample);
      assert.ok(m, `step ${step}: sample ${w.sample} is in its train_data`);
      assert.equal(m.hasTrainLogProbs, true);
      assert.equal(m.rolloutLogProbs[w.position], w.rolloutLogProb, `step ${step} sample ${w.sample} position ${w.position}: rollout`);
      assert.equal(m.trainLogProbs[w.position], w.trainLogProb, `step ${step} sample ${w.sample} position ${w.position}: trainer`);
      assert.equal(Math.abs(m.delta[w.position]!), w.absDiff);
      assert.equal(m.tokens?.[w.position], w.token);
      // Context parallelism: every position of the response is held by one rank or the other.
      assert.equal(m.rolloutLogProbs.length, m.responseLength);
      assert.ok(
        m.rolloutLogProbs.every((x) => x !== null),
        `step ${step} (cp ${e.cp}): every position placed`,
      );
      for (let k = 0; k < m.responseLength; k++) {
        const d = Math.fround(m.trainLogProbs[k]! - m.rolloutLogProbs[k]!);
        if (m.lossMask[k] === 0) assert.equal(m.delta[k], null, 'a masked position has no Δ');
        else if (!Number.isFinite(d)) assert.ok(m.delta[k] === null && m.nonFinitePositions.includes(k), 'a position not finite is said so');
        else assert.equal(m.delta[k], d);
      }
    }
    // Each worst sample: its loss-mask tokens and max |Δ| are the step's (tokens whose Δ is not finite are not among them).
    for (const s of e.mismatch.worstSamples) {
      const m = (await readSampleMismatch(nodeFileAccess, files, s.sample))!;
      assert.equal(m.lossTokens + m.outsideMask <= m.responseLength, true);
      assert.equal(m.max, s.max, `step ${step} sample ${s.sample}: max |Δ|`);
      assert.equal(m.worstTokens.length > 0, true);
      assert.equal(Math.abs(m.worstTokens[0].delta), s.max);
    }
  }
  assert.equal(await readSampleMismatch(nodeFileAccess, [join(DIR, 'train_data', '3_0.pt')], 999_999), null, 'a sample no file holds');
  assert.ok(MAX_MISMATCH_POSITIONS >= 4096);
});

test("a dump sample's step train_data: D/train_data/<step>_<rank>.pt by rank, for rollout_data and trajectory files", async () => {
  const pt = await trainDataFilesOf(nodeFileAccess, join(DRIFT, 'rollout_data', '6.pt'));
  assert.deepEqual(pt, { step: 6, files: [join(DRIFT, 'train_data', '6_0.pt')], root: DRIFT });
  const dump = join(repoRoot(), 'test/fixtures/pt/dumpdir');
  const sidecar = await trainDataFilesOf(nodeFileAccess, join(dump, 'trajectory', '1.jsonl'));
  assert.deepEqual(sidecar, { step: 1, files: [join(dump, 'train_data', '1_0.pt'), join(dump, 'train_data', '1_1.pt')], root: dump });
  assert.equal(await trainDataFilesOf(nodeFileAccess, join(dump, 'rollout_data', 'eval_2.pt')), null, 'an eval dump has no train_data');
  assert.equal(await trainDataFilesOf(nodeFileAccess, join(DIR, 'metrics.jsonl')), null);
  // train_data without the trainer's log_probs (the dump folder's): the rollout's alone.
  const s = (await readSampleMismatch(nodeFileAccess, sidecar!.files, 0))!;
  assert.equal(s.hasTrainLogProbs, false);
  assert.ok(s.delta.every((d) => d === null));
});

test("the sample view's tokens with their text from the run's tokenizer (Qwen3's), ids alone without one", async () => {
  const qwen = join(repoRoot(), 'test/fixtures/real/tokenizers/qwen3');
  // What Qwen3's vocabulary holds for the worst tokens of expected.json (ByteLevel: Ġ is a space).
  const TEXT: Record<number, string> = {
    30565: ' crops',
    12705: '_FORM',
    46153: ' lied',
    117249: '越来越少',
    7341: ' master',
    131721: 'فرق',
    92555: 'ophilia',
    39910: ' cocktail',
    100213: '圆',
    107261: '吻',
  };
  for (const step of ['3', '4']) {
    const pt = join(DIR, 'rollout_data', `${step}.pt`);
    const display = `rollout_data/${step}.pt`;
    const report = await analyzeFiles([{ path: pt, displayPath: display }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
    const file = { report: report.files[0], path: pt, access: nodeFileAccess };
    const worst = expected.steps[step].mismatch.worstTokens;
    let seen = 0;
    for (let line = 1; ; line++) {
      const view = await readSampleView({ ...file, settings: { ...DEFAULT_SETTINGS, tokenizer: qwen } }, line, display);
      if (view === undefined) break;
      const m = view.trainMismatch;
      if (!m) continue;
      assert.deepEqual(m.tokenizer, { file: join(qwen, 'tokenizer.json'), decoder: 'ByteLevel', from: 'setting', namedBy: null });
      assert.equal(m.tokenizerProblem, null);
      assert.equal(m.tokenTexts?.length, m.tokens?.length);
      assert.ok(
        m.tokenTexts!.every((t) => typeof t === 'string' && t.length > 0),
        'every token of the dump is in the tokenizer',
      );
      for (const w of worst.filter((x) => x.sample === view.index)) {
        assert.equal(m.tokenTexts![w.position], TEXT[w.token], `step ${step} sample ${w.sample} position ${w.position}`);
        const listed: { token: number | null; text: string | null } | undefined = m.worstTokens.find((t) => t.position === w.position);
        if (listed) assert.deepEqual([listed.token, listed.text], [w.token, TEXT[w.token]]);
        // The chart's tooltip at that position.
        assert.equal(tokenLabel(m, w.position), `position ${w.position} · token ${w.token} “${TEXT[w.token]}”`);
        seen++;
      }
      for (const t of m.worstTokens) assert.equal(t.text, m.tokenTexts![t.position]);

      // Without the setting: ids, and no text; a setting naming nothing: said, ids kept.
      const plain = (await readSampleView({ ...file, settings: DEFAULT_SETTINGS }, line, display))!.trainMismatch!;
      assert.deepEqual([plain.tokenTexts, plain.tokenizer, plain.tokenizerProblem], [null, null, null]);
      assert.ok(plain.worstTokens.every((t) => t.text === null));
      assert.equal(tokenLabel(plain, 0), `position 0 · token ${plain.tokens![0]}`);
      assert.match(
        tokenTextNote(plain),
        /^Tokens by id: miles' sample holds no text per token, and the dump folder holds no tokenizer \(miles saves one in tokenizer\/ when it loads its global dataset\); set rolloutLens\.tokenizer /,
      );
      assert.equal(
        tokenTextNote(m),
        `Token text from ${join(qwen, 'tokenizer.json')} (the tokenizer setting) (decoder ByteLevel); bytes that are not a whole UTF-8 character read \\xNN, control and direction characters as escapes.`,
      );
      const missing = (await readSampleView({ ...file, settings: { ...DEFAULT_SETTINGS, tokenizer: 'no-such-checkpoint' } }, line, display))!.trainMismatch!;
      assert.match(missing.tokenizerProblem ?? '', /no-such-checkpoint: cannot read the tokenizer \(ENOENT\)$/);
      assert.deepEqual(missing.tokens, plain.tokens);
      assert.equal(missing.tokenTexts, null);
      assert.match(tokenTextNote(missing), /^Tokens by id: .*no-such-checkpoint: cannot read the tokenizer \(ENOENT\); set rolloutLens\.tokenizer /);
    }
    assert.equal(seen, worst.length, `step ${step}: every worst token's sample has a view`);
  }
});

test("the sample view finds the run's tokenizer in its dump folder, or through the dashboard's hf_checkpoint where it may", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-sample-tokenizer-'));
  try {
    const run = join(dir, 'run');
    cpSync(DIR, run, { recursive: true });
    const pt = join(run, 'rollout_data', '3.pt');
    const display = 'rollout_data/3.pt';
    const report = await analyzeFiles([{ path: pt, displayPath: display }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
    const file = { report: report.files[0], path: pt, access: nodeFileAccess, settings: DEFAULT_SETTINGS };
    const line = report.files[0].detail!.samples.find((x) => x.index === 302)!.line;
    const qwen = await loadTokenTexts(nodeFileAccess, join(repoRoot(), 'test/fixtures/real/tokenizers/qwen3'));
    // The dashboard's meta.json (miles' own, scripts/gen-dashboard-meta.py) pointed at a checkpoint outside the run.
    const checkpoint = join(dir, 'Qwen3-0.6B');
    mkdirSync(checkpoint);
    cpSync(join(repoRoot(), 'test/fixtures/real/tokenizers/qwen3/tokenizer.json'), join(checkpoint, 'tokenizer.json'));
    const meta = JSON.parse(readFileSync(join(repoRoot(), 'test/fixtures/real/miles/dashboard-meta/dump/dashboard/meta.json'), 'utf8')) as {
      args: Record<string, unknown>;
    };
    meta.args.hf_checkpoint = checkpoint;
    mkdirSync(join(run, 'dashboard'));
    writeFileSync(join(run, 'dashboard', 'meta.json'), JSON.stringify(meta));
    const viaMeta = (await readSampleView(file, line, display))!.trainMismatch!;
    assert.deepEqual(viaMeta.tokenizer, {
      file: join(checkpoint, 'tokenizer.json'),
      decoder: 'ByteLevel',
      from: 'hf_checkpoint',
      namedBy: 'dashboard/meta.json',
    });
    assert.deepEqual(
      viaMeta.tokenTexts,
      viaMeta.tokens!.map((id) => qwen.text(id!)),
    );
    assert.match(
      tokenTextNote(viaMeta),
      /^Token text from .*Qwen3-0\.6B\/tokenizer\.json, in the hf_checkpoint dashboard\/meta\.json names \(decoder ByteLevel\)/,
    );
    // Where the host refuses a path a log names (an untrusted workspace), the ids stay and the view says why.
    const refused = (await readSampleView({ ...file, mayFollow: async () => 'outside the workspace' }, line, display))!.trainMismatch!;
    assert.deepEqual([refused.tokenTexts, refused.tokenizer], [null, null]);
    assert.equal(refused.tokenizerProblem, `${join(run, 'dashboard', 'meta.json')} names hf_checkpoint ${checkpoint}: outside the workspace`);
    // miles' own copy in the dump folder: read as part of the run, whatever the host's rule.
    mkdirSync(join(run, 'tokenizer'));
    cpSync(join(checkpoint, 'tokenizer.json'), join(run, 'tokenizer', 'tokenizer.json'));
    const saved = (await readSampleView({ ...file, mayFollow: async () => 'outside the workspace' }, line, display))!.trainMismatch!;
    assert.deepEqual(saved.tokenizer, { file: 'tokenizer/tokenizer.json', decoder: 'ByteLevel', from: 'dump', namedBy: null });
    assert.deepEqual(saved.tokenTexts, viaMeta.tokenTexts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
