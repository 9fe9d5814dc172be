#!/usr/bin/env node
// A stand-in for the VS Code binary that `@vscode/test-electron`'s `runTests({ vscodeExecutablePath })`
// spawns, for machines that cannot download desktop VS Code. It runs the same extension tests in
// code-server (VS Code 1.139 server + workbench, Node extension host) driven by Debian Chromium:
//   1. starts a fresh code-server on 127.0.0.1 (temp user-data, extensions, XDG and HOME folders),
//      in its own process group so it can be stopped whole;
//   2. opens Chromium on the workbench URL whose payload carries extensionDevelopmentPath and
//      extensionTestsPath (honoured only with `enable-smoke-test-driver`);
//   3. relays the workbench's `codeAutomationLog` to stdout and exits with `codeAutomationExit`'s code.
// Every wait is bounded. Arguments understood (others, e.g. --no-sandbox, are accepted and ignored):
//   --extensionDevelopmentPath=P (repeatable)  --extensionTestsPath=P  [folder]
//   --install-extension=X.vsix (repeatable; ours: installed into the fresh extensions dir first)
//   --untrusted (ours: workspace trust on and the folder not trusted, i.e. restricted mode)
// Environment: CODE_HOST_TIMEOUT_MS (whole run, default 600000), CODE_HOST_VERBOSE=1 (server output),
// CODE_HOST_KEEP_TMP=1 (keep the temp user-data folder with its logs).
// A test may ask for a screenshot by logging `[[code-host:screenshot <absolute .png path>]]`; the
// file appears when it is written, so the test waits for it.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ensureHost } from './install.mjs';

