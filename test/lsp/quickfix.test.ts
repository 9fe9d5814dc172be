// initialize → didOpen → diagnostics → codeAction → apply the edit → diagnostics clear, for the
// two fixable eval findings, through the protocol, on real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { SetNSamplesPerEvalPromptCommand } from '../../shared/protocol';
import { evalConfigYaml, evalLines, tempWorkspace } from './fixtures';
import { type Harness, inWorkspace } from './harness';

async function codeActions(h: Harness, uri: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
  const range = diagnostics[0].range;
  return (await h.client.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } })) as CodeAction[];
}

function applyTo(text: string, edit: TextDocumentEdit): string {
  const doc = TextDocument.create('file:///x', 'yaml', 0, text);
  return TextDocument.applyEdits(
    doc,
    edit.edits.filter((e): e is typeof e & { newText: string } => 'newText' in e),
  );
}

test('initialize → didOpen → misgrouped-dataset → hover → quick fix edits only the dataset value in the eval config (comments kept); saving it clears the diagnostic', async () => {
  const ws = tempWorkspace();
  const configPath = ws.write('eval_config.yaml', evalConfigYaml('aime', 2));
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('eval_0.jsonl');
    const text = `${evalLines('aime', 2, 4).join('\n')}\n`;
    ws.write('eval_0.jsonl', text);
    const diags = await h.openAndWait(uri, text, (d) => d.some((x) => x.code === 'misgrouped-dataset'));
    const diag = diags.find((d) => d.code === 'misgrouped-dataset')!;
    assert.equal(diag.severity, 1);
    assert.equal(
      diag.message,
      'dataset aime is misgrouped: prompts repeat 4 times in a row but n_samples_per_eval_prompt is 2, so every pass@k is over wrong groups; set it to 4',
    );
    const configUri = pathToFileURL(configPath).href;
    assert.deepEqual(diag.data, {
      fix: { kind: 'set-n-samples-per-eval-prompt', dataset: 'aime', value: 4, configFile: configPath },
      configUri,
      group: null,
      dataset: 'aime',
      globalValue: null,
    });
    // Related information points at the eval config's line for the dataset.
    const related = diag.relatedInformation?.find((r) => r.location.uri === configUri);
    assert.ok(related, 'the eval config line is related');
    assert.match(readFileSync(configPath, 'utf8').split('\n')[related.location.range.start.line], /aime|n_samples_per_eval_prompt/);

    // Hover on the flagged line names the dataset and its n.
    const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } })) as {
      contents: { value: string };
    };
    assert.match(hover.contents.value, /Dataset `aime`: 8 samples, 2 per prompt \(dataset\);/);

    const actions = await codeActions(h, uri, [diag]);
    assert.equal(actions.length, 1, 'no global alternative: the client announced no command, and the dataset sets its own n');
    const [action] = actions;
    assert.equal(action.kind, 'quickfix');
    assert.equal(action.isPreferred, true);
    assert.equal(action.title, 'Set n_samples_per_eval_prompt of aime to 4 in eval_config.yaml');
    const change = action.edit?.documentChanges?.[0] as TextDocumentEdit;
    assert.equal(change.textDocument.uri, configUri);
    assert.equal(change.textDocument.version, null, 'the config is not open: unversioned edit');
    const before = readFileSync(configPath, 'utf8');
    const after = applyTo(before, change);
    assert.equal(after, before.replace('n_samples_per_eval_prompt: 2', 'n_samples_per_eval_prompt: 4'), 'only the value changed; comments and layout kept');

    const mark = h.published.length;
    writeFileSync(configPath, after);
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: 2 }] });
    const cleared = await h.diagnostics(uri, (d) => !d.some((x) => x.code === 'misgrouped-dataset'), mark);
    assert.deepEqual(
      cleared.map((d) => d.code),
      [],
    );
  });
});

test('an open, unsaved eval config gets a versioned edit, and applying it in the editor clears the diagnostic', async () => {
  const ws = tempWorkspace();
  const configPath = ws.write('eval_config.yaml', evalConfigYaml('aime', 2));
  await inWorkspace(ws, {}, async (h) => {
    const configUri = pathToFileURL(configPath).href;
    // The editor holds the config open with an unsaved change above the dataset (an extra comment).
    const unsaved = `# edited in the editor\n${readFileSync(configPath, 'utf8')}`;
    h.open(configUri, unsaved, 7, 'yaml');
    const uri = ws.uri('eval_0.jsonl');
    const diags = await h.openAndWait(uri, `${evalLines('aime', 2, 4).join('\n')}\n`, (d) => d.some((x) => x.code === 'misgrouped-dataset'));
    const [action] = await codeActions(
      h,
      uri,
      diags.filter((d) => d.code === 'misgrouped-dataset'),
    );
    const change = action.edit?.documentChanges?.[0] as TextDocumentEdit;
    assert.equal(change.textDocument.version, 7);
    const after = applyTo(unsaved, change);
    assert.equal(after, unsaved.replace('n_samples_per_eval_prompt: 2', 'n_samples_per_eval_prompt: 4'));
    const mark = h.published.length;
    h.change(configUri, 8, after);
    await h.diagnostics(uri, (d) => d.length === 0, mark);
  });
});

