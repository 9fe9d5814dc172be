// Outer side of the real-VS-Code tests: runs one extension-host suite through
// `@vscode/test-electron`'s `runTests`. By default the VS Code "executable" is
// `host/code-host.mjs` (code-server + Chromium, for machines that cannot download VS Code);
// with ROLLOUT_LENS_VSCODE=download, test-electron downloads desktop VS Code as usual.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveCliArgsFromVSCodeExecutablePath, downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

/** The repository: the first folder above the compiled tests holding our package.json. */
function findRepoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    const manifest = join(d, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'rollout-lens') return d;
  }
  return process.cwd();
}

export const repoRoot = findRepoRoot();
export const codeHost = join(repoRoot, 'test/vscode/host/code-host.mjs');
const useDesktop = process.env.ROLLOUT_LENS_VSCODE === 'download';

export interface SuiteOptions {
  /** Module beside this one under suite/ exporting `run()`. */
  suite: string;
  /** Folder to open as the workspace. */
  folder?: string;
  /** Extension under development (default: the repository). */
  extensionDevelopmentPath?: string;
  /** Packaged extensions to install first. */
  vsix?: string[];
  /** Open the folder in restricted mode (code-server host only; desktop runTests disables trust). */
  untrusted?: boolean;
}

export async function runSuite(opts: SuiteOptions): Promise<number> {
  const extensionTestsPath = join(__dirname, 'suite', opts.suite);
  const extensionDevelopmentPath = opts.extensionDevelopmentPath ?? repoRoot;
  const launchArgs = opts.folder ? [opts.folder] : [];
  if (!useDesktop) {
    for (const v of opts.vsix ?? []) launchArgs.push(`--install-extension=${v}`);
    if (opts.untrusted) launchArgs.push('--untrusted');
    process.env.ROLLOUT_LENS_EXPECT_UNTRUSTED = opts.untrusted ? '1' : '0';
    return runTests({ vscodeExecutablePath: codeHost, extensionDevelopmentPath, extensionTestsPath, launchArgs });
  }
  // Desktop VS Code: `--install-extension` installs and exits, so install into a fresh
  // extensions folder first, then launch with that folder.
  const vscodeExecutablePath = await downloadAndUnzipVSCode();
  const extDir = mkdtempSync(join(tmpdir(), 'rl-ext-'));
  try {
    const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(vscodeExecutablePath);
    for (const v of opts.vsix ?? []) {
      const r = spawnSync(cli, [...cliArgs, `--extensions-dir=${extDir}`, '--install-extension', v], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`installing ${v} failed`);
    }
    launchArgs.push(`--extensions-dir=${extDir}`);
    return await runTests({ vscodeExecutablePath, extensionDevelopmentPath, extensionTestsPath, launchArgs });
  } finally {
    rmSync(extDir, { recursive: true, force: true });
  }
}
