// What the server last said about each log (`rolloutLens/analysisChanged`), by URI, plus the logs
// being read right now (huge files), so the status bar and the views agree.
import * as vscode from 'vscode';
import type { AnalysisChangedParams } from '../../shared/protocol';

/** One key per file however a client spells its URI (`%3A` or `:`). */
export function uriKey(uri: vscode.Uri | string): string {
  return (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri).toString();
}

export class AnalysisState implements vscode.Disposable {
  private readonly byUri = new Map<string, AnalysisChangedParams>();
  private readonly reading = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with the URI key whose state changed. */
  readonly onDidChange = this.emitter.event;

  update(params: AnalysisChangedParams): void {
    const key = uriKey(params.uri);
    this.byUri.set(key, params);
    this.emitter.fire(key);
  }

  get(uri: vscode.Uri): AnalysisChangedParams | undefined {
    return this.byUri.get(uriKey(uri));
  }

  setReading(uri: vscode.Uri, on: boolean): void {
    const key = uriKey(uri);
    if (on) this.reading.add(key);
    else this.reading.delete(key);
    this.emitter.fire(key);
  }

  isReading(uri: vscode.Uri): boolean {
    return this.reading.has(uriKey(uri));
  }

  /** The server restarted: what it said before no longer holds. */
  clear(): void {
    this.byUri.clear();
    this.emitter.fire('');
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
