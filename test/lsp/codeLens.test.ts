// "Open Sample" CodeLenses through the protocol: one per failed sample line (fixed title, the
// client's command with the document and 0-based line), only for clients that run the command,
// and at most MAX_CODE_LENSES per document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { OpenSampleCommand } from '../../shared/protocol';
import { MAX_CODE_LENSES } from '../../server/src/server/features/codeLens';
import { milesSample, rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace } from './harness';

const HOSTILE = 'boom [click](command:workbench.action.terminal.sendSequence) <img src=x onerror=alert(1)>';

async function lenses(withCommand: boolean, text: string, wait: (d: unknown[]) => boolean): Promise<CodeLens[]> {
  const ws = tempWorkspace();
  return inWorkspace(ws, { initializationOptions: withCommand ? { clientCommands: [OpenSampleCommand] } : {} }, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    await h.openAndWait(uri, text, wait);
    return (await h.client.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
  });
}

test('codeLens: "Open Sample" on the aborted sample line only, with the document and 0-based line', async () => {
  const got = await lenses(true, `${rolloutLines(HOSTILE).join('\n')}\n`, (d) => d.length > 0);
  assert.equal(got.length, 1);
  const [lens] = got;
  assert.deepEqual(lens.range, { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } });
  assert.equal(lens.command?.title, 'Open Sample');
  assert.equal(lens.command?.command, OpenSampleCommand);
  assert.equal(lens.command?.arguments?.length, 2);
  assert.match(String(lens.command?.arguments?.[0]), /rollout_1\.jsonl$/);
  assert.equal(lens.command?.arguments?.[1], 5);
});

test('codeLens: none for a client that does not run the command', async () => {
  assert.deepEqual(await lenses(false, `${rolloutLines(HOSTILE).join('\n')}\n`, (d) => d.length > 0), []);
});

test('codeLens: at most MAX_CODE_LENSES on a file of many failed samples, in line order', async () => {
  const lines: string[] = [];
  for (let i = 0; i < MAX_CODE_LENSES + 40; i++) lines.push(milesSample({ group: i, index: i, status: 'aborted', exitStatus: 'ServerUnreachable' }));
  const got = await lenses(true, `${lines.join('\n')}\n`, (d) => d.length > 0);
  assert.equal(got.length, MAX_CODE_LENSES);
  got.forEach((l, i) => assert.equal(l.range.start.line, i));
});

test('codeLens: none above completed samples whose exit_status is Submitted (real agentic files); one above each failure', async () => {
  const lines: string[] = [];
  // Group 0: four finished attempts, each with metadata.exit_status "Submitted": no failure among them.
  for (let i = 0; i < 4; i++) lines.push(milesSample({ group: 0, index: i, exitStatus: 'Submitted', reward: i % 2 ? '0.0' : '1.0' }));
  // Group 1: an unlisted exit status on a completed sample is no failure either; an infrastructure
  // failure kept and scored, a policy failure scored 0 and a failed status are failures.
  lines.push(milesSample({ group: 1, index: 4, exitStatus: 'AgentFinished' }));
  lines.push(milesSample({ group: 1, index: 5, exitStatus: 'SandboxUnavailable', reward: '0.0' }));
  lines.push(milesSample({ group: 1, index: 6, exitStatus: 'TimeLimitExceeded', reward: '0.0' }));
  lines.push(milesSample({ group: 1, index: 7, status: 'failed', exitStatus: 'Submitted', reward: '0.0' }));
  lines.push(milesSample({ group: 2, index: 8, status: 'aborted', exitStatus: 'Submitted' }));
  const got = await lenses(true, `${lines.join('\n')}\n`, (d) => d.length > 0);
  assert.deepEqual(
    got.map((l) => l.range.start.line),
    [5, 6, 7, 8],
  );
});
