// Bundles the entry points: the VS Code client, the language server, the CLI and the CLI's worker threads.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';

import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
// `--outdir <dir>`: bundles elsewhere than dist/ (the .vsix test packages a staging copy).
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist';
const common = {
  absWorkingDir: new URL('.', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

// zod and the YAML parser are needed by few runs (core/lazy/zod.ts, core/lazy/yaml.ts) but were most of
// the CLI bundle, which Node compiles at every start: they live in files of their own beside the
// bundles, required on first use.
const LAZY = ['zod', 'yaml'];
const lazyFiles = {
  name: 'lazy-files',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${LAZY.join('|')})$`) }, (args) =>
      args.kind === 'require-call' ? { path: `./${args.path}.js`, external: true } : undefined,
    );
  },
};
const lazyBuilds = LAZY.map((name) =>
  esbuild.build({ ...common, stdin: { contents: `module.exports = require('${name}');`, resolveDir: '.' }, outfile: `${outdir}/${name}.js` }),
);

// The code caches of the bundles being replaced would not fit the new ones (they are checked, but
// need not be read).
for (const name of existsSync(outdir) ? readdirSync(outdir) : []) if (name.endsWith('.codecache')) rmSync(`${outdir}/${name}`);
await Promise.all([
  ...lazyBuilds,
  esbuild.build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: `${outdir}/client.js`, external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['server/src/main.ts'], outfile: `${outdir}/server.js`, plugins: [lazyFiles] }),
  // The CLI: `cli.js` (the `bin`) starts `cliMain.js` from V8's code cache (server/src/cliStart.ts).
  esbuild.build({ ...common, entryPoints: ['server/src/cliStart.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env node' } }),
  esbuild.build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: `${outdir}/cliMain.js`, plugins: [lazyFiles] }),
  // Worker threads of the CLI's parallel scan of big files (loaded from beside cli.js / server.js).
  esbuild.build({ ...common, entryPoints: ['server/src/node/scanWorker.ts'], outfile: `${outdir}/scanWorker.js`, plugins: [lazyFiles] }),
  // Worker threads of `summarize --jobs` (loaded from beside cli.js).
  esbuild.build({ ...common, entryPoints: ['server/src/node/summarizeWorker.ts'], outfile: `${outdir}/summarizeWorker.js`, plugins: [lazyFiles] }),
  // The thread for miles' has_repetition compression (loaded from beside cli.js / server.js).
  esbuild.build({ ...common, entryPoints: ['server/src/node/deflateWorker.ts'], outfile: `${outdir}/deflateWorker.js` }),
  // The run view's chart script (with Chart.js) for the VS Code webview and `rollout-lens report`,
  // which inlines it, and the diff page's (`rollout-lens diff --out`); minified always, since every
  // report carries a copy.
  esbuild.build({
    ...common,
    entryPoints: { runView: 'webview/src/runView.ts', sampleView: 'webview/src/sampleView.ts', diffView: 'webview/src/diffView.ts' },
    outdir,
    platform: 'browser',
    target: 'es2020',
    format: 'iife',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
  }),
]);

// The CLI's code cache: V8 keeps the bytecode of what a check of the example run compiled, so later
// starts skip compiling it (server/src/node/bundleStart.ts). Its report is not needed here.
execFileSync(process.execPath, [`${outdir}/cli.js`, 'check', '--config', 'examples/run/rollout-lens.yaml', '--format', 'json', '--exit-zero', 'examples/run'], {
  cwd: common.absWorkingDir,
  env: { ...process.env, ROLLOUT_LENS_WRITE_CODE_CACHE: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