const CHROMIUM = process.env.CODE_HOST_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Loopback only: any other host fails at once instead of waiting on DNS.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
const TOTAL_MS = Number(process.env.CODE_HOST_TIMEOUT_MS || 600_000);
const VERBOSE = process.env.CODE_HOST_VERBOSE === '1';
const SCREENSHOT = /\[\[code-host:screenshot (.+?)\]\]/;
// `[[code-host:click-canvas <canvas id> <#rrggbb> <absolute done path>]]`: clicks the first pixel of
// that colour (topmost, then leftmost) in the canvas of that id inside any webview frame, then
// writes `ok` (or the error) to the done path, so a test can click a chart bar in a real webview.
const CLICK_CANVAS = /\[\[code-host:click-canvas ([\w-]+) #([0-9a-f]{6}) (.+?)\]\]/;
// The workbench log is chatty (auth, gallery lookups that cannot resolve here): stdout gets the
// extension host's own lines and real errors; the whole log goes to a file named at the end.
const LOG_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../.tmp/code-host');
const NOISE = /^\[[A-Za-z][\w .-]*\]|ENOTFOUND|getaddrinfo/;
const started = Date.now();
// Quiet, offline-friendly workbench: no git scanning, chat, update or gallery checks.
const USER_SETTINGS = {
  'git.enabled': false,
  'github.gitAuthentication': false,
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
};
const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

function parseArgs(argv) {
  const out = { devPaths: [], testsPath: null, vsix: [], folder: null, untrusted: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    const value = () => inline ?? argv[++i];
    if (flag === '--extensionDevelopmentPath') out.devPaths.push(resolve(value()));
    else if (flag === '--extensionTestsPath') out.testsPath = resolve(value());
    else if (flag === '--install-extension') out.vsix.push(resolve(value()));
    else if (flag === '--untrusted') out.untrusted = true;
    else if (flag === '--user-data-dir' || flag === '--extensions-dir') {
      if (inline === null) i++;
    } // ours are fresh temp dirs
    else if (!a.startsWith('-') && !out.folder) out.folder = resolve(a);
  }
  return out;
}

/** Resolves with the value, or rejects after `ms` naming what it waited for. */
function bounded(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function tempLayout(untrusted) {
  const base = mkdtempSync(join(tmpdir(), 'code-host-'));
  const dirs = Object.fromEntries(['ud', 'ext', 'config', 'data', 'home', 'cache'].map((d) => [d, join(base, d)]));
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.ud, 'User'), { recursive: true });
  // Restricted mode: trust on, no start-up prompt (a modal would wait for a click), folder untrusted.
  const settings = untrusted
    ? { ...USER_SETTINGS, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
    : USER_SETTINGS;
  writeFileSync(join(dirs.ud, 'User/settings.json'), JSON.stringify(settings, null, 2));
  const env = { ...process.env, HOME: dirs.home, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data, XDG_CACHE_HOME: dirs.cache };
  // Keep the outer npm/test runner's settings away from the extension host's children.
  for (const k of Object.keys(env)) if (k.startsWith('npm_') || k.startsWith('NODE_TEST') || k === 'NODE_OPTIONS') delete env[k];
  env.CODE_HOST = '1'; // tests can tell they run here (screenshots are available)
  return { base, dirs, env };
}

function installVsix(host, layout, vsix) {
  const r = spawnSync(
    host.nodeBin,
    [host.codeServerEntry, '--user-data-dir', layout.dirs.ud, '--extensions-dir', layout.dirs.ext, '--install-extension', vsix, '--force'],
    { env: layout.env, encoding: 'utf8', timeout: 120_000 },
  );
  process.stdout.write(`[code-host] install ${vsix}: ${(r.stdout || '').trim()}\n`);
  if (r.status !== 0) throw new Error(`installing ${vsix} failed (${r.status ?? r.signal}): ${r.stderr}`);
}

/** Starts code-server on a free loopback port; resolves with its URL origin once it listens. */
function startServer(host, layout, folder, untrusted) {
  const args = [
    host.codeServerEntry,
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(untrusted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir',
    layout.dirs.ud,
    '--extensions-dir',
    layout.dirs.ext,
    '--vscode-option',
    'enable-smoke-test-driver',
    '--ignore-last-opened',
  ];
  if (folder) args.push(folder);
  // detached: setsid(), so the server and its watchers form one process group we stop together.
  const child = spawn(host.nodeBin, args, { env: layout.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const logFile = join(layout.base, 'server.log');
  let log = '';
  const onData = (d) => {
    log += d;
    writeFileSync(logFile, log);
    if (VERBOSE) process.stderr.write(`[code-server] ${d}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const listening = new Promise((res, rej) => {
    const check = () => {
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) res(m[1]);
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.on('exit', (code, sig) => rej(new Error(`code-server exited early (${code ?? sig}):\n${log.slice(-2000)}`)));
  });
  return { child, listening, tail: () => log.slice(-4000) };
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((res) => child.once('exit', res));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  try {
    await bounded(exited, 5000, 'code-server to stop');
  } catch {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

function workbenchUrl(origin, opts) {
  const remote = (p) => `vscode-remote://${new URL(origin).host}${p}`;
  const payload = [
    ...opts.devPaths.map((p) => ['extensionDevelopmentPath', remote(p)]),
    ['extensionTestsPath', remote(opts.testsPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const q = new URLSearchParams();
  if (opts.folder) q.set('folder', opts.folder);
  q.set('payload', JSON.stringify(payload));
  return `${origin}/?${q}`;
}

async function clickCanvas(page, id, hex, done) {
  const [r, g, b] = [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
  let result = `no webview frame holds a canvas #${id}`;
  for (const frame of page.frames()) {
    const at = await frame
      .evaluate(
        ([cid, r, g, b]) => {
          const c = globalThis.document.getElementById(cid);
          if (!c || !c.getContext) return null;
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          for (let y = 0; y < c.height; y++)
            for (let x = 0; x < c.width; x++) {
              const i = (y * c.width + x) * 4;
              if (d[i] === r && d[i + 1] === g && d[i + 2] === b) return { x: (x + 3) / (c.width / c.clientWidth), y: (y + 3) / (c.height / c.clientHeight) };
            }
          return { missing: true };
        },
        [id, r, g, b],
      )
      .catch(() => null);
    if (!at) continue;
    if (at.missing) {
      result = `canvas #${id} has no pixel of #${hex}`;
      continue;
    }
    await frame.locator(`#${id}`).click({ position: at, timeout: 10_000 });
    result = 'ok';
    break;
  }
  writeWhole(done, result);
}

/** Writes `data` (text or bytes) to `path` so that the file appears whole: the test reads it as soon as it exists. */
function writeWhole(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.partial`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

async function takeScreenshot(page, path) {
  writeWhole(path, await page.screenshot({ type: 'png' })); // the test waits for the final name
  process.stdout.write(`[code-host] screenshot saved: ${path}\n`);
}

/** Opens the workbench and resolves with the test run's exit code. */
async function runInBrowser(url, state) {
  state.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, timeout: 60_000 });
  const page = await state.browser.newPage({ viewport: { width: 1600, height: 1000 } });
  let exitWith;
  const exited = new Promise((res) => {
    exitWith = res;
  });
  await page.exposeFunction('codeAutomationLog', (level, message) => {
    const text = Array.isArray(message) ? message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ') : String(message);
    appendFileSync(state.logFile, `${since()}\t${level}\t${text}\n`);
    const shot = SCREENSHOT.exec(text);
    const click = CLICK_CANVAS.exec(text);
    if (shot) takeScreenshot(page, shot[1]).catch((e) => process.stdout.write(`[code-host] screenshot failed: ${e}\n`));
    else if (click) clickCanvas(page, click[1], click[2], click[3]).catch((e) => writeWhole(click[3], `click failed: ${e}`));
    else if (VERBOSE || !NOISE.test(text)) process.stdout.write(`${level === 'error' ? '[error] ' : ''}${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => exitWith(Number(code)));
  page.on('crash', () => exitWith(Promise.reject(new Error('the workbench page crashed'))));
  if (VERBOSE) page.on('pageerror', (e) => process.stderr.write(`[page] ${e}\n`));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return exited;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.testsPath || opts.devPaths.length === 0) throw new Error('need --extensionTestsPath and --extensionDevelopmentPath');
  const host = ensureHost();
  const layout = tempLayout(opts.untrusted);
  mkdirSync(LOG_DIR, { recursive: true });
  const state = { browser: null, server: null, logFile: join(LOG_DIR, `workbench-${process.pid}.log`) };
  writeFileSync(state.logFile, '');
  const cleanup = async () => {
    if (state.browser) await bounded(state.browser.close(), 10_000, 'chromium to close').catch(() => {});
    if (state.server) await stopServer(state.server.child);
    if (process.env.CODE_HOST_KEEP_TMP === '1') process.stdout.write(`[code-host] kept ${layout.base}\n`);
    else rmSync(layout.base, { recursive: true, force: true, maxRetries: 3 });
  };
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.once(sig, () => {
      cleanup().finally(() => process.exit(130));
    });
  let code = 1;
  try {
    for (const vsix of opts.vsix) installVsix(host, layout, vsix);
    state.server = startServer(host, layout, opts.folder, opts.untrusted);
    const origin = await bounded(state.server.listening, 60_000, 'code-server to listen');
    process.stdout.write(`[code-host] code-server listening at ${origin} (${since()})\n`);
    code = await bounded(runInBrowser(workbenchUrl(origin, opts), state), TOTAL_MS, 'the extension tests to finish');
    process.stdout.write(`[code-host] tests exited with ${code} (${since()}); workbench log: ${state.logFile}\n`);
  } catch (e) {
    process.stdout.write(`[code-host] ${e && e.stack ? e.stack : e}\n`);
    if (state.server) process.stdout.write(`[code-host] code-server output (tail):\n${state.server.tail()}\n`);
    code = code || 1;
  } finally {
    await cleanup();
  }
  process.exit(code);
}

main();
