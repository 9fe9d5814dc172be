// The views of the train–inference mismatch in headless Chromium (Debian's, driven by playwright-core):
// `rollout-lens report` of a run miles' own writers made (test/fixtures/real/miles/drift) draws the
// mismatch chart (mean and p99 per step, the drift step marked) with the logprob-drift finding's
// message as text and a row per step; the sample view of a sample whose train_data has masked
// positions (test/fixtures/real/miles/mismatch) draws rollout vs trainer log-probs, lists every
// position with Δ, "masked" where the loss mask is 0, and the worst tokens by id, with their text
// from the run's tokenizer (a subset of Qwen3's real tokenizer.json). Hostile text in a drift
// message, a file name or a token's text stays text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import { runViewHtml } from '../../shared/runViewPage';
import { RUN_VIEW_STYLES, SAMPLE_VIEW_STYLES } from '../../shared/runViewStyles';
import type { SampleView } from '../../shared/sampleViewModel';
import { analyzeFiles } from '../../server/src/core/engine';
import { readSampleMismatch, withTokenTexts } from '../../server/src/core/train/sampleMismatch';
import { loadTokenTexts } from '../../server/src/core/tokenizer/tokenText';
import { readSampleView } from '../../server/src/core/views/sampleView';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { repoRoot } from '../shared/repoRoot';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const runScript = join(root, 'dist', 'runView.js');
const sampleScript = join(root, 'dist', 'sampleView.js');
const CHROMIUM = process.env.CODE_HOST_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const DRIFT = join(root, 'test/fixtures/real/miles/drift');
const MISMATCH = join(root, 'test/fixtures/real/miles/mismatch');
const HOSTILE = '<img src=x onerror="window.__pwned=1"><b id=injected>x</b>\u202E';

async function show(browser: Browser, html: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.setContent(html, { waitUntil: 'load' });
  await page.waitForFunction('document.body.dataset.rendered !== undefined', undefined, { timeout: 30_000 });
  return { page, errors };
}

/** Whether a canvas has any painted pixel. */
function painted(page: Page, id: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const c = document.getElementById(${JSON.stringify(id)});
    if (!c || c.width === 0 || c.height === 0) return false;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  })()`);
}

const rows = (page: Page, selector: string) =>
  page.evaluate<{ cls: string; cells: string[] }[]>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((tr) => ({ cls: tr.className, cells: [...tr.cells].map((c) => c.textContent) }))`,
  );

const injected = (page: Page) =>
  page.evaluate<{ pwned: unknown; elements: number }>(
    `({ pwned: window.__pwned ?? null, elements: document.querySelectorAll('img, b, iframe, #injected').length })`,
  );

