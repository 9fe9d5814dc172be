// The run view's comparison ("Compare with Run…") drawn by the real page script (dist/runView.js)
// in headless Chromium, as in the VS Code webview (a stand-in `acquireVsCodeApi` records what the
// page posts), with every network request blocked: a diff of the example run against a copy with an
// injected abort and a regressed eval dataset, whose reasons, prompt ids, dataset names, paths and
// messages hold markup. The header says the gate fails, both runs' charts are drawn, the markup
// shows as text and injects no element, and a flipped prompt's links post their places' numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { comparisonOf } from '../../shared/compareView';
import { formatForPeople } from '../../shared/numberFormat';
import type { RunDiff } from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import { runViewHtml } from '../../shared/runViewPage';
import { RUN_VIEW_STYLES } from '../../shared/runViewStyles';
import { copyMilesRun, injectSandboxAbort, regressAime } from '../shared/compareRun';
import { repoRoot } from '../shared/repoRoot';
import { spawnSync } from 'node:child_process';

const root = repoRoot();
const script = join(root, 'dist', 'runView.js');
const CHROMIUM = process.env.CODE_HOST_CHROMIUM || '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const HOSTILE = '<img src=x onerror="window.__pwned=1"><b id=injected>x</b></script>\u202Egnp.exe';

/** As the page signs a delta. */
function signed(x: number | null): string {
  return x === null ? '–' : x === 0 ? '0' : x > 0 ? `+${formatForPeople(x)}` : `−${formatForPeople(-x)}`;
}

function emptyRunView(): RunView {
  return {
    version: 3,
    reasons: [],
    steps: [],
    eval: [],
    samples: {},
    samplesOmitted: {},
    findings: {},
    findingRows: [],
    findingRowsOmitted: 0,
    runs: [],
    headline: null,
    logged: [],
    totals: { files: 0, samples: 0, groups: 0, kept: 0, dropped: 0, droppedTokens: 0, totalTokens: 0 },
  };
}

