// A third, independent LSP client: Debian's Emacs 28 with its eglot 1.9, headless (`--batch`,
// hermetic HOME), set up exactly as docs/editors.md says (test/emacs/init.el, quoted there), on a
// copy of the example run. It opens logs as a user would and must show the same findings as
// `rollout-lens check` on the run folder (the metrics log's run-level findings too), a hover, the
// quick fix applied to the eval config and saved, the groups as document symbols, and, once the
// eval dump is edited and saved, the metrics log's findings for the edited run (test/emacs/client.el
// drives it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempWorkspace } from '../lsp/fixtures';
import { checkRun, findingLines } from '../shared/checkRun';
import { boundedRun } from '../shared/boundedChild';
import { EVAL_EDIT, findingsAfterEdit } from '../shared/exampleRun';

const ROOT = repoRoot();
const WAIT_MS = 20_000;

interface EmacsResult {
  error?: string;
  diagnostics: Record<string, string[]>;
  hover: string | false;
  fixTitle: string | false;
  configModified: boolean;
  symbols: string[];
  servers: number;
  afterEdit?: string[];
}

function emacsVersion(): string | null {
  const r = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : null;
}

test('docs/editors.md gives the Emacs set-up the test runs', () => {
  const init = readFileSync(join(ROOT, 'test/emacs/init.el'), 'utf8').trim();
  assert.ok(readFileSync(join(ROOT, 'docs/editors.md'), 'utf8').includes(init), 'docs/editors.md must quote test/emacs/init.el as is');
});

test("Emacs 28 + eglot shows check's findings on the example run, a hover, the quick fix, the groups, and follows a saved edit", async () => {
  const version = emacsVersion();
  assert.ok(version, 'emacs is not installed: `apt-get install -y emacs-nox elpa-eglot` (npm test installs them)');
  const ws = tempWorkspace('rl-emacs-');
  try {
    cpSync(join(ROOT, 'examples/run'), ws.path('run'), { recursive: true });
    mkdirSync(ws.path('home'));
    // Not a version-controlled folder: eglot starts one server per directory (its transient
    // projects), each with that directory as its only root; the run's settings and eval config
    // are found upward from each log.
    const init = readFileSync(join(ROOT, 'test/emacs/init.el'), 'utf8').replaceAll('/path/to/rollout-lens', ROOT);
    writeFileSync(ws.path('init.el'), init);
    const evalLog = ws.path('run/eval/eval_100.jsonl');
    const rollout = ws.path('run/rollout/rollout_1.jsonl');
    const config = ws.path('run/eval_config.yaml');
    const metrics = ws.path('run/metrics.jsonl');
    const files = [evalLog, rollout, metrics];
    const findings = checkRun(ws.path('run'));
    const expected = Object.fromEntries(files.map((f) => [f, findingLines(findings, f)]));
    assert.ok(expected[evalLog].some((l) => l.startsWith('misgrouped-dataset\t')));
    assert.ok(expected[metrics].some((l) => l.startsWith('metric-mismatch\t')));
    // After the quick fix (saved) and the edit of the eval dump (saved): what check says then.
    const fixed = (text: string) =>
      text.replace('n_samples_per_eval_prompt: 2   # edited after the run', 'n_samples_per_eval_prompt: 3   # edited after the run');
    const after = findingsAfterEdit(ws.path('run'), ws.path('edited'), metrics, (copy) => {
      const file = join(copy, 'eval_config.yaml');
      writeFileSync(file, fixed(readFileSync(file, 'utf8')));
    });
    assert.notDeepEqual(after, expected[metrics]);

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: ws.path('home'),
      RL_FILES: files.join('\n'),
      RL_EXPECTED: JSON.stringify(expected),
      RL_FIX_LOG: evalLog,
      RL_FIX_CODE: 'misgrouped-dataset',
      RL_FIX_TITLE: 'Set n_samples_per_eval_prompt of gpqa to 3',
      RL_CONFIG: config,
      RL_SYMBOLS: rollout,
      RL_EDIT_LOG: evalLog,
      RL_EDIT_LINE: String(EVAL_EDIT.line),
      RL_EDIT_FROM: EVAL_EDIT.from,
      RL_EDIT_TO: EVAL_EDIT.to,
      RL_METRICS: metrics,
      RL_AFTER: JSON.stringify(after),
      RL_OUT: ws.path('out.json'),
      RL_WAIT_MS: String(WAIT_MS),
    };
    const child = spawn('emacs', ['--batch', '-l', ws.path('init.el'), '-l', join(ROOT, 'test/emacs/client.el')], {
      cwd: ws.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, output } = await boundedRun(child, WAIT_MS * 4);
    assert.ok(existsSync(ws.path('out.json')), `emacs wrote no result (exit ${code}): ${output}`);
    const result = JSON.parse(readFileSync(ws.path('out.json'), 'utf8')) as EmacsResult;
    assert.equal(result.error, undefined, `${result.error}\n${output}`);
    assert.equal(code, 0, output);
    console.log(`${version}: ${Object.values(result.diagnostics).reduce((n, d) => n + d.length, 0)} diagnostics`);

    if (process.env.RL_DEBUG) console.log(JSON.stringify(result, null, 1));
    for (const file of files) assert.deepEqual(result.diagnostics[file], expected[file], file);
    assert.equal(result.servers, 3, 'one server per directory (each with only its own folder as root)');

    // eglot 1.9 announces only plaintext without markdown-mode (hover.contentFormat): the server
    // answers plain text, so no markdown syntax or backslash escape reaches the echo area.
    assert.ok(result.hover && /Dataset gpqa: /.test(result.hover), `hover: ${result.hover}`);
    assert.doesNotMatch(result.hover, /\*\*|`|\\[._()-]/, `markdown syntax in the hover: ${result.hover}`);

    assert.equal(result.fixTitle, 'Set n_samples_per_eval_prompt of gpqa to 3 in eval_config.yaml');
    assert.equal(result.configModified, false);
    const saved = readFileSync(config, 'utf8');
    const original = readFileSync(join(ROOT, 'examples/run/eval_config.yaml'), 'utf8');
    assert.equal(saved, fixed(original));

    // The metrics log's server saw the saved eval dump and eval config change on disk.
    assert.deepEqual(result.afterEdit, after);

    assert.ok(
      result.symbols.some((s) => /^group \S+: dropped \(group_has_aborted_ServerUnreachable\)$/.test(s)),
      `symbols: ${result.symbols.join(', ')}`,
    );
  } finally {
    ws.remove();
  }
});
