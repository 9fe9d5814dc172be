// The run-summary requests of shared/protocol.ts, the change notification, and the outline,
// through the protocol, on the example run (examples/run) and on temp files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-protocol';
import { analyzeFiles } from '../../server/src/core/engine';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import {
  DEFAULT_SETTINGS,
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  RunStepsRequest,
  type EvalDatasetsResult,
  type GroupsByCauseResult,
  type RolloutLensSettings,
  type RunStepsResult,
} from '../../shared/protocol';
import { evalConfigYaml, evalLines, milesSample, repoRoot, rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace, withHarness } from './harness';
import { EXAMPLE_ROLLOUT, EXAMPLE_ROLLOUT_SETTINGS } from '../shared/exampleRun';

const ROOT = repoRoot();

test('runSteps on the example run folder: one entry per step file, in step order, with its drop counts', async () => {
  await withHarness({ workspaceFolders: [ROOT], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
    const result = (await h.client.sendRequest(RunStepsRequest, { folderUri: pathToFileURL(EXAMPLE_ROLLOUT).href })) as RunStepsResult;
    assert.deepEqual(
      result.steps.map((s) => s.step),
      [1, 2, 3],
    );
    for (const s of result.steps) {
      assert.ok(s.uri.endsWith(`rollout_${s.step}.jsonl`));
      for (const name of Object.keys(s.drops)) assert.match(name, /^rollout\/dynamic_filter\/drop_(group_has_aborted_\w+|zero_std_[\d.a-z-]+)$/);
    }
    // The same numbers as a one-shot engine run over each file (what `rollout-lens check` reports).
    for (const s of result.steps) {
      const path = join(EXAMPLE_ROLLOUT, `rollout_${s.step}.jsonl`);
      const report = await analyzeFiles([{ path, displayPath: path }], {
        access: nodeFileAccess,
        settings: { ...DEFAULT_SETTINGS, ...EXAMPLE_ROLLOUT_SETTINGS } as RolloutLensSettings,
      });
      const drops = Object.fromEntries(Object.entries(report.files[0].metrics).filter(([k]) => k.startsWith('rollout/dynamic_filter/drop_')));
      assert.deepEqual(s.drops, drops);
      assert.ok(Object.keys(drops).length > 0, 'the example run drops groups in every step');
    }
  });
});

test('groupsByCause on a file: buckets by reason with metric and formerly names, kept last, 0-based lines', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    ws.write('rollout_5.jsonl', `${rolloutLines().join('\n')}\n`);
    const result = (await h.client.sendRequest(GroupsByCauseRequest, { uri: ws.uri('rollout_5.jsonl') })) as GroupsByCauseResult;
    assert.equal(result.files.length, 1);
    const [file] = result.files;
    // A miles sample's rollout_id is its rollout (miles main 31f1ca9), not the step: the name gives it.
    assert.equal(file.step, 5, 'the number in the file name');
    assert.deepEqual([file.dropped, file.kept], [1, 2]);
    assert.deepEqual(
      file.buckets.map((b) => b.reason),
      ['group_has_aborted_ServerUnreachable', 'kept'],
    );
    const [dropped, kept] = file.buckets;
    assert.equal(dropped.metric, 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable');
    assert.deepEqual(dropped.formerly, ['rollout/dynamic_filter/drop_group_has_aborted', 'rollout/fully_async/aborted_groups_filtered']);
    assert.equal(dropped.groups[0].key, '1');
    assert.equal(dropped.groups[0].line, 4);
    assert.deepEqual(
      dropped.groups[0].samples.map((s) => [s.line, s.status, s.cause]),
      [
        [4, 'completed', null],
        [5, 'aborted', 'ServerUnreachable'],
        [6, 'completed', null],
        [7, 'completed', null],
      ],
    );
    assert.deepEqual(
      kept.groups.map((g) => g.key),
      ['0', '2'],
    );
    assert.equal(kept.metric, null);
    assert.equal(file.groupsListed, true);
    assert.deepEqual(
      file.buckets.map((b) => [b.count, b.omitted]),
      [
        [1, 0],
        [2, 0],
      ],
    );
  });
});

test('groupsByCause on a run folder: the causes and counts of each file without groups, as its own answer counts them', async () => {
  await withHarness({ workspaceFolders: [ROOT], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
    const folder = (await h.client.sendRequest(GroupsByCauseRequest, { uri: pathToFileURL(EXAMPLE_ROLLOUT).href })) as GroupsByCauseResult;
    assert.deepEqual(
      folder.files.map((f) => f.step),
      [1, 2, 3],
    );
    for (const f of folder.files) {
      assert.equal(f.groupsListed, false);
      for (const b of f.buckets) assert.deepEqual([b.groups, b.omitted], [[], b.count]);
      // The file's own answer: the same buckets in the same order, now with their groups.
      const own = (await h.client.sendRequest(GroupsByCauseRequest, { uri: f.uri })) as GroupsByCauseResult;
      assert.equal(own.files.length, 1);
      const [listed] = own.files;
      assert.equal(listed.groupsListed, true);
      const counts = (x: typeof f) => [x.uri, x.step, x.dropped, x.kept, x.buckets.map((b) => [b.reason, b.metric, b.formerly, b.count])];
      assert.deepEqual(counts(f), counts(listed));
      for (const b of listed.buckets) assert.equal(b.groups.length + b.omitted, b.count);
      assert.ok(listed.buckets.some((b) => b.groups.length > 0));
    }
  });
});

