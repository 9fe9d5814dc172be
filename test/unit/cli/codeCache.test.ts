// The CLI's start from V8's code cache (server/src/node/bundleStart.ts), each case in a process of
// its own as the CLI starts: a cache is taken only by the bundle it was made from and under the
// same V8 flags, a bundle edited in place runs as edited, and the build's caches fit the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../shared/repoRoot';
import { tempDir } from './run';

const ROOT = repoRoot();
const BUNDLE_START = join(ROOT, 'out/server/src/node/bundleStart.js');

interface Started {
  exports: unknown;
  fromCache: Record<string, boolean>;
}

/**
 * Loads `bundle` in a new Node process (with `nodeFlags`) through a `BundleLoader`, writing the
 * caches at exit when `writeCache`; what the bundle exported and which bundles came from a cache.
 */
function start(bundle: string, { writeCache = false, nodeFlags = [] as string[] } = {}): Started {
  const code = `
    const { BundleLoader } = require(${JSON.stringify(BUNDLE_START)});
    const loader = new BundleLoader(${writeCache});
    const exports = loader.load(${JSON.stringify(bundle)});
    const fromCache = {};
    for (const [path, compiled] of loader.compiled) fromCache[require('node:path').basename(path)] = compiled.fromCache;
    process.stdout.write(JSON.stringify({ exports, fromCache }));`;
  const r = spawnSync(process.execPath, [...nodeFlags, '-e', code], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Started;
}

function twoBundles(dir: string): string {
  const main = join(dir, 'main.js');
  writeFileSync(
    main,
    `"use strict";\nconst b = require('./b.js');\nmodule.exports = { value: 'one', b: b.value, sep: require('node:path').sep, again: require('./b.js') === b };\n`,
  );
  writeFileSync(join(dir, 'b.js'), `module.exports = { value: 'bee' };\n`);
  return main;
}

const EXPORTS = { value: 'one', b: 'bee', sep: '/', again: true };

test('a bundle and the bundle it requires beside it start from the caches their run wrote', (t) => {
  const main = twoBundles(tempDir(t));
  assert.deepEqual(start(main, { writeCache: true }), { exports: EXPORTS, fromCache: { 'main.js': false, 'b.js': false } });
  assert.ok(existsSync(`${main}.codecache`) && existsSync(join(main, '../b.js.codecache')));
  assert.deepEqual(start(main), { exports: EXPORTS, fromCache: { 'main.js': true, 'b.js': true } });
});

test('a bundle edited in place to the same length runs as edited, not from its old cache', (t) => {
  const main = twoBundles(tempDir(t));
  start(main, { writeCache: true });
  const before = statSync(main);
  writeFileSync(main, readFileSync(main, 'utf8').replace("'one'", "'two'"));
  assert.equal(statSync(main).size, before.size);
  // A later modification time, even where the file system's clock is coarse.
  utimesSync(main, before.atime, new Date(before.mtimeMs + 10_000));
  assert.deepEqual(start(main), { exports: { ...EXPORTS, value: 'two' }, fromCache: { 'main.js': false, 'b.js': true } });
});

test('a damaged cache is not taken (V8 checks its checksum), and the bundle still runs', (t) => {
  const main = twoBundles(tempDir(t));
  start(main, { writeCache: true });
  const path = `${main}.codecache`;
  const cache = readFileSync(path);
  // Past the stamp and V8's header; the stamp still fits the bundle.
  for (let i = 64; i < cache.length; i += 7) cache[i] ^= 0xff;
  writeFileSync(path, cache);
  assert.deepEqual(start(main), { exports: EXPORTS, fromCache: { 'main.js': false, 'b.js': true } });
});

// (2 is V8's default growth factor, which would leave the flags as they were.)
test('a cache made under other V8 flags is not taken, and the bundle still runs', (t) => {
  const main = twoBundles(tempDir(t));
  start(main, { writeCache: true });
  assert.deepEqual(start(main, { nodeFlags: ['--semi-space-growth-factor=4'] }), { exports: EXPORTS, fromCache: { 'main.js': false, 'b.js': false } });
});

test("the build's caches fit the CLI as dist/cli.js starts it: the bundle and its lazy parts come from them", () => {
  // startCli as dist/cli.js calls it, with the arguments the CLI reads from process.argv.
  const args = ['check', '--config', 'examples/run/rollout-lens.yaml', '--format', 'json', '--exit-zero', 'examples/run'];
  const code = `
    process.argv = [process.argv[0], 'cli.js', ...${JSON.stringify(args)}];
    const loader = require(${JSON.stringify(BUNDLE_START)}).startCli(${JSON.stringify(join(ROOT, 'dist/cliMain.js'))}, false);
    process.on('exit', () => {
      const fromCache = {};
      for (const [path, compiled] of loader.compiled) fromCache[require('node:path').basename(path)] = compiled.fromCache;
      process.stderr.write(JSON.stringify(fromCache));
    });`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stderr), { 'cliMain.js': true, 'zod.js': true, 'yaml.js': true });
  // The same report as the CLI's own start prints.
  const cli = spawnSync(process.execPath, ['dist/cli.js', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.stdout, cli.stdout);
  assert.ok(JSON.parse(r.stdout).files.length > 0);
});
