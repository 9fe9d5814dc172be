// `npm test`: installs what the rings need from the system (test/setup/system.mjs), lints (full
// runs), builds the bundles, compiles the tests (which also type-checks everything), then runs
// every ring in one node test runner process, so one summary closes the run.
//   node test/run.mjs               lint and all rings
//   node test/run.mjs unit lsp      only these rings (folders under test/), no lint
// `npm run test:quick` is lint, then the unit and in-process LSP rings: the loop while developing,
// which needs nothing from the system (no Debian package, no code-server).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSystemPackages } from './setup/system.mjs';

const RINGS = ['unit', 'lsp', 'stdio', 'reliability', 'browser', 'nvim', 'emacs', 'vscode'];
const root = new URL('..', import.meta.url).pathname;
const chosen = process.argv.slice(2);
const rings = chosen.length ? chosen : RINGS;

if (!ensureSystemPackages(rings)) process.exit(1);
if (chosen.length === 0) execFileSync('npm', ['run', '--silent', 'lint'], { cwd: root, stdio: 'inherit' });

execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
rmSync(join(root, 'out'), { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
// The run view's browser script has its own program (DOM types, bundler resolution).
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'webview/tsconfig.json'], { cwd: root, stdio: 'inherit' });

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return testFiles(p);
    return name.endsWith('.test.js') ? [p] : [];
  });
}

const files = rings.flatMap((ring) => testFiles(join(root, 'out/test', ring))).sort();
if (files.length === 0) {
  console.error(`no test files found for rings: ${rings.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