test('groupsByCause without a uri covers the open documents; didOpen sends analysisChanged', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('open.jsonl');
    h.open(uri, `${rolloutLines().join('\n')}\n`);
    const change = await h.waitFor('analysisChanged', () => h.changes.find((c) => c.uri === uri));
    assert.deepEqual(change, { uri, dropped: 1, causes: 1, findings: 1 });
    const result = (await h.client.sendRequest(GroupsByCauseRequest, {})) as GroupsByCauseResult;
    assert.deepEqual(
      result.files.map((f) => f.uri),
      [uri],
    );
  });
});

test('evalDatasets: per-dataset metrics as miles logs them, n and where it came from, the dataset findings', async () => {
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', evalConfigYaml('aime', 4));
  ws.write('eval_0.jsonl', `${evalLines('aime', 2, 4).join('\n')}\n`);
  await inWorkspace(ws, { settings: () => ({ nSamplesPerEvalPrompt: 2 }) }, async (h) => {
    const result = (await h.client.sendRequest(EvalDatasetsRequest, { uri: ws.uri('eval_0.jsonl') })) as EvalDatasetsResult;
    assert.equal(result.datasets.length, 1);
    const [d] = result.datasets;
    assert.deepEqual([d.name, d.samples, d.n, d.nSource, d.line], ['aime', 8, 4, 'dataset', 0]);
    assert.equal(d.metrics['eval/aime'], 0.5);
    assert.equal(d.metrics['eval/aime-pass@4'], 1);
    assert.equal(d.wrongPassAtK?.groupSize, 2);
    assert.deepEqual(
      d.findings.map((f) => [f.code, f.line]),
      [['passk-group-size-mismatch', 0]],
    );
  });
});

test('document symbols: one per group named by key and outcome, dropped groups included, members as children', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('sym.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
    const symbols = (await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['group 0: kept', 'group 1: dropped (group_has_aborted_ServerUnreachable)', 'group 2: kept'],
    );
    assert.equal(symbols[1].kind, SymbolKind.Event);
    // The range ends on the group's last line (ASCII here, so bytes = characters), not on the next line.
    const lines = rolloutLines();
    assert.deepEqual(symbols[1].range, { start: { line: 4, character: 0 }, end: { line: 7, character: lines[7].length } });
    assert.deepEqual(symbols[1].children?.[0].range, { start: { line: 4, character: 0 }, end: { line: 4, character: lines[4].length } });
    assert.deepEqual(
      symbols[1].children?.map((c) => c.name),
      ['line 5: completed', 'line 6: aborted', 'line 7: completed', 'line 8: completed'],
    );
  });
});

test("groupsByCause: a member's exit status (Submitted) is no failure cause, an aborted member's is", async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const lines = [
      milesSample({ group: 0, index: 0, exitStatus: 'Submitted', reward: '1.0' }),
      milesSample({ group: 0, index: 1, status: 'aborted', exitStatus: 'SandboxUnavailable' }),
    ];
    ws.write('rollout_6.jsonl', `${lines.join('\n')}\n`);
    const result = (await h.client.sendRequest(GroupsByCauseRequest, { uri: ws.uri('rollout_6.jsonl') })) as GroupsByCauseResult;
    assert.deepEqual(
      result.files[0].buckets[0].groups[0].samples.map((s) => [s.status, s.cause, s.failureCause]),
      [
        ['completed', 'Submitted', null],
        ['aborted', 'SandboxUnavailable', 'SandboxUnavailable'],
      ],
    );
  });
});

test("document symbols: a completed sample's exit status (Submitted) is its exit status, an aborted one's its cause", async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('exit.jsonl');
    const lines = [
      milesSample({ group: 0, index: 0, exitStatus: 'Submitted', reward: '1.0' }),
      milesSample({ group: 0, index: 1, status: 'aborted', exitStatus: 'SandboxUnavailable' }),
    ];
    await h.openAndWait(uri, `${lines.join('\n')}\n`);
    const symbols = (await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols[0].children?.map((c) => [c.name, c.detail]),
      [
        ['line 1: completed', 'reward 1, exit status Submitted'],
        ['line 2: aborted', 'no reward, SandboxUnavailable'],
      ],
    );
  });
});

test('document symbols are capped (runtime maxSymbols), dropped groups listed first, and the cap is stated', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { runtime: { maxSymbols: 2 } }, async (h) => {
    const uri = ws.uri('cap.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
    const symbols = (await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['group 0: kept', 'group 1: dropped (group_has_aborted_ServerUnreachable)'],
    );
    assert.match(symbols[0].detail ?? '', /outline shows 2 groups, dropped first; 1 more not listed/);
  });
});