test(
  'comparison in the page: deltas in the header, both runs charted, markup as text, links post their places',
  { timeout: 300_000, skip: !existsSync(script) && 'dist/runView.js not built' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-compare-page-'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true, timeout: 60_000 });
    try {
      const base = copyMilesRun(join(dir, 'base'));
      const cand = copyMilesRun(join(dir, 'cand'));
      injectSandboxAbort(cand);
      regressAime(cand);
      const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'diff', '--format', 'json', base, cand], { encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, r.stderr);
      const diff = JSON.parse(r.stdout) as RunDiff;
      // Log text everywhere the page shows it.
      const rollout = diff.prompts.listed.find((f) => f.kind === 'rollout')!;
      rollout.id = HOSTILE;
      rollout.candidate.file = join(cand, `${HOSTILE}.jsonl`);
      diff.causes[0].reason = HOSTILE;
      diff.gate.failures[0].message = HOSTILE;
      diff.datasets[0].name = HOSTILE;
      const comparison = comparisonOf(diff, { baseline: HOSTILE, candidate: 'cand' });
      const html = runViewHtml({
        model: { ...emptyRunView(), comparison },
        title: 'Run view',
        nonce: 'abcdefghijklmnopqrstuvwx',
        script: { inline: readFileSync(script, 'utf8') },
        styles: RUN_VIEW_STYLES,
      });
      const file = join(dir, 'page.html');
      writeFileSync(file, html);

      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      const url = pathToFileURL(file).href;
      const errors: string[] = [];
      const blocked: string[] = [];
      await context.route('**/*', (route) => {
        if (route.request().url() === url) return route.continue();
        blocked.push(route.request().url());
        return route.abort();
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`console ${msg.type()}: ${msg.text()}`);
      });
      // The webview's API, as VS Code gives it: the page's messages are recorded.
      await page.addInitScript('window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });');
      await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
      await page.waitForFunction('document.body.dataset.rendered !== undefined', undefined, { timeout: 30_000 });
      assert.deepEqual(errors, []);
      assert.deepEqual(blocked, []);

      const seen = await page.evaluate<{ pwned: unknown; injected: number; canvases: string[]; painted: number; headline: string; deltas: string }>(`(() => ({
      pwned: window.__pwned,
      injected: document.querySelectorAll('#injected, img, iframe').length,
      canvases: [...document.querySelectorAll('canvas')].map((c) => c.id),
      painted: [...document.querySelectorAll('canvas')].filter((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true;
        return false;
      }).length,
      headline: document.getElementById('compare-headline').textContent,
      deltas: document.getElementById('compare-deltas').textContent,
    }))()`);
      assert.equal(seen.pwned, undefined);
      assert.equal(seen.injected, 0);
      assert.deepEqual(seen.canvases, ['chart-compare-drops', 'chart-compare-causes', 'chart-compare-reward', 'chart-compare-eval']);
      assert.equal(seen.painted, seen.canvases.length);
      assert.equal(
        seen.headline,
        `Compared with the baseline ${HOSTILE} (this run is the candidate): the gate fails (${diff.gate.failures.length} rules)Clear comparison`,
      );
      // Only what changed: the cause the abort raised (the others, the hostile one too, are unchanged), the regressed dataset.
      const raised = diff.causes.find((x) => x.reason === 'group_has_aborted_SandboxUnavailable')!;
      assert.ok(seen.deltas.startsWith(`${raised.reason} ${signed(raised.ratePoints.delta)} points; `), seen.deltas);
      assert.ok(seen.deltas.includes(`${HOSTILE} score −0.3333 [−0.5, −0.25]; ${HOSTILE} pass@1 −0.3333 [−0.5, −0.25]; `), seen.deltas);
      assert.match(seen.deltas, new RegExp(`${diff.prompts.listed.length + diff.prompts.omitted} flipped prompts of ${diff.prompts.paired} paired$`));

      // The flipped prompts: one row each, log text as text, both samples linked by place number.
      const rows = await page.evaluate<{ cells: string[]; links: string[] }[]>(
        `[...document.querySelectorAll('#compare-prompts tr.flip')].map((tr) => ({ cells: [...tr.querySelectorAll('td')].map((td) => td.textContent), links: [...tr.querySelectorAll('a.reveal')].map((a) => a.dataset.place) }))`,
      );
      assert.equal(rows.length, comparison.prompts.listed.length);
      const at = comparison.prompts.listed.findIndex((f) => f.id === HOSTILE);
      assert.equal(rows[at].cells[2], HOSTILE);
      assert.equal(rows[at].cells[6], `${HOSTILE}.jsonl:${comparison.prompts.listed[at].candidate.label.split(':').pop()}`);
      const flip = comparison.prompts.listed[at];
      assert.deepEqual(rows[at].links, [String(flip.baseline.place), String(flip.candidate.place)]);
      await page.click(`#compare-prompts tr.flip:nth-of-type(${at + 2}) a.reveal >> nth=1`);
      await page.click(`#compare-prompts tr.flip:nth-of-type(${at + 2}) a.reveal >> nth=0`);
      await page.click('#clear-comparison');
      await page.click('#compare-with-run');
      const posted = await page.evaluate<unknown[]>('window.__posted');
      assert.deepEqual(posted.slice(-4), [
        { type: 'place', place: flip.candidate.place },
        { type: 'place', place: flip.baseline.place },
        { type: 'clearComparison' },
        { type: 'compare' },
      ]);
      // The gate's failure, the causes and the datasets show their log text as text too.
      const tables = await page.evaluate<string>(
        `['#compare-gate', '#compare-causes', '#compare-datasets'].map((id) => document.querySelector(id).textContent).join('\\n')`,
      );
      assert.equal(tables.split(HOSTILE).length - 1, 3, tables);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
