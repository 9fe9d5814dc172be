// The packaged extension: `vsce package` holds only the bundles (and the CLI's scan worker), manifest, README, license, icons
// and grammar; installed with `code-server --install-extension` it activates and analyses, here in
// an untrusted workspace (restricted mode), where it offers no quick fixes.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, runSuite } from './harness';
import { buildVsix, zipEntries } from './vsixPackage';
import { prepareWorkspace } from './workspace';

test(
  'the .vsix holds only the three bundles, manifest, README, license, icons and grammar; installed, it activates and analyses in an untrusted workspace without offering fixes',
  { timeout: 600_000 },
  async () => {
    const { vsix, staging } = buildVsix();
    const ws = prepareWorkspace();
    try {
      const expected = [
        '[Content_Types].xml',
        'extension.vsixmanifest',
        'extension/LICENSE.txt',
        'extension/dist/cli.js', // the CLI's start, which runs cliMain.js
        'extension/dist/cliMain.js',
        'extension/dist/client.js',
        'extension/dist/server.js',
        'extension/dist/scanWorker.js', // the CLI's scan worker for big files
        'extension/dist/summarizeWorker.js', // the CLI's workers of `summarize --jobs`
        'extension/dist/deflateWorker.js', // the CLI's thread for has_repetition compression
        'extension/dist/zod.js', // required on first use by the server and the CLI (esbuild.mjs)
        'extension/dist/yaml.js', // likewise
        'extension/dist/runView.js', // the run view's charts (webview and report)
        'extension/dist/sampleView.js', // the sample view's page script
        'extension/dist/diffView.js', // the diff page's charts (`rollout-lens diff --out`)
        'extension/media/activity.svg',
        'extension/media/icon.png',
        'extension/package.json',
        'extension/syntaxes/rollout-lens.injection.tmLanguage.json',
      ];
      if (existsSync(join(repoRoot, 'README.md'))) expected.push('extension/readme.md');
      assert.deepEqual(zipEntries(vsix).sort(), expected.sort());
      process.env.ROLLOUT_LENS_REPO = repoRoot;
      const code = await runSuite({
        suite: 'vsix',
        folder: ws.folder,
        vsix: [vsix],
        extensionDevelopmentPath: join(repoRoot, 'test/fixtures/vscode/carrier'),
        untrusted: true,
      });
      assert.equal(code, 0);
    } finally {
      ws.dispose();
      rmSync(staging, { recursive: true, force: true });
    }
  },
);
