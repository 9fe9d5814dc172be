// Logs VS Code does not sync to extensions: above 50 MB it opens them in the editor but never sends
// a didOpen, and a smaller "very large" file (10 MB remote, 1 GB local) waits behind "Open Anyway"
// with no document at all. Noticed through their editor tabs and handed to the server's
// `rolloutLens/analyzeFile`, which streams them from disk, with progress and a cancel button.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { WorkDoneProgress, type WorkDoneProgressBegin, type WorkDoneProgressReport } from 'vscode-languageclient/node';
import type { AnalyzeFileResult } from '../../shared/protocol';
import type { AnalysisState } from './analysisState';
import type { ServerApi } from './serverApi';
import { baseName } from './text';
import { isLogUri } from './viewTarget';

/** VS Code's extension-host sync limit (characters; a UTF-8 file at or below it in bytes always syncs). */
export const SYNC_LIMIT = 50 * 1024 * 1024;
/** How long a smaller log's tab may wait for its document before the server reads it from disk. */
const OPEN_WAIT_MS = 3000;

function isSynced(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
}

/** Whether the document of a freshly opened tab arrives within `ms` (it may follow the tab). */
function documentArrives(uri: vscode.Uri, ms: number): Promise<boolean> {
  if (isSynced(uri)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (v: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(v);
    };
    const timer = setTimeout(() => done(isSynced(uri)), ms);
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.toString() === uri.toString()) done(true);
    });
  });
}

export class HugeFiles implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  /** `uri → size:mtime` already sent, so a tab switch does not read a file again. */
  private readonly sent = new Map<string, string>();
  /** Tabs being looked at right now (tab events come in bursts). */
  private readonly checking = new Set<string>();
  /** Results of `analyzeFile`, by URI (for the API and tests). */
  readonly results = new Map<string, AnalyzeFileResult>();
  private seq = 0;

  constructor(
    private readonly server: ServerApi,
    private readonly client: () => LanguageClient | undefined,
    private readonly state: AnalysisState,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.subs.push(vscode.window.tabGroups.onDidChangeTabs((e) => void this.check([...e.opened, ...e.changed])));
    void this.check(vscode.window.tabGroups.all.flatMap((g) => g.tabs));
  }

  /** After a server restart every huge file must be sent again. */
  reset(): void {
    this.sent.clear();
    void this.check(vscode.window.tabGroups.all.flatMap((g) => g.tabs));
  }

  private async check(tabs: readonly vscode.Tab[]): Promise<void> {
    for (const tab of tabs) {
      const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
      if (!isLogUri(uri) || uri.scheme !== 'file' || isSynced(uri) || this.checking.has(uri.toString())) continue;
      this.checking.add(uri.toString());
      void this.checkOne(uri).finally(() => this.checking.delete(uri.toString()));
    }
  }

  private async checkOne(uri: vscode.Uri): Promise<void> {
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      return;
    }
    const stamp = `${stat.size}:${stat.mtime}`;
    if (this.sent.get(uri.toString()) === stamp) return;
    if (stat.size <= SYNC_LIMIT && (await documentArrives(uri, OPEN_WAIT_MS))) return; // synced normally
    this.sent.set(uri.toString(), stamp);
    void this.analyze(uri);
  }

  /** Streams one huge log through the server, showing its progress. */
  analyze(uri: vscode.Uri): Thenable<AnalyzeFileResult | undefined> {
    const title = `Rollout Lens: reading ${baseName(uri)}`;
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const workDoneToken = `rolloutLens/analyzeFile/${++this.seq}`;
      let last = 0;
      const sub = this.client()?.onProgress(WorkDoneProgress.type, workDoneToken, (v) => {
        if (v.kind === 'end') return;
        const pct = (v as WorkDoneProgressBegin | WorkDoneProgressReport).percentage;
        const increment = pct === undefined ? undefined : Math.max(0, pct - last);
        if (pct !== undefined) last = pct;
        progress.report({ message: v.message, increment });
      });
      this.state.setReading(uri, true);
      try {
        const result = await this.server.analyzeFile({ uri: uri.toString(), workDoneToken }, token);
        this.results.set(uri.toString(), result);
        this.output.info(`${baseName(uri)}: ${result.records} records, ${result.invalidLines} invalid lines, ${result.findings} findings`);
        return result;
      } catch (err) {
        this.sent.delete(uri.toString()); // let the next tab event try again
        if (!token.isCancellationRequested) this.output.error(`reading ${uri.fsPath} failed: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      } finally {
        sub?.dispose();
        this.state.setReading(uri, false);
      }
    });
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
