// A miles `.pt` dump opened as a read-only JSON Lines document (docs/pt.md): the server reads the
// dump (`rolloutLens/ptAsJsonl`, nothing in it is run) and this provider serves the text under the
// `rollout-lens-pt` scheme, in the `jsonl` language, so diagnostics, hover, the outline and the
// trees apply to it like to any log. Line N is sample N.
import * as vscode from 'vscode';
import { LANGUAGE_ID, PT_VIEW_SCHEME } from '../../shared/protocol';
import type { ServerApi } from './serverApi';

export const PT_SCHEME = PT_VIEW_SCHEME;

/** The view's URI: the dump's path + `.jsonl`, the dump's own URI in the query. */
export function ptViewUri(file: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: PT_SCHEME, path: `${file.path}.jsonl`, query: file.toString() });
}

/**
 * Opening a `.pt` (explorer, Quick Open, `vscode.open`) lands here instead of the binary editor: the
 * dump is shown as its JSON Lines view and this placeholder tab closes. The placeholder shows only
 * our own text, never the file's.
 */
export const PT_EDITOR_VIEW_TYPE = 'rolloutLens.ptDump';

class PtDumpEditor implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = { enableScripts: false };
    panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body>Opening the dump as JSON Lines…</body></html>`;
    const opened = await vscode.commands.executeCommand<string | undefined>('rolloutLens.openPtAsJsonl', document.uri);
    if (opened) panel.dispose();
  }
}

export function registerPtView(api: ServerApi): vscode.Disposable[] {
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: async (uri, token) => {
      const r = await api.ptAsJsonl(vscode.Uri.parse(uri.query), token);
      // Problems are file text (a callable's name): shown as plain message text, never markup.
      if (r.problems.length > 0) void vscode.window.showWarningMessage(`Rollout Lens: ${r.problems.slice(0, 3).join(' · ')}`);
      return r.text;
    },
  };
  return [
    vscode.workspace.registerTextDocumentContentProvider(PT_SCHEME, provider),
    vscode.window.registerCustomEditorProvider(PT_EDITOR_VIEW_TYPE, new PtDumpEditor(), { supportsMultipleEditorsPerDocument: true }),
    vscode.commands.registerCommand('rolloutLens.openPtAsJsonl', async (uri?: vscode.Uri) => {
      let file = uri instanceof vscode.Uri ? uri : undefined;
      if (!file) {
        const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'miles dumps': ['pt'] } });
        file = picked?.[0];
      }
      if (!file) return undefined;
      try {
        const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(ptViewUri(file)), LANGUAGE_ID);
        await vscode.window.showTextDocument(doc, { preview: false });
        return doc.uri.toString();
      } catch (err) {
        void vscode.window.showErrorMessage(`Rollout Lens: cannot open ${file.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }),
  ];
}
