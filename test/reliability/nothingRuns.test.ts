// Nothing runs: no product code can evaluate log text or start a process from it; nothing but the
// CLI's explicit --fix writes a file; quick fixes are WorkspaceEdits on exactly the eval config the
// finding names, inside the workspace (symlinks resolved), applied only by the client; untrusted
// workspaces get read-only analysis (declared in the manifest, enforced by the client).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic, TextDocumentEdit } from 'vscode-languageserver-protocol';

import { evalConfigYaml, evalLines, repoRoot } from '../lsp/fixtures';
import { startHarness } from '../lsp/harness';
import { runCli, tempDir } from './helpers';

const ROOT = repoRoot();

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.(ts|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

const PRODUCT = [...sources('server/src'), ...sources('shared'), ...sources('client/src')];

/**
 * Code only: comments, string, template and regular-expression contents blanked, so a word in a
 * message or a pattern is not a finding (the expressions inside `${}` are kept).
 */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''")
    .replace(/`(?:\\.|\$\{[^}]*\}|[^`\\])*`/g, (t) => `\`${[...t.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]).join(' ')}\``)
    .replace(/([(=,:!&|?{};>[]|\breturn|^)(\s*)\/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\n\\[])+\/[dgimsuy]*/gm, '$1$2/re/');
}

/** The one product source that compiles code: the CLI's start, which runs the bundles beside it from V8's code cache. */
const BUNDLE_START = 'server/src/node/bundleStart.ts';

