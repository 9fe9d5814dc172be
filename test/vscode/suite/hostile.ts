// Log text is written by the model under training: a cause that carries a command link, HTML and
// terminal escapes must reach the views as inert text (labels escape control characters; tooltips
// are untrusted markdown without HTML, with the text escaped).
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, openLog, unescapeMarkdown, waitFor, wsUri } from './helpers';
import { test } from './runner';

const EVIL = 'x[run](command:workbench.action.terminal.new)<img src=x onerror=alert(1)>\u001b[31m\u202e';

test('hostile log text: labels escape control/bidi characters, tooltips are untrusted, HTML-free, escaped markdown', async () => {
  const a = await api();
  mkdirSync(wsUri('hostile').fsPath, { recursive: true });
  const rows = [0, 1, 2, 3].map((i) =>
    JSON.stringify({
      group_index: 0,
      index: i,
      prompt: 'p',
      response: i === 0 ? '' : 'r',
      reward: i === 0 ? null : 1.0,
      status: i === 0 ? 'aborted' : 'completed',
      metadata: i === 0 ? { exit_status: EVIL } : { exit_status: 'Submitted' },
    }),
  );
  writeFileSync(wsUri('hostile', 'rollout_7.jsonl').fsPath, `${rows.join('\n')}\n`);
  await openLog('hostile', 'rollout_7.jsonl');
  const bucket = await waitFor(() => a.groups.find((n) => n.kind === 'reason' && n.id.includes('hostile')), "the hostile group's cause");
  assert.ok(!/[\u0000-\u001f\u202e]/.test(bucket.label), `label: ${JSON.stringify(bucket.label)}`);
  assert.ok(bucket.label.includes('\\u001b') && bucket.label.includes('\\u202e'), bucket.label);
  const group = bucket.children[0];
  for (const tip of [bucket.tooltip, group.tooltip] as vscode.MarkdownString[]) {
    assert.equal(tip.isTrusted, false);
    assert.equal(tip.supportHtml, false);
    assert.ok(!tip.value.includes('[run](command:'), 'no live command link');
    assert.ok(tip.value.includes('\\[run\\]\\(command:'), `escaped: ${tip.value}`);
    assert.ok(unescapeMarkdown(tip.value).includes('x[run](command:workbench.action.terminal.new)<img src=x onerror=alert(1)>'), 'the text itself is kept');
  }
  assert.ok(!/[\u0000-\u001f\u202e]/.test(group.children[0].description ?? ''), 'sample descriptions too');
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  // Not left behind: the run-level suites count the example run's own steps.
  rmSync(wsUri('hostile', 'rollout_7.jsonl').fsPath, { force: true });
});
