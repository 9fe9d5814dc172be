// Run-level findings in the real VS Code (docs/editors.md#run-level-findings): the example run's
// metrics.jsonl shows the metric-mismatch findings `check` gives for the run folder, and follows an
// unsaved edit of the eval dump (then its revert). The expected lines come from `check`, run by
// extension.test.ts on this workspace before VS Code starts (ROLLOUT_LENS_RUN_METRICS).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, diagnostics, withoutAutoSave, wsUri } from './helpers';
import { test } from './runner';

interface Expected {
  expected: string[];
  after: string[];
  edit: { file: string; line: number; from: string; to: string };
}

/** As test/shared/checkRun.ts writes them: code, 0-based line, LSP severity, message. */
function lines(ds: readonly vscode.Diagnostic[]): string[] {
  return ds.map((d) => `${codeOf(d)}\t${d.range.start.line}\t${d.severity + 1}\t${d.message}`).sort();
}

function metricsShow(uri: vscode.Uri, want: string[], what: string): Promise<vscode.Diagnostic[]> {
  return diagnostics(uri, (ds) => JSON.stringify(lines(ds)) === JSON.stringify(want), what).catch((err: unknown) => {
    const now = lines(vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rollout-lens'));
    assert.deepEqual(now, want, String(err));
    throw err;
  });
}

test("metrics.jsonl: check's metric-mismatch findings, following an unsaved edit of the eval dump and its revert", async () => {
  const { expected, after, edit } = JSON.parse(process.env.ROLLOUT_LENS_RUN_METRICS ?? 'null') as Expected;
  assert.ok(expected.length > 0 && expected.every((l) => l.startsWith('metric-mismatch\t')), expected.join('\n'));
  await api();
  // The edit must stay unsaved.
  await withoutAutoSave(async () => {
    const metrics = wsUri('metrics.jsonl');
    await vscode.window.showTextDocument(metrics, { preview: false });
    await metricsShow(metrics, expected, "check's findings on metrics.jsonl");

    const dumpUri = wsUri(...edit.file.split('/'));
    const dump = await vscode.window.showTextDocument(dumpUri, { preview: false });
    const text = dump.document.lineAt(edit.line - 1).text;
    const at = text.indexOf(edit.from);
    assert.ok(at >= 0, `line ${edit.line} of ${edit.file}: ${text.slice(0, 80)}`);
    const change = new vscode.WorkspaceEdit();
    change.replace(dumpUri, new vscode.Range(edit.line - 1, at, edit.line - 1, at + edit.from.length), edit.to);
    assert.ok(await vscode.workspace.applyEdit(change));
    await metricsShow(metrics, after, "check's findings on metrics.jsonl once the eval dump is edited");

    await vscode.window.showTextDocument(dump.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(dump.document.isDirty, false);
    assert.ok(dump.document.lineAt(edit.line - 1).text.includes(edit.from), 'the revert restored the saved text');
    await metricsShow(metrics, expected, "check's findings on metrics.jsonl once the edit is reverted");
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
