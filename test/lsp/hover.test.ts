// Hover on sample lines through the protocol: what the filter did to the group and why, the cause
// and who caused it, the metric and its older chart names, the members, and for an aborted sample
// its message and metadata re-read from the document by offset, all rendered inert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { evalConfigYaml, evalLines, milesSample, rolloutLines, tempWorkspace } from './fixtures';
import { type Harness, inWorkspace, PUSH_CAPS } from './harness';

type Renderer = { render(src: string): string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const md = (require('markdown-it') as (o: object) => Renderer)({ html: true, linkify: true });

const HOSTILE =
  'boom [click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D) <img src=x onerror=alert(1)> ![p](https://evil.example/p.png) ``` ** \u202Egnp.exe';

async function hover(h: Harness, uri: string, line: number, kind: 'markdown' | 'plaintext' = 'markdown'): Promise<string | null> {
  const result = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 3 } })) as Hover | null;
  if (!result) return null;
  const contents = result.contents as MarkupContent;
  assert.equal(contents.kind, kind);
  return contents.value;
}

/** The rendered HTML may hold only the tags our own fixed markdown makes. */
function assertInert(markdown: string): string {
  const html = md.render(markdown);
  const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
  for (const tag of tags) assert.ok(['p', 'strong', 'code', 'ul', 'li', 'pre', 'em', 'br'].includes(tag), `unexpected <${tag}> in ${html}`);
  assert.ok(!/href|src=|onerror=/i.test(html.replace(/&[a-z]+;/g, '')) || !/<a |<img /.test(html), `live link or image in ${html}`);
  assert.ok(!html.includes('<a '), 'no link');
  assert.ok(!html.includes('<img'), 'no image');
  return html;
}

test('hover on an aborted sample: group dropped and why, infrastructure cause, metric with formerly names, members, escaped message', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    await h.openAndWait(uri, `${rolloutLines(HOSTILE).join('\n')}\n`);
    const text = await hover(h, uri, 5);
    assert.ok(text);
    // One headline first (the editor puts Open Sample after it), then the details, each said once.
    const [head, facts, filter] = text.split('\n\n');
    assert.equal(head, '**group `1` dropped: `ServerUnreachable` (infrastructure), right to discard**');
    assert.equal(facts, 'line 6 · status `aborted` · reward `null` · index 5 · step 1');
    assert.equal(
      filter,
      'Aborted-group filter: reason `group_has_aborted_ServerUnreachable`, counted in `rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable`. ' +
        'miles main (31f1ca9) logs it in `rollout/dynamic_filter/drop_group_has_aborted` (sync), `rollout/fully_async/aborted_groups_filtered` (fully async).',
    );
    for (const said of ['infrastructure', '`group_has_aborted_ServerUnreachable`', 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable'])
      assert.equal(text.split(said).length - 1, 1, `${said} said once`);
    // The common aborted-sample hover is short before the line's own detail (its fields and message).
    const beforeDetail = text.slice(0, text.indexOf('`metadata.exit_status`'));
    assert.ok(beforeDetail.length < 600, `${beforeDetail.length} characters before the detail`);
    for (const line of [5, 6, 7, 8]) assert.match(text, new RegExp(`- line ${line}: `), `member line ${line} listed`);
    assert.match(text, /- line 6: this sample\n/);
    assert.match(text, /`metadata\.exit_status`: `ServerUnreachable`/);
    assert.match(text, /`metadata\.error` \(as logged\):/);
    // The hostile message is in a fence longer than its own backtick run, with the RLO made visible.
    assert.ok(text.includes('````text\nboom [click](command:'), 'message shown verbatim in a fence');
    assert.ok(text.includes('<U+202E>gnp.exe'));
    assert.ok(!text.includes('undefined'), 'fields absent from the record are left out');
    const html = assertInert(text);
    assert.ok(html.includes('boom [click](command:workbench'), 'the link text is shown as text');
  });
});

