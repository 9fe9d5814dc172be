// The sample view page (dist/sampleView.js) in headless Chromium, as the webview shows it: a real
// model of a `.pt` sample of test/fixtures/pt/dumpdir's trajectory sidecar's step, and an aborted
// sample with no output, no conversation and no token facts. Every heading has something under it;
// the missing response reads "(no output: aborted)"; a member the sidecar lacks is a missing row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import { runViewHtml } from '../../shared/runViewPage';
import { SAMPLE_VIEW_STYLES } from '../../shared/runViewStyles';
import type { SampleView } from '../../shared/sampleViewModel';
import { analyzeFiles } from '../../server/src/core/engine';
import { readSampleView } from '../../server/src/core/views/sampleView';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { repoRoot } from '../shared/repoRoot';

const root = repoRoot();
const script = join(root, 'dist', 'sampleView.js');
const CHROMIUM = process.env.CODE_HOST_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const DUMP = join(root, 'test/fixtures/pt/dumpdir');

async function viewOf(path: string, line: number, display: string): Promise<SampleView> {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
  const view = await readSampleView({ report: report.files[0], path, access: nodeFileAccess, settings: DEFAULT_SETTINGS }, line, display);
  assert.ok(view, `a sample on line ${line}`);
  return view;
}

/** The page's headings with the text under each, and the whole text. */
async function render(browser: Browser, model: SampleView): Promise<{ sections: { title: string; body: string }[]; text: string; errors: string[] }> {
  const html = runViewHtml({
    model,
    dataId: 'sample-view-model',
    title: `Sample ${model.title}`,
    nonce: 'c2FtcGxlLXZpZXctdGVzdA==',
    script: { inline: readFileSync(script, 'utf8') },
    styles: SAMPLE_VIEW_STYLES,
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.setContent(html, { waitUntil: 'load' });
  await page.waitForFunction('document.body.dataset.rendered !== undefined', undefined, { timeout: 30_000 });
  const sections = await page.evaluate<{ title: string; body: string }[]>(`[...document.querySelectorAll('section')].map((s) => ({
    title: s.querySelector('h2').textContent,
    body: [...s.children].slice(1).map((c) => c.textContent).join(' ').trim(),
  }))`);
  // The page's own text (not its scripts).
  const text = await page.evaluate<string>(`document.querySelector('header').textContent + '\\n' + document.getElementById('app').textContent`);
  await page.close();
  return { sections, text, errors };
}

test(
  'sample page: no empty heading; an aborted sample without output; a member the sidecar lacks',
  { timeout: 180_000, skip: !existsSync(script) && 'dist/sampleView.js not built' },
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true, timeout: 60_000 });
    try {
      // Row 5 of the sidecar: index 4, of group 1, whose index 5 has no row (aborted before any model call).
      const sidecar = await viewOf(join(DUMP, 'trajectory/1.jsonl'), 5, 'trajectory/1.jsonl');
      const a = await render(browser, sidecar);
      assert.deepEqual(a.errors, []);
      for (const s of a.sections) assert.ok(s.body.length > 0, `"${s.title}" has something under it`);
      assert.ok(a.text.includes('missing here (rollout_data/1.pt · sample 6)'), a.text.slice(0, 2000));
      assert.ok(a.text.startsWith('Sample trajectory/1.jsonl:5'), a.text.slice(0, 200));

      // A .pt sample stripped of its response, tokens and conversation, as an aborted sample can be.
      const pt = await viewOf(join(DUMP, 'rollout_data/1.pt'), 6, 'rollout_data/1.pt');
      const bare: SampleView = {
        ...pt,
        response: null,
        responseNote: '(no output: aborted)',
        conversation: [],
        conversationMissing: null,
        weightVersions: null,
        metadata: null,
        tokens: { responseLength: null, tokens: null, lossMask: null, logProbs: null },
      };
      const b = await render(browser, bare);
      assert.deepEqual(b.errors, []);
      const titles = b.sections.map((s) => s.title);
      for (const s of b.sections) assert.ok(s.body.length > 0, `"${s.title}" has something under it`);
      assert.ok(!titles.includes('Tokens') && !titles.includes('Conversation'), titles.join(', '));
      assert.equal(b.sections.find((s) => s.title === 'Response')?.body, '(no output: aborted)');
    } finally {
      await browser.close();
    }
  },
);