test(
  'mismatch views in headless Chromium: the run chart with its drift step, the sample log-probs with masked positions',
  { timeout: 300_000, skip: (!existsSync(cli) || !existsSync(sampleScript)) && 'dist not built' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-mismatch-views-'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true, timeout: 60_000 });
    try {
      // The run: report's page, as a CI artifact shows it. The run's dump folder holds the tokenizer
      // as miles saves it there (D/tokenizer/, core/tokenizer/runTokenizer.ts): a subset of Qwen3's.
      const run0 = join(dir, 'drift');
      cpSync(DRIFT, run0, { recursive: true });
      mkdirSync(join(run0, 'tokenizer'));
      cpSync(join(root, 'test/fixtures/real/tokenizers/qwen3/tokenizer.json'), join(run0, 'tokenizer', 'tokenizer.json'));
      const check = spawnSync(process.execPath, [cli, 'check', '--format', 'json', run0], { encoding: 'utf8', timeout: 120_000 });
      type Worst = { sample: number; line: number; position: number; token: number; text: string; absDiff: number; mean: number };
      const checked = JSON.parse(check.stdout) as {
        findings: { code: string; message: string }[];
        runs: { steps: { step: number; trainData?: { mismatch: { worstTokens: Worst[]; worstSamples: Worst[] } } }[] }[];
      };
      const drift = checked.findings.find((f) => f.code === 'logprob-drift');
      assert.ok(drift, check.stderr);
      const out = join(dir, 'drift.html');
      const r = spawnSync(process.execPath, [cli, 'report', '--out', out, run0], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, r.stderr);
      const html = readFileSync(out, 'utf8');
      const run = await show(browser, html);
      assert.deepEqual(run.errors, []);
      assert.ok(await painted(run.page, 'chart-mismatch'), 'the mismatch chart is drawn');
      const said = await run.page.evaluate<string>(`document.getElementById('mismatch-drift').textContent`);
      assert.equal(said, `Drift from step 6: ${drift.message}`);
      const steps = await rows(run.page, '#mismatch-steps tr');
      assert.deepEqual(steps[0].cells, ['step', 'tokens', 'mean |Δ|', 'p50', 'p99', 'max', 'worst sample']);
      assert.deepEqual(
        steps.slice(1).map((s) => s.cells[0]),
        ['0', '1', '2', '3', '4', '5', '6', '7', '8'],
      );
      assert.deepEqual(
        steps.slice(1).map((s) => s.cls),
        ['', '', '', '', '', '', 'wrong', '', ''],
        'the drift step’s row is marked',
      );
      // The drift step's worst tokens and samples, check's, with their text and their place (file:line).
      const at6 = checked.runs[0].steps.find((x) => x.step === 6)!.trainData!.mismatch;
      const worstTokens = await rows(run.page, '#mismatch-worst-tokens tr');
      assert.deepEqual(worstTokens[0].cells, ['sample', 'position', 'token id', 'text', 'rollout', 'trainer', '|Δ|']);
      assert.deepEqual(
        worstTokens.slice(1).map((x) => x.cells.slice(0, 4)),
        at6.worstTokens.map((w) => [`sample ${w.sample} (rollout_data/6.pt:${w.line})`, String(w.position), String(w.token), w.text]),
      );
      assert.ok(
        at6.worstTokens.every((w) => typeof w.text === 'string' && w.text !== ''),
        'check found the tokenizer miles saved in the dump folder',
      );
      assert.deepEqual(
        (await rows(run.page, '#mismatch-worst-samples tr')).slice(1).map((x) => x.cells[0]),
        at6.worstSamples.map((w) => `sample ${w.sample} (rollout_data/6.pt:${w.line})`),
      );
      assert.equal(
        await run.page.evaluate<string>(`document.getElementById('mismatch-token-text').textContent`),
        'Token text from tokenizer/tokenizer.json, the tokenizer miles saved in the dump folder (decoder ByteLevel); bytes that are not a whole UTF-8 character read \\xNN, control and direction characters as escapes.',
      );
      // Another step chosen: its own worst tokens.
      await run.page.selectOption('#mismatch-step-pick', '2');
      const at2 = checked.runs[0].steps.find((x) => x.step === 2)!.trainData!.mismatch;
      assert.deepEqual(
        (await rows(run.page, '#mismatch-worst-tokens tr')).slice(1).map((x) => x.cells[3]),
        at2.worstTokens.map((w) => w.text),
      );
      await run.page.close();

      // Hostile text in the model: the drift message and a worst sample's file are log-derived.
      const model = JSON.parse(/<script type="application\/json" id="run-view-model">([^<]*)<\/script>/.exec(html)![1]) as RunView;
      const m = model.runs[0].mismatch!;
      m.drift = { step: 6, message: HOSTILE };
      m.steps[6].worstSamples = m.steps[6].worstSamples.map((w) => ({ ...w, file: HOSTILE }));
      m.steps[6].worstTokens = m.steps[6].worstTokens.map((w) => ({ ...w, file: HOSTILE, text: HOSTILE }));
      m.tokenizer = { file: HOSTILE, decoder: HOSTILE, from: 'hf_checkpoint', namedBy: HOSTILE };
      const hostile = await show(
        browser,
        runViewHtml({
          model,
          title: 'hostile',
          nonce: 'bWlzbWF0Y2gtdmlld3MtdGVzdA==',
          script: { inline: readFileSync(runScript, 'utf8') },
          styles: RUN_VIEW_STYLES,
        }),
      );
      await hostile.page.evaluate(`document.querySelectorAll('details').forEach((d) => (d.open = true))`);
      assert.deepEqual(hostile.errors, []);
      assert.deepEqual(await injected(hostile.page), { pwned: null, elements: 0 });
      assert.equal(await hostile.page.evaluate<string>(`document.getElementById('mismatch-drift').textContent`), `Drift from step 6: ${HOSTILE}`);
      const evilRun = await rows(hostile.page, '#mismatch-worst-tokens tr');
      assert.ok(evilRun.length > 1 && evilRun.slice(1).every((x) => x.cells[3] === HOSTILE && x.cells[0].includes(HOSTILE)), 'token texts and places are text');
      assert.ok((await hostile.page.evaluate<string>(`document.getElementById('mismatch-token-text').textContent`)).includes(HOSTILE));
      await hostile.page.close();

      // A hostile tokenizer in the run's own dump folder, end to end through `rollout-lens report`:
      // each worst token's vocabulary entry is markup and a direction mark, shown as escaped text.
      const evilDump = join(dir, 'evil-run');
      cpSync(DRIFT, evilDump, { recursive: true });
      mkdirSync(join(evilDump, 'tokenizer'));
      const worstIds = [...new Set(checked.runs[0].steps.flatMap((x) => x.trainData?.mismatch.worstTokens.map((w) => w.token) ?? []))];
      const vocab = Object.fromEntries(worstIds.map((id, i) => [`${HOSTILE}${i}`, id]));
      writeFileSync(join(evilDump, 'tokenizer', 'tokenizer.json'), JSON.stringify({ model: { type: 'BPE', vocab }, decoder: null, added_tokens: [] }));
      const evilOut = join(dir, 'evil.html');
      const er = spawnSync(process.execPath, [cli, 'report', '--out', evilOut, evilDump], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      assert.equal(er.status, 0, er.stderr);
      const evilReport = await show(browser, readFileSync(evilOut, 'utf8'));
      assert.deepEqual(evilReport.errors, []);
      assert.deepEqual(await injected(evilReport.page), { pwned: null, elements: 0 });
      const shown = (await rows(evilReport.page, '#mismatch-worst-tokens tr')).slice(1).map((x) => x.cells[3]);
      assert.deepEqual(
        shown,
        at6.worstTokens.map((w) => `${HOSTILE.replace('\u202E', '\\u{202E}')}${worstIds.indexOf(w.token)}`),
        'the vocabulary entry as text, its direction mark escaped',
      );
      await evilReport.page.close();

      // The sample: a miles dump sample's view with its step's train_data, sample 302 of step 3 (two
      // data-parallel ranks; positions 2 and 3 outside the loss mask, its first token 25 nats off).
      const pt = join(DRIFT, 'rollout_data/6.pt');
      const report = await analyzeFiles([{ path: pt, displayPath: pt }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
      const base = (await readSampleView({ report: report.files[0], path: pt, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, 4, 'rollout_data/6.pt'))!;
      assert.ok(base.trainMismatch, 'a dump sample of a step with train_data');
      const files = [0, 1].map((rank) => join(MISMATCH, 'train_data', `3_${rank}.pt`));
      const ids = (await readSampleMismatch(nodeFileAccess, files, 302, (p) => p.slice(MISMATCH.length + 1)))!;
      const qwen = await loadTokenTexts(nodeFileAccess, join(root, 'test/fixtures/real/tokenizers/qwen3'));
      const t = withTokenTexts(ids, qwen, { file: 'tokenizers/qwen3/tokenizer.json', decoder: qwen.decoder, from: 'setting', namedBy: null });
      const view: SampleView = { ...base, trainMismatch: t };
      const page = await show(
        browser,
        runViewHtml({
          model: view,
          dataId: 'sample-view-model',
          title: 'sample',
          nonce: 'c2FtcGxlLW1pc21hdGNoLXRlc3Q=',
          script: { inline: readFileSync(sampleScript, 'utf8') },
          styles: SAMPLE_VIEW_STYLES,
        }),
      );
      assert.deepEqual(page.errors, []);
      assert.ok(await painted(page.page, 'chart-sample-mismatch'), 'the log-prob chart is drawn');
      const positions = await rows(page.page, '#mismatch-positions tr');
      assert.deepEqual(positions[0].cells, ['position', 'token id', 'text', 'loss mask', 'rollout', 'trainer', 'Δ']);
      assert.equal(positions.length - 1, t.responseLength);
      for (const [k, row] of positions.slice(1).entries()) {
        if (t.lossMask[k] === 0) assert.deepEqual([row.cls, row.cells[3], row.cells[6]], ['masked', '0', 'masked'], `position ${k} is masked`);
        else assert.notEqual(row.cells[6], 'masked');
        assert.equal(row.cells[1], String(t.tokens![k]));
        assert.equal(row.cells[2], qwen.text(t.tokens![k]!));
      }
      assert.deepEqual(
        positions.slice(1).flatMap((r, k) => (r.cls === 'masked' ? [k] : [])),
        [2, 3],
      );
      const worst = await rows(page.page, '#mismatch-worst tr');
      assert.deepEqual(worst[0].cells, ['position', 'token id', 'text', 'rollout', 'trainer', 'Δ']);
      // Qwen3's id 30565 is `Ġcrops`: " crops", its leading space kept.
      assert.deepEqual(worst[1].cells.slice(0, 3), ['0', '30565', ' crops']);
      assert.equal(worst[1].cells[5], '25', 'the 25-nat token first');
      assert.match(
        await page.page.evaluate<string>(`document.getElementById('mismatch-token-text').textContent`),
        /^Token text from tokenizers\/qwen3\/tokenizer\.json \(the tokenizer setting\) \(decoder ByteLevel\)/,
      );
      // The chart's tooltip names the token under the pointer (drawn on the canvas, as text).
      const box = (await page.page.locator('#chart-sample-mismatch').boundingBox())!;
      await page.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.page.waitForTimeout(100);
      assert.deepEqual(page.errors, []);
      const summary = await page.page.evaluate<string>(`document.querySelector('.mismatch-summary').textContent`);
      assert.match(summary, /^6 tokens in the loss mask, 2 masked; mean \|Δ\| 4\.236, max \|Δ\| 25$/);
      await page.page.close();

      // Hostile file names (a train_data path is the run's) and token texts (a tokenizer file is the run's) stay text.
      const evilTokens = {
        ...t,
        files: [HOSTILE],
        tokenTexts: t.tokenTexts!.map(() => HOSTILE),
        worstTokens: t.worstTokens.map((w) => ({ ...w, text: HOSTILE })),
      };
      const evil = await show(
        browser,
        runViewHtml({
          model: { ...view, trainMismatch: evilTokens },
          dataId: 'sample-view-model',
          title: 'sample',
          nonce: 'c2FtcGxlLW1pc21hdGNoLXRlc3Q=',
          script: { inline: readFileSync(sampleScript, 'utf8') },
          styles: SAMPLE_VIEW_STYLES,
        }),
      );
      assert.deepEqual(evil.errors, []);
      assert.deepEqual(await injected(evil.page), { pwned: null, elements: 0 });
      assert.ok((await evil.page.evaluate<string>(`document.getElementById('train-mismatch').textContent`)).includes(HOSTILE));
      await evil.page.evaluate(`document.querySelectorAll('details').forEach((d) => (d.open = true))`);
      const evilWorst = await rows(evil.page, '#mismatch-worst tr');
      assert.ok(
        evilWorst.slice(1).every((r) => r.cells[2] === HOSTILE),
        'a token text is the text of its cell',
      );
      assert.ok((await rows(evil.page, '#mismatch-positions tr')).slice(1).every((r) => r.cells[2] === HOSTILE));
      const evilBox = (await evil.page.locator('#chart-sample-mismatch').boundingBox())!;
      await evil.page.mouse.move(evilBox.x + evilBox.width / 2, evilBox.y + evilBox.height / 2);
      await evil.page.waitForTimeout(100);
      assert.deepEqual(evil.errors, []);
      assert.deepEqual(await injected(evil.page), { pwned: null, elements: 0 });
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