test('hover on a kept sample names the kept group and no drop metric; no hover on a line without a sample', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n\n`);
    const text = await hover(h, uri, 0);
    assert.ok(text);
    assert.match(text, /^\*\*group `0` kept\*\*\n\nline 1 · status `completed` · reward `1\.0` · index 0 · step 1\n\nNo sample aborted\./);
    assert.ok(!text.includes('Counted in'), 'a kept group counts in no drop metric');
    assert.ok(!text.includes('as logged'), 'a completed sample needs no failure detail');
    assertInert(text);
    assert.equal(await hover(h, uri, 12), null, 'the blank last line holds no sample');
  });
});

test('hover escapes hostile group keys, causes and dataset names taken from the log', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_x.jsonl');
    const cause = '[x](command:evil)<b>`';
    const lines = [0, 1].map((i) =>
      milesSample({ group: 0, index: i, status: i === 0 ? 'aborted' : 'completed', exitStatus: cause, reward: i === 0 ? 'null' : '0.0' }),
    );
    await h.openAndWait(uri, `${lines.join('\n')}\n`);
    for (const line of [0, 1]) {
      const text = await hover(h, uri, line);
      assert.ok(text);
      const html = assertInert(text);
      assert.ok(html.includes('[x](command:evil)&lt;b&gt;`'), `cause shown as text in ${html}`);
    }
  });
});

test("hover on an aborted eval attempt: its prompt group (the dataset's own n), scored 0 not discarded, the dataset metric and the older crash", async () => {
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', evalConfigYaml('aime', 4));
  await inWorkspace(ws, { settings: () => ({ nSamplesPerEvalPrompt: 3 }) }, async (h) => {
    const uri = ws.uri('eval_0.jsonl');
    const lines = evalLines('aime', 2, 4);
    lines[6] = milesSample({
      group: 1,
      index: 6,
      dataset: 'aime',
      prompt: 'Solve problem 1',
      status: 'aborted',
      exitStatus: 'SandboxUnavailable',
      meta: { error: 'sandbox gone' },
    });
    await h.openAndWait(uri, `${lines.join('\n')}\n`);
    const text = await hover(h, uri, 6);
    assert.ok(text);
    assert.match(text, /^\*\*`aime` attempt failed: `SandboxUnavailable` \(infrastructure\), scored 0 in the dataset's score and pass@k\*\*\n\n/);
    assert.match(text, /Prompt group 1: the dataset's samples 4–7 in index order, 4 per prompt; pass@k counts reward 1\./);
    for (const line of [5, 6, 7, 8]) assert.match(text, new RegExp(`- line ${line}: `));
    assert.ok(!text.includes('right to discard'), 'the training verdict does not apply to eval');
    assert.match(text, /Dataset `aime`: 8 samples, 4 per prompt \(dataset\); `eval\/aime` = `0\.375`/);
    assert.match(text, /miles main \(31f1ca9\) groups pass@k by 3 instead: `AssertionError: len\(flat_rewards\)=8 num_groups=2 group_size=3`/);
    assertInert(text);
  });
});

test('hover on a verl rollout row with an empty response: the group is kept and the row masked (verl has no aborted-group filter)', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('1.jsonl');
    const rows = [0, 1, 2, 3].map((i) =>
      JSON.stringify({ input: 'What is 6*7?', output: i === 1 ? '' : '42', gts: '42', score: i === 1 ? 0.0 : 1.0, step: 1, uid: `u0_0_${i}` }),
    );
    h.open(uri, `${rows.join('\n')}\n`);
    await h.waitFor('analysis', () => h.changes.find((c) => c.uri === uri));
    const text = await hover(h, uri, 1);
    assert.ok(text);
    assert.match(text, /^\*\*group `u0` kept: verl masks this empty response out of the loss\*\*/);
    assert.match(
      text,
      /verl has no aborted-group filter: a sample with an empty response \(`response_length` 0\) is masked out of the loss and of `critic\/score\/mean`\./,
    );
    assert.ok(!text.includes('group_has_aborted_unknown'), 'no miles drop reason for verl');
    assertInert(text);
  });
});

/** The rollout test log, its aborted sample (line 6) carrying the hostile message. */
function hostileRollout(): string {
  const lines = rolloutLines(HOSTILE);
  return `${lines.join('\n')}\n`;
}

