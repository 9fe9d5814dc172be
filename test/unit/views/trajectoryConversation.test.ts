// A miles .pt sample's conversation comes from the step's trajectory sidecar row with the same
// sample_index (docs/pt.md#the-trajectory-sidecar): on the committed fixture run (made by miles'
// own writer, test/fixtures/pt/generate.py) and on a copy whose sidecar has tool calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { readSampleView } from '../../../server/src/core/views/sampleView';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

const RUN = join(repoRoot(), 'test/fixtures/pt/run');

async function inspected(path: string) {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
  return { report: report.files[0], path, access: nodeFileAccess, settings: DEFAULT_SETTINGS };
}

test('fixture step 1: each .pt sample shows its sidecar row as the conversation; a sample without a row has none', async () => {
  const sidecar = join(RUN, 'trajectory/1.jsonl');
  const rows = readFileSync(sidecar, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => ({ line: i + 1, row: JSON.parse(l) as { sample_index: number; messages: { role: string; content: string }[] } }));
  const file = await inspected(join(RUN, 'rollout_data/1.pt'));
  const samples = file.report.detail!.samples;
  let withRow = 0;
  let without = 0;
  for (const s of samples) {
    const view = (await readSampleView(file, s.line))!;
    const row = rows.find((r) => r.row.sample_index === s.index);
    if (!row) {
      without++;
      assert.deepEqual(view.conversation, [], `sample ${s.index}`);
      assert.equal(view.conversationSource, null);
      continue;
    }
    withRow++;
    assert.deepEqual(view.conversationSource, { file: sidecar, line: row.line });
    assert.deepEqual(
      view.conversation.map((m) => [m.role, m.content?.text]),
      row.row.messages.map((m) => [m.role, m.content]),
      `sample ${s.index}`,
    );
  }
  // The fixture has both: rows for samples that reached the model, none for one aborted before.
  assert.ok(withRow > 0 && without > 0, `${withRow} with a row, ${without} without`);
});

test('a sidecar row with tool calls and results, hostile text, and no final newline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-traj-'));
  try {
    mkdirSync(join(dir, 'rollout_data'));
    mkdirSync(join(dir, 'trajectory'));
    const pt = join(dir, 'rollout_data/1.pt');
    copyFileSync(join(RUN, 'rollout_data/1.pt'), pt);
    const messages = [
      { role: 'user', content: '<img src=x onerror=alert(1)> [x](command:evil)' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'python', arguments: '{"code": "print(1)"}' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'python', content: '1' },
      { role: 'assistant', content: 'done' },
    ];
    const other = { sample_index: 1, group_index: 0, messages: [{ role: 'user', content: 'other', note: { sample_index: 0 } }] };
    writeFileSync(join(dir, 'trajectory/1.jsonl'), `${JSON.stringify(other)}\n${JSON.stringify({ sample_index: 0, group_index: 0, messages })}`);
    const file = await inspected(pt);
    const first = file.report.detail!.samples.find((s) => s.index === 0)!;
    const view = (await readSampleView(file, first.line))!;
    assert.deepEqual(view.conversationSource, { file: join(dir, 'trajectory/1.jsonl'), line: 2 });
    assert.deepEqual(
      view.conversation.map((m) => [m.role, m.content?.text ?? null, m.name, m.toolCallId, m.toolCalls.map((c) => [c.id, c.name, c.arguments?.text])]),
      [
        ['user', '<img src=x onerror=alert(1)> [x](command:evil)', null, null, []],
        ['assistant', null, null, null, [['c1', 'python', '{"code": "print(1)"}']]],
        ['tool', '1', 'python', 'c1', []],
        ['assistant', 'done', null, null, []],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dump folder step 1 (miles writer): a .pt sample lists the siblings the sidecar lacks as missing there, with their .pt status', async () => {
  const dump = join(repoRoot(), 'test/fixtures/pt/dumpdir');
  const sidecar = join(dump, 'trajectory/1.jsonl');
  const withRow = new Set(
    readFileSync(sidecar, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { sample_index: number }).sample_index),
  );
  const file = await inspected(join(dump, 'rollout_data/1.pt'));
  const samples = file.report.detail!.samples;
  let marked = 0;
  for (const s of samples) {
    const view = (await readSampleView(file, s.line))!;
    for (const x of view.siblings) {
      assert.notEqual(x.line, null, 'every member is in the .pt');
      const sample = samples.find((y) => y.line === x.line)!;
      assert.equal(x.index, sample.index);
      assert.equal(x.missingIn, withRow.has(x.index!) ? null : sidecar, `index ${x.index} from sample ${s.index}`);
      if (x.missingIn !== null) {
        marked++;
        assert.equal(x.status, sample.status);
        assert.equal(x.status, 'aborted');
      }
    }
  }
  // The sidecar lacks indexes 5, 8, 10 and 17 (aborted before any model call), each listed by the 4 samples of its group.
  assert.deepEqual(
    samples.filter((s) => !withRow.has(s.index!)).map((s) => s.index),
    [5, 8, 10, 17],
  );
  assert.equal(marked, 16);
  const first = samples.find((s) => s.index === 4)!;
  const view = (await readSampleView(file, first.line))!;
  assert.deepEqual(
    view.siblings.map((x) => [x.index, x.status, x.cause, x.missingIn === null ? null : 'missing']),
    [
      [4, 'completed', null, null],
      [5, 'aborted', 'ServerUnreachable', 'missing'],
      [6, 'completed', null, null],
      [7, 'completed', null, null],
    ],
  );
});
