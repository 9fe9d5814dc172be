// A miles `.pt` sample is readable like a JSON Lines one: the hover and the sample view on its JSON
// Lines view (the `rollout-lens-pt:` document an editor shows, docs/pt.md) read the dump it names,
// on the dump folder miles' own writer made (test/fixtures/pt/dumpdir: sample 6 of step 1, index 5,
// aborted with ServerUnreachable, has no trajectory row). And on the trajectory sidecar, the member
// it lacks is shown as missing, with its status from the `.pt`, in its place (no other member twice).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';

import { PT_VIEW_SCHEME, PtAsJsonlRequest, SampleViewRequest, dumpUriOfPtView, type PtAsJsonlResult } from '../../shared/protocol';
import type { SampleView, TreeValue } from '../../shared/sampleViewModel';
import { repoRoot } from './fixtures';
import { type Harness, withHarness } from './harness';

const DUMP = join(repoRoot(), 'test/fixtures/pt/dumpdir');
const PT = join(DUMP, 'rollout_data/1.pt');
const PT_URI = pathToFileURL(PT).href;
/** As VS Code writes the view's URI (client/src/ptView.ts): the dump's URI, encoded, as the query. */
const VIEW_URI = `${PT_VIEW_SCHEME}:${pathToFileURL(`${PT}.jsonl`).pathname}?${encodeURIComponent(PT_URI)}`;

async function hover(h: Harness, uri: string, line: number): Promise<string> {
  const result = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 3 } })) as Hover | null;
  assert.ok(result, `a hover on line ${line + 1}`);
  return (result.contents as MarkupContent).value;
}

/** Opens the dump's JSON Lines view as an editor does and waits for its analysis. */
async function openView(h: Harness): Promise<void> {
  const r = (await h.client.sendRequest(PtAsJsonlRequest, { uri: PT_URI })) as PtAsJsonlResult;
  await h.openAndWait(VIEW_URI, r.text, (d) => d.some((x) => x.code === 'group-dropped'));
}

function leaf(tree: TreeValue | null, key: string): string | undefined {
  if (tree?.kind !== 'object') return undefined;
  const found = tree.entries.find(([k]) => k === key)?.[1];
  return found?.kind === 'scalar' ? found.text : undefined;
}

test('the view URI names its dump; other URIs name none', () => {
  assert.equal(dumpUriOfPtView(VIEW_URI), PT_URI);
  assert.equal(dumpUriOfPtView(PT_URI), null);
  assert.equal(dumpUriOfPtView(`${PT_VIEW_SCHEME}:/x/1.pt.jsonl`), null);
  assert.equal(dumpUriOfPtView(`${PT_VIEW_SCHEME}:/x/1.jsonl?${encodeURIComponent('file:///x/1.jsonl')}`), null);
});

test('a .pt sample in its JSON Lines view: the hover reads the dump (members, exit status), not the view text', async () => {
  await withHarness({ workspaceFolders: [DUMP] }, async (h) => {
    await openView(h);
    const aborted = await hover(h, VIEW_URI, 5);
    const [head, facts] = aborted.split('\n\n');
    assert.equal(head, '**group `1` dropped: `ServerUnreachable` (infrastructure), right to discard**');
    assert.equal(facts, 'line 6 · status `aborted` · reward `0.0` · index 5 · step 1');
    for (const line of [5, 6, 7, 8]) assert.match(aborted, new RegExp(`- line ${line}: `), `member line ${line}`);
    assert.match(aborted, /`metadata\.exit_status`: `ServerUnreachable`/);
    assert.ok(!aborted.includes('unavailable'), aborted);
    const kept = await hover(h, VIEW_URI, 0);
    assert.match(kept, /^\*\*group `0` kept\*\*/);
    assert.match(kept, /reward `1\.0`/);
  });
});