test('a client announcing only plaintext gets a plain-text hover: no markdown syntax, log text still made visible', async () => {
  const ws = tempWorkspace();
  const caps = { ...PUSH_CAPS, textDocument: { ...PUSH_CAPS.textDocument, hover: { contentFormat: ['plaintext' as const] } } };
  await inWorkspace(ws, { capabilities: caps }, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    await h.openAndWait(uri, hostileRollout());
    const text = await hover(h, uri, 5, 'plaintext');
    assert.ok(text);
    assert.match(text, /^group 1 dropped: ServerUnreachable \(infrastructure\), right to discard\n\nline 6 · status aborted · reward null/);
    assert.match(
      text,
      /counted in rollout\/dynamic_filter\/drop_group_has_aborted_ServerUnreachable\. miles main \(31f1ca9\) logs it in rollout\/dynamic_filter\/drop_group_has_aborted \(sync\)/,
    );
    assert.match(text, /metadata\.exit_status: ServerUnreachable\n/);
    assert.match(text, /metadata\.error \(as logged\):\n\n {4}boom \[click\]\(command:/, 'the message indented, verbatim');
    // Markdown syntax of the hover's own: none. The log's own `` ``` `` and `**` are shown as they are, in the indented message only.
    const ours = text.replace(/^ {4}.*$/gm, '');
    assert.doesNotMatch(ours, /\*\*|`|\\[.\\_()[\]*-]/, `markdown syntax in ${ours}`);
    assert.ok(text.includes('<U+202E>gnp.exe'), 'the bidi override is shown escaped');
    assert.ok(!text.includes('\u202E'), 'no raw bidi override');
  });
});

test('a client listing plaintext before markdown gets plain text; markdown first gets markdown', async () => {
  for (const [formats, kind] of [
    [['plaintext', 'markdown'], 'plaintext'],
    [['markdown', 'plaintext'], 'markdown'],
  ] as const) {
    const ws = tempWorkspace();
    const caps = { ...PUSH_CAPS, textDocument: { ...PUSH_CAPS.textDocument, hover: { contentFormat: [...formats] } } };
    await inWorkspace(ws, { capabilities: caps }, async (h) => {
      const uri = ws.uri('rollout_1.jsonl');
      await h.openAndWait(uri, hostileRollout());
      const text = await hover(h, uri, 0, kind);
      assert.ok(text);
      assert.equal(text.includes('**group'), kind === 'markdown');
    });
  }
});

test('markdown hovers show identifiers and values in code spans, never backslash-escaped', async () => {
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', evalConfigYaml('aime', 4));
  await inWorkspace(ws, { settings: () => ({ nSamplesPerEvalPrompt: 4 }) }, async (h) => {
    const rollout = ws.uri('rollout_1.jsonl');
    await h.openAndWait(rollout, hostileRollout());
    const evalUri = ws.uri('eval_0.jsonl');
    await h.openAndWait(evalUri, `${evalLines('aime', 2, 4).join('\n')}\n`, () => true);
    const texts = [await hover(h, rollout, 5), await hover(h, rollout, 0), await hover(h, evalUri, 1)];
    for (const text of texts) {
      assert.ok(text);
      // Outside the fenced message, no backslash escape at all.
      const prose = text.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
      assert.doesNotMatch(prose, /\\[.\\_/()[\]*-]/, `a backslash escape in ${prose}`);
      assertInert(text);
    }
    assert.match(texts[0]!, /`metadata\.exit_status`: `ServerUnreachable`/);
    assert.match(texts[1]!, /reward `1\.0`/);
    assert.match(texts[2]!, /`eval\/aime` = `[0-9.]+`/);
    const html = md.render(texts[1]!);
    assert.ok(html.includes('<code>1.0</code>'), `the reward renders as code: ${html}`);
  });
});

test('a completed sample whose exit_status is Submitted: its exit status, no failure cause, no failure detail', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    const lines = [0, 1, 2, 3].map((i) => milesSample({ group: 0, index: i, exitStatus: 'Submitted', reward: i % 2 ? '0.0' : '1.0' }));
    await h.openAndWait(uri, `${lines.join('\n')}\n`, () => true);
    const text = await hover(h, uri, 1);
    assert.ok(text);
    assert.match(text, /^\*\*group `0` kept\*\*\n\nline 2 · status `completed` · reward `0\.0` · index 1 · step 1 · exit status `Submitted`\n\n/);
    assert.ok(!/cause/i.test(text), `no cause in ${text}`);
    assert.ok(!text.includes('metadata.exit_status'), 'no failure detail read for a finished attempt');
  });
});

test('a policy abort: the headline says the drop hides a policy failure, and the finding code follows', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    const lines = [0, 1].map((i) =>
      milesSample({ group: 0, index: i, status: i === 0 ? 'aborted' : 'completed', exitStatus: i === 0 ? 'TimeLimitExceeded' : 'Submitted' }),
    );
    await h.openAndWait(uri, `${lines.join('\n')}\n`, () => true);
    const text = await hover(h, uri, 0);
    assert.ok(text);
    assert.match(text, /^\*\*group `0` dropped: `TimeLimitExceeded` \(policy\), wrong to discard: a failure the policy can cause is hidden from training\*\*/);
    assert.match(text, /`policy-failure-discarded`/);
    assert.match(text, /- line 2: `completed`, reward `1\.0`\n|- line 2: `completed`, reward `1\.0`$/m);
  });
});
