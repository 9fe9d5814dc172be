// `rollout-lens` (dist/cli.js): starts the CLI's bundle (dist/cliMain.js, built from cli.ts) from
// V8's code cache when the build left one that fits (node/bundleStart.ts).
import { join } from 'node:path';

import { startCli } from './node/bundleStart';

// The build (esbuild.mjs) sets this on the run that writes the caches.
startCli(join(__dirname, 'cliMain.js'), process.env.ROLLOUT_LENS_WRITE_CODE_CACHE === '1');
