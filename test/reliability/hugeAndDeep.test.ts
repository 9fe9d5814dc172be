// A 100 MB single line and 100 000 levels of nesting, through the built CLI (a separate process
// with Node's default stack) and through the real language server (documents and hovers): no
// stack overflow, no crash, the lines around them still analysed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';

import { withHarness } from '../lsp/harness';
import { cliJson, groupLines, milesSample, tempDir, write } from './helpers';

const DEPTH = 100_000;

/** Deeply nested lines (each in its own way) between good groups; [line text, what it must become]. */
function deepLines(): [string, 'record' | 'invalid-record' | 'invalid-json'][] {
  const arr = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
  const obj = `${'{"a": '.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
  return [
    [arr, 'invalid-record'], // an array is not a record
    [milesSample({ group: 90, index: 900, exitStatus: 'Submitted' }).replace('"metadata": {', `"metadata": {"trace": ${arr}, `), 'record'],
    [milesSample({ group: 90, index: 901 }).replace(/"prompt": "[^"]*"/, `"prompt": ${obj}`), 'record'],
    [milesSample({ group: 91, index: 902, reward: obj }), 'record'],
    [milesSample({ group: 91, index: 903 }).replace('"tokens": [', `"tokens": [${arr}, `), 'record'],
    [`${'['.repeat(DEPTH)}${']'.repeat(DEPTH - 1)}`, 'invalid-json'], // one bracket short
    [`{"group_index": 92, "index": 904, "metadata": ${'{"a": '.repeat(DEPTH)}`, 'invalid-json'],
  ];
}

test('100 000 levels of nesting (arrays and objects in metadata, prompt, reward, tokens; unbalanced): the CLI analyses every other line, no stack overflow', (t) => {
  const dir = tempDir(t);
  const deep = deepLines();
  const good = groupLines(0, 4);
  write(dir, 'deep.jsonl', `${[...good.slice(0, 8), ...deep.map(([l]) => l), ...good.slice(8)].join('\n')}\n`);
  const r = cliJson(['deep.jsonl'], dir);
  assert.equal(r.status, 1, r.stderr); // the unbalanced lines are errors
  assert.doesNotMatch(r.stderr, /RangeError|stack/i);
  const f = r.doc.files[0];
  assert.equal(f.records, good.length + deep.filter(([, k]) => k === 'record').length);
  assert.equal(f.invalidLines, deep.filter(([, k]) => k !== 'record').length);
  const bad = r.doc.findings.filter((x) => x.code === 'invalid-json' || x.code === 'invalid-record').map((x) => [x.line, x.code]);
  const expected = deep.flatMap(([, k], i) => (k === 'record' ? [] : [[9 + i, k]]));
  assert.deepEqual(
    bad.filter(([, c]) => c === 'invalid-json'),
    expected.filter(([, c]) => c === 'invalid-json'),
  );
  assert.ok(
    bad.some(([line, c]) => line === 9 && c === 'invalid-record'),
    'the nested array line is not a record',
  );
  assert.equal(f.groups.dropped, 1, 'group 1 of the good lines is still dropped');
});

test('100 000 levels of nesting in an open document: the language server publishes diagnostics, answers hovers on every line and the outline, and stays up', async () => {
  const deep = deepLines();
  const good = groupLines(0, 4);
  const lines = [...good.slice(0, 8), ...deep.map(([l]) => l), ...good.slice(8)];
  await withHarness({}, async (h) => {
    const uri = pathToFileURL(join('/tmp', 'rl-deep-not-on-disk', 'deep.jsonl')).href;
    h.open(uri, `${lines.join('\n')}\n`);
    const diags = await h.diagnostics(uri, (d) => d.length > 0);
    assert.ok(diags.some((d) => d.code === 'invalid-json' && d.range.start.line === 8 + 5));
    assert.ok(diags.some((d) => d.code === 'group-dropped'));
    for (let line = 0; line < lines.length; line++) {
      const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 3 } })) as Hover | null;
      if (hover) assert.equal((hover.contents as MarkupContent).kind, 'markdown');
    }
    const symbols = (await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as unknown[];
    assert.ok(symbols.length >= 4);
    const after = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 0 } })) as Hover;
    assert.match((after.contents as MarkupContent).value, /dropped/);
  });
});

test('a 100 MB single line (a token array) between good lines: the CLI reads it, analyses the lines around it, JSON contract intact', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'huge.jsonl');
  const good = groupLines(0, 3);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${good.slice(0, 6).join('\n')}\n`);
    writeSync(
      fd,
      '{"group_index": 77, "index": 770, "prompt": "long", "response": "r", "response_length": 1, "status": "completed", "reward": 1.0, "tokens": [',
    );
    const block = Buffer.from('151643, '.repeat(1 << 17)); // 1 MiB
    for (let written = 0; written < 100 * 1024 * 1024; written += block.length) writeSync(fd, block);
    writeSync(fd, `7]}\n${good.slice(6).join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  const r = cliJson(['huge.jsonl'], dir);
  assert.equal(r.status, 0, r.stderr);
  const f = r.doc.files[0];
  assert.equal(f.records, good.length + 1);
  assert.equal(f.invalidLines, 0);
  assert.deepEqual(f.groups, { total: 4, kept: 3, dropped: 1 });
});
