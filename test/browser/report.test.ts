// `rollout-lens report` opened in headless Chromium (Debian's, driven by playwright-core) with every
// network request blocked: the page runs without script errors or CSP violations, draws its charts,
// and a run whose causes, prompts and responses hold markup, links, `command:` URIs and bidi
// overrides shows them as text and injects no element. Saves docs/report.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from '../shared/repoRoot';
import type { RunView } from '../../shared/runViewModel';
import { runViewHtml } from '../../shared/runViewPage';
import { RUN_VIEW_STYLES } from '../../shared/runViewStyles';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
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

function report(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, 'report', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Opened {
  page: Page;
  errors: string[];
  blocked: string[];
}

/** Opens the file with every request but the file itself aborted; collects errors and console errors. */
async function open(browser: Browser, file: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: true });
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
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  await page.waitForFunction('document.body.dataset.rendered !== undefined', undefined, { timeout: 30_000 });
  return { page, errors, blocked };
}

/** Canvases and how many of them have any painted pixel. */
async function drawnCharts(page: Page): Promise<{ canvases: number; painted: number; rendered: number }> {
  // Page code as text: the test program has no DOM types.
  return page.evaluate(`(() => {
    const canvases = [...document.querySelectorAll('canvas')];
    const painted = canvases.filter((c) => {
      if (c.width === 0 || c.height === 0) return false;
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    }).length;
    return { canvases: canvases.length, painted, rendered: Number(document.body.dataset.rendered) };
  })()`);
}

const HOSTILE = {
  cause: '<script>window.__pwned=1</script>Sandbox',
  prompt: '<img src=x onerror="window.__pwned=2"> solve [this](https://example.invalid/x) please',
  response: '[open](command:rolloutLens.inspect?%5B%22%2F%22%5D) \u202Egnp.exe <iframe src="javascript:1"></iframe>',
  dataset: 'ds</script><b id=injected>x</b>',
  /** A log's file name: it is shown in the findings' file column. */
  file: '<b id=injected>n\u202Eldnuj.jsonl',
};

function hostileRun(dir: string): void {
  const lines: object[] = [];
  for (let g = 0; g < 3; g++) {
    for (let i = 0; i < 4; i++) {
      const abort = g === 0 && i === 1;
      lines.push({
        group_index: g,
        index: g * 4 + i,
        rollout_id: 5,
        prompt: [{ role: 'user', content: HOSTILE.prompt }],
        response: abort ? '' : HOSTILE.response,
        response_length: abort ? 0 : 12,
        reward: abort ? null : g === 1 ? 1.0 : i % 2,
        status: abort ? 'aborted' : 'completed',
        metadata: abort ? { exit_status: HOSTILE.cause } : {},
      });
    }
  }
  mkdirSync(join(dir, 'rollout'), { recursive: true });
  writeFileSync(join(dir, 'rollout', 'rollout_5.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const evalLines = [0, 1, 2, 3].map((i) => ({
    index: i,
    rollout_id: 5,
    prompt: HOSTILE.prompt,
    response: 'a',
    reward: i % 2,
    status: 'completed',
    metadata: { dataset_name: HOSTILE.dataset },
  }));
  mkdirSync(join(dir, 'eval'), { recursive: true });
  writeFileSync(join(dir, 'eval', 'eval_5.jsonl'), evalLines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  // Findings whose file and message carry markup: an unreadable line and a line of another format.
  writeFileSync(join(dir, 'rollout', HOSTILE.file), '{"a": 1}\n<img src=x onerror="window.__pwned=3">\n');
}

