// A second, independent LSP client: Neovim 0.7.2 (Debian), headless, hermetic (HOME and XDG
// folders in a temp dir), starts `node dist/server.js --stdio`, opens a step of the example run
// and receives its diagnostics by push; the same findings as the engine reports for that file. On a
// copy of the run, the metrics log's run-level findings equal check's, before and after an unsaved
// edit of the eval dump in the same Neovim (test/nvim/runLevel.lua drives it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFiles } from '../../server/src/core/engine';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../shared/protocol';
import { repoRoot, tempWorkspace } from '../lsp/fixtures';
import { boundedRun } from '../shared/boundedChild';
import { checkRun, findingLines } from '../shared/checkRun';
import { copyExampleRun, EVAL_EDIT, EXAMPLE_ROLLOUT_SETTINGS, findingsAfterEdit } from '../shared/exampleRun';

const ROOT = repoRoot();
const LOG = join(ROOT, 'examples/run/rollout/rollout_1.jsonl');
const SETTINGS: RolloutLensSettings = { ...DEFAULT_SETTINGS, ...EXAMPLE_ROLLOUT_SETTINGS };
const WAIT_MS = 20_000;

interface NvimDiagnostic {
  lnum: number;
  col: number;
  severity: number;
  source: string;
  message: string;
  code: string;
}

/** Neovim headless with HOME and XDG folders in the workspace, running a Lua driver; its JSON result. */
async function runNvim(ws: { path(name: string): string }, script: string, vars: Record<string, string>): Promise<Record<string, unknown>> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: ws.path('home'), RL_OUT: ws.path('out.json'), RL_WAIT_MS: String(WAIT_MS), ...vars };
  for (const name of ['home', 'config', 'data', 'state', 'cache']) mkdirSync(ws.path(name));
  Object.assign(env, {
    XDG_CONFIG_HOME: ws.path('config'),
    XDG_DATA_HOME: ws.path('data'),
    XDG_STATE_HOME: ws.path('state'),
    XDG_CACHE_HOME: ws.path('cache'),
  });
  const child = spawn('nvim', ['--headless', '--clean', '-n', '-c', `luafile ${join(ROOT, 'test/nvim', script)}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { code, output } = await boundedRun(child, WAIT_MS * 3);
  assert.ok(existsSync(ws.path('out.json')), `nvim wrote no result (exit ${code}): ${output}`);
  const result = JSON.parse(readFileSync(ws.path('out.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(result.error, undefined, `${String(result.error)}\n${output}`);
  assert.equal(code, 0, output);
  return result;
}

function nvimVersion(): string | null {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : null;
}

test("Neovim 0.7 (push diagnostics) gets the example log's findings from dist/server.js, and a hover", async () => {
  const version = nvimVersion();
  assert.ok(version, 'nvim is not installed: `apt-get install -y neovim` (.ci/run installs it)');
  const ws = tempWorkspace('rl-nvim-');
  try {
    const result = (await runNvim(ws, 'client.lua', { RL_SERVER: join(ROOT, 'dist/server.js'), RL_LOG: LOG, RL_ROOT: ROOT })) as unknown as {
      diagnostics: NvimDiagnostic[];
      hover: string | null;
      client: { major: number; minor: number };
    };
    console.log(`${version}: ${result.diagnostics.length} diagnostics`);

    // The same findings (code, 0-based line, severity, message) as a one-shot engine run.
    const report = await analyzeFiles([{ path: LOG, displayPath: LOG }], { access: nodeFileAccess, settings: SETTINGS });
    const severity = { error: 1, warning: 2, information: 3, hint: 4 } as const;
    const expected = report.findings.map((f) => [f.code, f.line - 1, severity[f.severity], f.message]).sort();
    const got = result.diagnostics.map((d) => [d.code, d.lnum, d.severity, d.message]).sort();
    assert.deepEqual(got, expected);
    assert.ok(result.diagnostics.every((d) => d.source === 'rollout-lens'));
    // Neovim announces markdown first: identifiers and values in code spans, never backslash-escaped.
    assert.ok(result.hover && /^\*\*group `\d+` dropped: /.test(result.hover), `hover: ${result.hover}`);
    assert.match(result.hover, /reason `group_has_aborted_\w+`/);
    assert.doesNotMatch(result.hover.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, ''), /\\[._()-]/, `a backslash escape: ${result.hover}`);
  } finally {
    ws.remove();
  }
});

test("Neovim 0.7: the metrics log shows check's metric-mismatch findings, and follows an unsaved edit of the eval dump", async () => {
  assert.ok(nvimVersion(), 'nvim is not installed: `apt-get install -y neovim` (.ci/run installs it)');
  const ws = tempWorkspace('rl-nvim-run-');
  try {
    const run = copyExampleRun(ws.path('run'));
    const metrics = join(run, 'metrics.jsonl');
    const expected = findingLines(checkRun(run), metrics);
    assert.ok(expected.some((l) => l.startsWith('metric-mismatch\t')));
    const after = findingsAfterEdit(run, ws.path('edited'), metrics);
    assert.notDeepEqual(after, expected);
    const result = await runNvim(ws, 'runLevel.lua', {
      RL_SERVER: join(ROOT, 'dist/server.js'),
      RL_ROOT: run,
      RL_METRICS: metrics,
      RL_DUMP: join(run, EVAL_EDIT.file),
      RL_EDIT_LINE: String(EVAL_EDIT.line),
      RL_EDIT_FROM: EVAL_EDIT.from,
      RL_EDIT_TO: EVAL_EDIT.to,
      RL_EXPECTED: JSON.stringify(expected),
      RL_AFTER: JSON.stringify(after),
    });
    assert.deepEqual(result.before, expected);
    assert.deepEqual(result.after, after);
  } finally {
    ws.remove();
  }
});