test(`no product source (${PRODUCT.length} files in server/src, shared, client/src) can evaluate text or start a process: no eval, Function, vm (but in the CLI's start, on the bundles beside it), child_process, dynamic require/import`, () => {
  assert.ok(PRODUCT.length > 50);
  const forbidden: [RegExp, string][] = [
    [/\beval\s*\(/, 'eval('],
    [/\bnew\s+Function\b|\bFunction\s*\(/, 'Function constructor'],
    [/\brequire\s*\(\s*[^')\s]/, 'require of a computed name'],
    [/\bimport\s*\(\s*[^')\s]/, 'import() of a computed name'],
    [/\bsetTimeout\s*\(\s*['"`]|\bsetInterval\s*\(\s*['"`]/, 'timer with a string body'],
  ];
  const modules = /(?:from\s+|require\(\s*|import\(\s*)['"]([^'"]+)['"]/g;
  for (const file of PRODUCT) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const body = code(text);
    for (const [re, what] of forbidden) assert.doesNotMatch(body, re, `${file}: ${what}`);
    for (const m of text.matchAll(modules)) {
      const allowed = file === BUNDLE_START && m[1] === 'node:vm';
      assert.ok(allowed || !/^(node:)?(vm|child_process|worker_threads\/eval)$/.test(m[1]), `${file} imports ${m[1]}`);
    }
  }
  // The CLI's start compiles only bundle files: the CLI's, beside dist/cli.js, and the files beside
  // a bundle that it requires by a fixed name (`./zod.js`); never text from anywhere else.
  const start = readFileSync(join(ROOT, BUNDLE_START), 'utf8');
  assert.deepEqual(
    [...start.matchAll(/new Script\(([^,]+),/g)].map((m) => m[1]),
    ["wrapped(source.toString('utf8'))"],
  );
  assert.deepEqual(
    [...start.matchAll(/= compileBundle\((.*)\);$/gm)].map((m) => m[1]),
    ['bundle, source, stamp, readIfAny(codeCachePath(bundle))'],
  );
  assert.match(start, /const \{ source, stamp \} = readBundle\(bundle\);/);
  // Loaded: the bundle startCli is given, and a bundle's siblings.
  assert.deepEqual([...start.matchAll(/\.load\(/g)].length, 2);
  assert.match(start, /\n {2}loader\.load\(bundle\);\n/);
  assert.match(start, /\(SIBLING\.test\(id\) \? this\.load\(join\(dir, id\.slice\(2\)\)\) : nodeRequire\(id\)\)/);
  assert.match(start, /const SIBLING = \/\^\\\.\\\/\[\^\/\\\\\]\+\\\.js\$\/;/);
  const cliStart = readFileSync(join(ROOT, 'server/src/cliStart.ts'), 'utf8');
  assert.match(cliStart, /startCli\(join\(__dirname, 'cliMain\.js'\), /);
});

const FS_WRITES = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'rename',
  'renameSync',
  'unlink',
  'unlinkSync',
  'rm',
  'rmSync',
  'rmdir',
  'mkdir',
  'mkdirSync',
  'truncate',
  'ftruncate',
  'copyFile',
  'cp',
  'symlink',
  'link',
  'chmod',
  'chown',
  'utimes',
  'write',
  'writeSync',
  'writev',
];

/** Whether a file uses a write function of Node's fs (named import, or called on an fs namespace/handle opened for writing). */
function writesFiles(text: string): boolean {
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g)) {
    if (m[1]) continue;
    const names = m[2].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
    if (names.some((n) => FS_WRITES.includes(n))) return true;
    if (
      names.includes('promises') &&
      new RegExp(`\\bpromises\\s*(?:as\\s+\\w+)?`).test(m[2]) &&
      new RegExp(`\\b(fs|promises)\\.(${FS_WRITES.join('|')})\\s*\\(`).test(code(text))
    )
      return true;
  }
  const namespaces = [...text.matchAll(/import\s+\*\s+as\s+(\w+)\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g)].map((m) => m[1]);
  return namespaces.some((ns) => new RegExp(`\\b${ns}\\.(${FS_WRITES.join('|')})\\s*\\(`).test(code(text))) || /\bopen\([^)]*['"][wa]\+?['"]/.test(text);
}

test("only the CLI --fix path, report --out, export --out, summarize --out (and its scratch rows), diff --out and the build's code caches write files: no other product source uses a file-system write", () => {
  const writers = PRODUCT.filter((file) => writesFiles(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(writers, [
    'server/src/cli/applyFixes.ts',
    'server/src/cli/diff.ts',
    'server/src/cli/exportPt.ts',
    'server/src/cli/report.ts',
    'server/src/cli/summarize.ts',
    BUNDLE_START,
    'server/src/node/keptRows.ts',
  ]);
  // summarize's prompt rows wait in a scratch file of a folder of their own under the temp dir,
  // removed when the summary is written.
  const kept = readFileSync(join(ROOT, 'server/src/node/keptRows.ts'), 'utf8');
  assert.deepEqual(
    [...kept.matchAll(/\b(mkdtempSync|openSync|rmSync)\(([^,)]+)/g)].map((m) => `${m[1]} ${m[2]}`),
    ['mkdtempSync join(tmpdir(', 'openSync join(this.dir', 'rmSync this.dir'],
  );
  // The code caches: beside their bundles, only on the run the build asks for them.
  const start = readFileSync(join(ROOT, BUNDLE_START), 'utf8');
  assert.deepEqual(
    [...start.matchAll(/\b(writeFileSync|renameSync)\(([^,]+),/g)].map((m) => `${m[1]} ${m[2]}`),
    ['writeFileSync temporary', 'renameSync temporary'],
  );
  assert.match(start, /const path = codeCachePath\(bundle\);\n\s*const temporary = `\$\{path\}\.\$\{process\.pid\}`;/);
  assert.match(
    start,
    /if \(writeCache\) process\.once\('exit', \(\) => this\.compiled\.forEach\(\(compiled, bundle\) => writeCodeCache\(bundle, compiled\)\)\);/,
  );
  const cliStart = readFileSync(join(ROOT, 'server/src/cliStart.ts'), 'utf8');
  assert.match(cliStart, /startCli\(join\(__dirname, 'cliMain\.js'\), process\.env\.ROLLOUT_LENS_WRITE_CODE_CACHE === '1'\);/);
  const exportPt = readFileSync(join(ROOT, 'server/src/cli/exportPt.ts'), 'utf8');
  assert.match(exportPt, /const tmp = out === null \? null : `\$\{out\}\.tmp-\$\{process\.pid\}`;/, 'export writes only beside --out');
  const report = readFileSync(join(ROOT, 'server/src/cli/report.ts'), 'utf8');
  assert.deepEqual(
    [...report.matchAll(/writeFileSync\(([^,]+),/g)].map((m) => m[1]),
    ['args.out'],
    'report writes only the --out file',
  );
  const summarize = readFileSync(join(ROOT, 'server/src/cli/summarize.ts'), 'utf8');
  assert.deepEqual(
    [...summarize.matchAll(/\b(?:writeFileSync|openSync)\(([^,]+),/g)].map((m) => m[1]),
    ['out'],
    'summarize writes only the --out file',
  );
  const fix = readFileSync(join(ROOT, 'server/src/cli/check.ts'), 'utf8');
  assert.match(fix, /if \(args\.fix\) await runFixes/, 'applyFixes runs only with --fix');
});

function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${createHash('sha256').update(readFileSync(p)).digest('hex')}:${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

test('CLI: check without --fix changes no file; check --fix changes only the eval config the finding names', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'eval_config.yaml'), evalConfigYaml('aime', 2));
  writeFileSync(join(dir, 'other_config.yaml'), evalConfigYaml('aime', 2));
  writeFileSync(join(dir, 'eval_0.jsonl'), `${evalLines('aime', 2, 4).join('\n')}\n`);
  const before = hashTree(dir);
  const plain = runCli(['check', 'eval_0.jsonl'], dir);
  assert.equal(plain.status, 1, plain.stderr);
  assert.deepEqual(hashTree(dir), before, 'nothing written without --fix');
  const fixed = runCli(['check', '--fix', 'eval_0.jsonl'], dir);
  assert.match(fixed.stdout, /--fix applied: (\.\/)?eval_config\.yaml/);
  const after = hashTree(dir);
  assert.deepEqual(
    Object.keys(after).filter((k) => after[k] !== before[k]),
    ['eval_config.yaml'],
  );
  assert.match(readFileSync(join(dir, 'eval_config.yaml'), 'utf8'), /n_samples_per_eval_prompt: 4/);
});

test('quick fixes: a WorkspaceEdit on the named config only, never applied by the server; tampered data (outside file, .. path, symlink leaving the workspace, non-file URI) gets no edit', async (t) => {
  const dir = tempDir(t);
  const outside = mkdtempSync(join(tmpdir(), 'rl-outside-'));
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  const config = join(dir, 'eval_config.yaml');
  writeFileSync(config, evalConfigYaml('aime', 2));
  const victim = join(outside, 'victim.yaml');
  writeFileSync(victim, evalConfigYaml('aime', 2));
  symlinkSync(victim, join(dir, 'linked.yaml'));
  const h = await startHarness({ workspaceFolders: [dir] });
  let applyEdits = 0;
  h.client.onRequest('workspace/applyEdit', () => {
    applyEdits++;
    return { applied: false };
  });
  try {
    const before = hashTree(dir);
    const uri = pathToFileURL(join(dir, 'eval_0.jsonl')).href;
    h.open(uri, `${evalLines('aime', 2, 4).join('\n')}\n`);
    const diags = await h.diagnostics(uri, (d) => d.some((x) => x.code === 'misgrouped-dataset'));
    const diag = diags.find((d) => d.code === 'misgrouped-dataset')!;
    const ask = async (d: Diagnostic) =>
      (await h.client.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    const [action] = await ask(diag);
    const edits = (action.edit?.documentChanges ?? []) as TextDocumentEdit[];
    assert.deepEqual(
      edits.map((e) => e.textDocument.uri),
      [pathToFileURL(config).href],
      'the edit targets the named config, nothing else',
    );
    assert.equal(action.command, undefined, 'no command runs with the edit');
    assert.deepEqual(hashTree(dir), before, 'offering a fix writes nothing');
    assert.equal(applyEdits, 0, 'the server never applies an edit itself');

    const tamper = (configFile: string, configUri: string): Diagnostic => {
      const d = structuredClone(diag);
      const data = d.data as { fix: { configFile: string }; configUri: string };
      data.fix.configFile = configFile;
      data.configUri = configUri;
      return d;
    };
    const cases: [string, Diagnostic][] = [
      ['a file outside the workspace', tamper(victim, pathToFileURL(victim).href)],
      ['a .. path out of the workspace', tamper(`${dir}/../${relative(join(dir, '..'), victim)}`, `file://${dir}/../${relative(join(dir, '..'), victim)}`)],
      ['a symlink inside the workspace to a file outside it', tamper(join(dir, 'linked.yaml'), pathToFileURL(join(dir, 'linked.yaml')).href)],
      ['a command: URI', tamper(config, 'command:workbench.action.terminal.sendSequence')],
      ['/etc/passwd', tamper('/etc/passwd', 'file:///etc/passwd')],
    ];
    for (const [what, d] of cases) assert.deepEqual(await ask(d), [], `${what}: no edit offered`);
    assert.equal(readFileSync(victim, 'utf8'), evalConfigYaml('aime', 2));
    assert.equal(applyEdits, 0);
  } finally {
    await h.stop();
  }
});

test('untrusted workspaces: the manifest declares limited support with the eval-config and tokenizer settings restricted, and the client turns quick fixes and setting writes off', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  };
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('rolloutLens.evalConfig'));
  // A file path a workspace could point anywhere: read only where the workspace is trusted.
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('rolloutLens.tokenizer'));
  const client = (f: string) => code(readFileSync(join(ROOT, 'client/src', f), 'utf8'));
  assert.match(client('languageClient.ts'), /provideCodeActions:[^\n]*vscode\.workspace\.isTrusted \? next\(/, 'code actions only in trusted workspaces');
  assert.match(client('quickFix.ts'), /if \(!vscode\.workspace\.isTrusted\)/, "the view's quick fix checks trust");
  assert.match(client('commands.ts'), /if \(!vscode\.workspace\.isTrusted\) throw/, 'setting writes check trust');
  assert.doesNotMatch(
    PRODUCT.filter((f) => f.startsWith('client/'))
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n'),
    /isTrusted\s*=\s*true|isTrusted:\s*true|supportHtml\s*=\s*true/,
    'no markdown is marked trusted or HTML-enabled',
  );
});