/** One step of 20 groups of 4, one of them zero-std (all rewards 1.0): 5% dropped. */
function smallDropRun(dir: string): void {
  const lines: object[] = [];
  for (let g = 0; g < 20; g++)
    for (let i = 0; i < 4; i++)
      lines.push({ group_index: g, index: g * 4 + i, rollout_id: 1, prompt: `p${g}`, response: 'r', reward: g === 0 ? 1.0 : i % 2, status: 'completed' });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'rollout_1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

test('report in headless Chromium: example run and a hostile run', { timeout: 300_000, skip: !existsSync(cli) && 'dist/cli.js not built' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-report-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true, timeout: 60_000 });
  try {
    // The example run: every chart drawn, no errors, nothing fetched.
    const out = join(dir, 'example.html');
    const r = report(['--config', 'examples/run/rollout-lens.yaml', '--exit-zero', '--out', out, 'examples/run']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^wrote .*example\.html: 4 steps, 28 groups \(14 dropped\), 4 eval rows/);
    const html = readFileSync(out, 'utf8');
    assert.doesNotMatch(html, /\bsrc=|https?:\/\/(?!www\.w3\.org)/i, 'no external reference');
    assert.ok(!html.includes(root), 'no absolute path: the file is shared');
    const ex = await open(browser, out);
    const charts = await drawnCharts(ex.page);
    assert.deepEqual(ex.errors, []);
    assert.deepEqual(ex.blocked, []);
    // miles: drop shares, kept and dropped, zero-std, reward, length, tokens, eval, logged beside
    // recomputed; verl on its own axes: critic/score/mean, val-core.
    assert.deepEqual(await ex.page.evaluate<string[]>(`[...document.querySelectorAll('canvas')].map((c) => c.id)`), [
      'chart-drops',
      'chart-groups',
      'chart-zero-std',
      'chart-reward',
      'chart-length',
      'chart-tokens',
      'chart-eval',
      'chart-logged',
      'chart-verl-score-1',
      'chart-eval-1',
    ]);
    assert.equal(charts.painted, charts.canvases);
    assert.equal(charts.rendered, charts.canvases);
    const text = await ex.page.evaluate<string>('document.body.textContent');
    for (const want of [
      'group_has_aborted_SandboxUnavailable',
      'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable',
      'grouped by global n = 2',
      'aime',
      'miles run',
      'verl run',
      'val-core/gsm8k/acc/mean@4',
    ]) {
      assert.ok(text.includes(want), want);
    }
    // The header names the worst step and why, as the engine says it; the time of the data follows.
    const header = await ex.page.evaluate<string[]>(`[...document.querySelectorAll('header p')].map((p) => p.textContent)`);
    assert.equal(header[0], 'Worst step: miles run, step 1: 6 of 8 groups dropped: 2 infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std');
    assert.match(header[2], /^Data read at \S/);
    assert.equal(await ex.page.evaluate<number>(`document.querySelectorAll('#refresh').length`), 0, 'no refresh button outside VS Code');
    // The report lists its findings in its own section (below): the page's rows are not drawn.
    assert.equal(await ex.page.evaluate<number>(`document.querySelectorAll('tr.finding').length`), 0);
    // Logged beside recomputed: a differing pair is marked.
    const logged = await ex.page.evaluate<string[][]>(
      `[...document.querySelectorAll('tr.wrong')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))`,
    );
    assert.ok(
      logged.some((r) => r[0] === 'eval/gpqa' && r[2] === '0.6364' && r[3] === '0.5833'),
      JSON.stringify(logged),
    );
    // Numbers for people: 4 significant digits in the table, the exact value (Python's repr) on hover.
    const cells = await ex.page.evaluate<[string, string][]>(`[...document.querySelectorAll('td.num[title]')].map((td) => [td.textContent, td.title])`);
    assert.ok(
      cells.some(([shown, exact]) => shown === '0.6111' && exact === '0.611111111111111'),
      JSON.stringify(cells),
    );
    // The findings: each code once with its severity and count, the errors open with their messages.
    const findings = await ex.page.evaluate<{ codes: string[]; open: string[]; rows: string[][] }>(`({
      codes: [...document.querySelectorAll('#findings details')].map((d) => d.dataset.code),
      open: [...document.querySelectorAll('#findings details[open]')].map((d) => d.querySelector('summary').textContent),
      rows: [...document.querySelectorAll('#findings details[open] tr')].slice(1, 2).map((tr) => [...tr.cells].map((c) => c.textContent)),
    })`);
    assert.deepEqual(findings.open, ['error eval-all-aborted: 1', 'error misgrouped-dataset: 1']);
    assert.ok(findings.codes.includes('metric-mismatch') && findings.codes.includes('group-dropped'), findings.codes.join(' '));
    assert.equal(findings.rows[0][0], 'eval/eval_100.jsonl');
    assert.match(findings.rows[0][2], /^every attempt of dataset swe_verified aborted \(4 of 4\)/);
    // The docs' picture leaves out the time the data was read, so that it changes only with the page.
    await ex.page.evaluate(`document.querySelector('.data-time').style.visibility = 'hidden'`);
    await ex.page.screenshot({ path: join(root, 'docs', 'report.png'), fullPage: false });
    await ex.page.evaluate(`document.querySelector('.data-time').style.visibility = ''`);
    // A click on a bar opens that cause's sample list. The chart is responsive: under load a late
    // resize can redraw it after the first paint, so its size must hold for a few frames first.
    await ex.page.evaluate(`new Promise((resolve) => {
      const c = document.getElementById('chart-drops');
      let last = '';
      let same = 0;
      const tick = () => {
        const now = [c.width, c.height, c.clientWidth, c.clientHeight].join('x');
        if (now === last) same++;
        else (last = now), (same = 0);
        if (same >= 5) resolve(null);
        else requestAnimationFrame(tick);
      };
      tick();
    })`);
    const box = (await ex.page.locator('#chart-drops').boundingBox())!;
    assert.equal(await ex.page.evaluate<boolean>('window.Chart === undefined'), true, 'the script keeps Chart.js out of the global scope');
    // The bar: the topmost pixel painted (the legend's swatch is below the plot) in the first infrastructure colour (#d1242f), step 1's first cause.
    const at = await ex.page.evaluate<{ x: number; y: number; scale: number } | null>(`(() => {
      const c = document.getElementById('chart-drops');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
        const i = (y * c.width + x) * 4;
        if (d[i] === 0xd1 && d[i + 1] === 0x24 && d[i + 2] === 0x2f) return { x: x + 3, y: y + 3, scale: c.width / c.clientWidth };
      }
      return null;
    })()`);
    assert.ok(at, 'a bar in the first cause colour');
    await ex.page.mouse.click(box.x + at.x / at.scale, box.y + at.y / at.scale);
    // A bounded wait for the list inside the page (the page's CSP refuses waitForFunction's eval).
    await ex.page.evaluate(`new Promise((resolve, reject) => {
      const t0 = Date.now();
      const poll = () => {
        if (document.querySelectorAll('main details[open]').length > 0) resolve(null);
        else if (Date.now() - t0 > 10000) reject(new Error('no sample list opened within 10 s'));
        else setTimeout(poll, 20);
      };
      poll();
    })`);
    const opened = await ex.page.evaluate<string[]>(`[...document.querySelectorAll('main details[open]')].map((d) => d.querySelector('code').textContent)`);
    // The first infrastructure cause by name (its only group is at step 3).
    assert.deepEqual(opened, ['group_has_aborted_AgentSetupFailed']);
    await ex.page.context().close();

    // The hostile run: text shown as text, no element injected, no script run.
    const run = join(dir, 'hostile');
    hostileRun(run);
    const hout = join(dir, 'hostile.html');
    // Exit 0 once written, though the run has error findings (no --exit-zero).
    const h = report(['--dynamic-filter', 'check_reward_nonzero_std', '--out', hout, run]);
    assert.equal(h.status, 0, h.stderr);
    const hhtml = readFileSync(hout, 'utf8');
    assert.ok(!hhtml.includes(dir) && !hhtml.includes(root), 'no absolute path: the run was given as one');
    const ho = await open(browser, hout);
    await ho.page.evaluate(`document.querySelectorAll('details').forEach((d) => (d.open = true))`);
    assert.deepEqual(ho.errors, []);
    assert.deepEqual(ho.blocked, []);
    const state = await ho.page.evaluate<{ pwned: number | null; injected: number; scripts: number; raw: string }>(`({
      pwned: window.__pwned ?? null,
      injected: document.querySelectorAll('img, iframe, a, b, object, embed, #injected').length,
      scripts: document.querySelectorAll('script').length,
      raw: document.body.textContent,
    })`);
    assert.equal(state.pwned, null);
    assert.equal(state.injected, 0);
    assert.equal(state.scripts, 2, 'the model and the chart script, nothing else');
    for (const s of [HOSTILE.cause, HOSTILE.prompt, HOSTILE.response, HOSTILE.dataset]) assert.ok(state.raw.includes(s), `shown as text: ${s}`);
    // In the findings, log text is text: the cause in a message, the file name (its bidi override as a visible label).
    const listed = await ho.page.evaluate<string>(`document.getElementById('findings').textContent`);
    assert.ok(listed.includes(`group_has_aborted_${HOSTILE.cause}`), listed);
    assert.ok(listed.includes('rollout/<b id=injected>n<U+202E>ldnuj.jsonl'), listed);
    assert.ok(!listed.includes('\u202E'));
    const hc = await drawnCharts(ho.page);
    assert.equal(hc.painted, hc.canvases);
    await ho.page.context().close();

    // The run view page's findings (VS Code's panel draws them; the report has its own section):
    // rows with severity, code, message and place, hostile text as text.
    const model = JSON.parse(/<script type="application\/json" id="run-view-model">([^<]*)<\/script>/.exec(html)![1]) as RunView;
    model.findings = { 'metric-mismatch': 1, 'group-dropped': 1 };
    model.findingRows = [
      { code: 'group-dropped', severity: 'error', message: HOSTILE.prompt, file: 'rollout/rollout_1.jsonl', source: 'rollout/rollout_1.jsonl', line: 13 },
      {
        code: 'metric-mismatch',
        severity: 'warning',
        message: 'eval/gpqa at step 100: logged 0.6363636363636364',
        file: 'metrics.jsonl',
        source: 'metrics.jsonl',
        line: 1,
      },
    ];
    const rowsPage = join(dir, 'rows.html');
    const inline = /<script nonce="[^"]+">([\s\S]*)<\/script>\s*<\/body>/.exec(html)![1];
    writeFileSync(rowsPage, runViewHtml({ model, title: 'rows', nonce: 'AAAAAAAAAAAAAAAAAAAAAAAA', script: { inline }, styles: RUN_VIEW_STYLES }));
    const ro = await open(browser, rowsPage);
    assert.deepEqual(ro.errors, []);
    const rows = await ro.page.evaluate<string[][]>(
      `[...document.querySelectorAll('tr.finding')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))`,
    );
    assert.deepEqual(rows, [
      ['error', 'group-dropped', HOSTILE.prompt, 'rollout/rollout_1.jsonl:13'],
      ['warning', 'metric-mismatch', 'eval/gpqa at step 100: logged 0.6363636363636364', 'metrics.jsonl:1'],
    ]);
    assert.equal(await ro.page.evaluate<number>(`document.querySelectorAll('img, iframe, a').length`), 0);
    await ro.page.context().close();

    // A verl-only folder: its own charts, all drawn, and its score.
    const vout = join(dir, 'verl.html');
    const v = report(['--exit-zero', '--out', vout, 'examples/run/verl']);
    assert.equal(v.status, 0, v.stderr);
    const vo = await open(browser, vout);
    assert.deepEqual(vo.errors, []);
    assert.deepEqual(await vo.page.evaluate<string[]>(`[...document.querySelectorAll('canvas')].map((c) => c.id)`), ['chart-verl-score', 'chart-eval']);
    const vc = await drawnCharts(vo.page);
    assert.equal(vc.painted, vc.canvases);
    const verlCells = await vo.page.evaluate<string[]>(`[...document.querySelectorAll('td')].map((td) => td.textContent)`);
    assert.ok(verlCells.includes('gsm8k') && verlCells.includes('0.875'), JSON.stringify(verlCells));
    await vo.page.context().close();

    // A 5% drop is a bar, not a sliver: one of 20 groups dropped fills most of the share chart's height.
    const small = join(dir, 'small');
    smallDropRun(small);
    const sout = join(dir, 'small.html');
    const sr = report(['--dynamic-filter', 'check_reward_nonzero_std', '--exit-zero', '--out', sout, small]);
    assert.equal(sr.status, 0, sr.stderr);
    const so = await open(browser, sout);
    assert.deepEqual(so.errors, []);
    const bar = await so.page.evaluate<{ height: number; plot: number } | null>(`(() => {
      const c = document.getElementById('chart-drops');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let top = -1, bottom = -1;
      // Left half only: the legend's swatch is centred under the plot.
      for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width / 2; x++) {
        const i = (y * c.width + x) * 4;
        if (d[i] === 0x1a && d[i + 1] === 0x7f && d[i + 2] === 0x37) { if (top < 0) top = y; bottom = y; }
      }
      return top < 0 ? null : { height: bottom - top + 1, plot: c.height };
    })()`);
    assert.ok(bar, 'the zero-std bar is drawn');
    assert.ok(bar.height > bar.plot * 0.4, JSON.stringify(bar));
    await so.page.context().close();
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