test('a .pt sample in its JSON Lines view: the sample view shows prompt, response, reward, label, metadata, siblings, and its trajectory row', async () => {
  await withHarness({ workspaceFolders: [DUMP] }, async (h) => {
    for (const open of [false, true]) {
      // Asked before the view is open (the dump read from disk), then with the view open.
      if (open) await openView(h);
      const v = (await h.client.sendRequest(SampleViewRequest, { uri: VIEW_URI, line: 5 })) as SampleView;
      assert.equal(v.unavailable, null);
      assert.equal(v.title, 'rollout_data/1.pt · sample 6');
      assert.equal(v.file, 'rollout_data/1.pt');
      assert.deepEqual([v.status, v.reward, v.label?.text, v.response?.text, v.cause?.name], ['aborted', 0, '3', 'answer 5', 'ServerUnreachable']);
      assert.deepEqual(
        v.prompt.map((m) => [m.role, m.content?.text]),
        [['user', 'Solve problem 1: 2 + 1 = ?']],
      );
      assert.equal(leaf(v.metadata, 'exit_status'), 'ServerUnreachable');
      assert.deepEqual(
        v.siblings.map((s) => [s.line, s.index, s.current]),
        [
          [5, 4, false],
          [6, 5, true],
          [7, 6, false],
          [8, 7, false],
        ],
      );
      // Index 5 was aborted before any model call: the sidecar has no row for it, and the view says so.
      assert.deepEqual(v.conversation, []);
      assert.match(v.conversationMissing ?? '', /^trajectory\/1\.jsonl has no row for this sample \(index 5\)/);
      const withRow = (await h.client.sendRequest(SampleViewRequest, { uri: VIEW_URI, line: 4 })) as SampleView;
      assert.deepEqual(withRow.conversationSource, { file: 'trajectory/1.jsonl', line: 5 });
      assert.equal(withRow.conversationMissing, null);
      assert.deepEqual(
        withRow.conversation.map((m) => m.role),
        ['user', 'assistant'],
      );
    }
  });
});

test('the trajectory sidecar: a member it lacks is listed as missing, with its status from the .pt, in its place', async () => {
  await withHarness({ workspaceFolders: [DUMP] }, async (h) => {
    const uri = pathToFileURL(join(DUMP, 'trajectory/1.jsonl')).href;
    // Row 5 is sample index 4, of group 1 (indexes 4–7; index 5 has no row).
    const v = (await h.client.sendRequest(SampleViewRequest, { uri, line: 4 })) as SampleView;
    assert.equal(v.title, 'trajectory/1.jsonl:5');
    assert.deepEqual(
      v.siblings.map((s) => [s.line, s.index, s.status, s.cause, s.missingFrom]),
      [
        [5, 4, 'completed', null, null],
        [null, 5, 'aborted', 'ServerUnreachable', { file: 'rollout_data/1.pt', line: 6 }],
        [6, 6, 'completed', null, null],
        [7, 7, 'completed', null, null],
      ],
    );
    // The hover of the open sidecar lists the same members, each once, the missing one in its place.
    await h.openAndWait(uri, readFileSync(join(DUMP, 'trajectory/1.jsonl'), 'utf8'), (d) => d.some((x) => x.code === 'trajectory-verdicts-from-pt'));
    const text = await hover(h, uri, 4);
    const members = text.split('\n').filter((l) => l.startsWith('- '));
    assert.deepEqual(members, [
      '- line 5: this sample',
      '- index 5: missing here; `aborted`, cause `ServerUnreachable` in `rollout_data/1.pt` line 6',
      '- line 6: `completed`, reward `0.0`',
      '- line 7: `completed`, reward `1.0`',
    ]);
    // Group 2 lacks two members (indexes 8 and 10, both aborted).
    const g2 = (await h.client.sendRequest(SampleViewRequest, { uri, line: 7 })) as SampleView;
    assert.deepEqual(
      g2.siblings.map((s) => [s.line, s.index, s.status]),
      [
        [null, 8, 'aborted'],
        [8, 9, 'completed'],
        [null, 10, 'aborted'],
        [9, 11, 'completed'],
      ],
    );
  });
});