test("passk-group-size-mismatch: only the global value (the dataset's own n, as a client command), never a config edit the log contradicts; setting it clears it", async () => {
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', evalConfigYaml('aime', 4));
  let settings: Record<string, unknown> = { nSamplesPerEvalPrompt: 2 };
  await inWorkspace(
    ws,
    {
      settings: () => settings,
      initializationOptions: { clientCommands: [SetNSamplesPerEvalPromptCommand] },
    },
    async (h) => {
      const uri = ws.uri('eval_0.jsonl');
      const diags = await h.openAndWait(uri, `${evalLines('aime', 2, 4).join('\n')}\n`, (d) => d.some((x) => x.code === 'passk-group-size-mismatch'));
      const diag = diags.find((d) => d.code === 'passk-group-size-mismatch')!;
      assert.match(String(diag.message), /^pass@k group-size mismatch: dataset aime has 4 samples per prompt but pass@k is grouped by 2/);
      const actions = await codeActions(h, uri, [diag]);
      // Setting aime's n to 2 in the config would make this log (4 per prompt) misgrouped-dataset.
      assert.deepEqual(
        actions.map((a) => [a.title, a.isPreferred === true]),
        [['Set the global n_samples_per_eval_prompt (rolloutLens.nSamplesPerEvalPrompt) to 4', true]],
      );
      const command = actions[0].command!;
      assert.equal(command.command, SetNSamplesPerEvalPromptCommand);
      assert.deepEqual(command.arguments, [{ resourceUri: uri, value: 4 }]);
      // What the client's command does: update the setting; the server hears didChangeConfiguration.
      const mark = h.published.length;
      settings = { nSamplesPerEvalPrompt: 4 };
      void h.client.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await h.diagnostics(uri, (d) => !d.some((x) => x.code === 'passk-group-size-mismatch'), mark);
    },
  );
});

test('no edit is offered for an eval config outside the workspace folders', async () => {
  const ws = tempWorkspace();
  const outside = mkdtempSync(join(tmpdir(), 'rl-outside-'));
  writeFileSync(join(outside, 'eval_config.yaml'), evalConfigYaml('aime', 2));
  await inWorkspace(ws, {}, async (h) => {
    const uri = pathToFileURL(join(outside, 'eval_0.jsonl')).href;
    const diags = await h.openAndWait(uri, `${evalLines('aime', 2, 4).join('\n')}\n`, (d) => d.some((x) => x.code === 'misgrouped-dataset'));
    const actions = await codeActions(
      h,
      uri,
      diags.filter((d) => d.code === 'misgrouped-dataset'),
    );
    assert.deepEqual(actions, []);
    await h.waitFor('a log line saying why', () => h.logs.find((l) => l.message.includes('outside the workspace')));
  });
});

test('tampered diagnostic data naming another file gets no edit', async () => {
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', evalConfigYaml('aime', 2));
  const victim = ws.write('victim.yaml', 'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2\n');
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('eval_0.jsonl');
    const diags = await h.openAndWait(uri, `${evalLines('aime', 2, 4).join('\n')}\n`, (d) => d.some((x) => x.code === 'misgrouped-dataset'));
    const diag = structuredClone(diags.find((d) => d.code === 'misgrouped-dataset')!);
    const data = diag.data as { fix: { configFile: string }; configUri: string };
    data.fix.configFile = victim;
    data.configUri = pathToFileURL(victim).href;
    assert.deepEqual(await codeActions(h, uri, [diag]), []);
  });
});

test('an eval config created beside an open eval log (watch event) is picked up', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('eval_0.jsonl');
    h.open(uri, `${evalLines('aime', 2, 4).join('\n')}\n`);
    const before = await h.diagnostics(uri);
    assert.ok(!before.some((d) => d.code === 'misgrouped-dataset'), 'without a config n is inferred from the log');
    const mark = h.published.length;
    const configPath = ws.write('eval_config.yaml', evalConfigYaml('aime', 2));
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(configPath).href, type: 1 }] });
    await h.diagnostics(uri, (d) => d.some((x) => x.code === 'misgrouped-dataset'), mark);
  });
});
