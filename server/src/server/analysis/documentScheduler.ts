// Open documents: analysis debounced per document, stale work cancelled. Each edit restarts the
// document's timer and cancels a running analysis of an older version; a result is kept only if
// the document still has the version that was analysed. Waiters (pull diagnostics, hover) can
// ask for the result of the current version.
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver';
import type { FileAnalysis } from './fileAnalysis';
import type { Timers } from '../runtime';

export interface DocumentRef {
  uri: string;
  version: number;
}

interface Waiter {
  version: number;
  resolve: (result: FileAnalysis | undefined) => void;
}

interface DocState {
  timer?: unknown;
  source?: CancellationTokenSource;
  waiters: Waiter[];
}

export interface DocumentSchedulerOptions {
  timers: Timers;
  debounceMs: number;
  /** The document as it is now (undefined when closed). */
  current(uri: string): DocumentRef | undefined;
  /** Runs the analysis; throws the engine's CancelledError (or any error) when it produced nothing. */
  analyze(doc: DocumentRef, token: CancellationToken): Promise<FileAnalysis>;
  onResult(result: FileAnalysis): void;
  onError(uri: string, err: unknown): void;
}

export class DocumentScheduler {
  private readonly states = new Map<string, DocState>();
  private readonly results = new Map<string, FileAnalysis>();

  constructor(private readonly opts: DocumentSchedulerOptions) {}

  /** Latest result for the document, whatever its version. */
  latest(uri: string): FileAnalysis | undefined {
    return this.results.get(uri);
  }

  all(): FileAnalysis[] {
    return [...this.results.values()];
  }

  /** (Re)starts the debounce timer; `delayMs` 0 runs on the next tick. */
  schedule(uri: string, delayMs = this.opts.debounceMs): void {
    const state = this.state(uri);
    if (state.timer !== undefined) this.opts.timers.clearTimeout(state.timer);
    state.source?.cancel(); // the running analysis is for an older version or older settings
    state.timer = this.opts.timers.setTimeout(() => {
      state.timer = undefined;
      void this.run(uri, state);
    }, delayMs);
  }

  /** Document closed: cancel its work, forget its result, release its waiters. */
  close(uri: string): void {
    const state = this.states.get(uri);
    if (state) {
      if (state.timer !== undefined) this.opts.timers.clearTimeout(state.timer);
      state.source?.cancel();
      for (const w of state.waiters) w.resolve(undefined);
    }
    this.states.delete(uri);
    this.results.delete(uri);
  }

  /**
   * The result for the document's current version: at once if there is one, else when the
   * pending analysis finishes. Undefined when the document closes, the token fires, or the
   * analysis of that version failed.
   */
  resultForCurrent(uri: string, token?: CancellationToken): Promise<FileAnalysis | undefined> {
    const doc = this.opts.current(uri);
    if (!doc) return Promise.resolve(undefined);
    const have = this.results.get(uri);
    if (have && have.version === doc.version) return Promise.resolve(have);
    const state = this.state(uri);
    if (state.timer === undefined && state.source === undefined) this.schedule(uri, 0);
    return new Promise((resolve) => {
      const waiter: Waiter = { version: doc.version, resolve };
      state.waiters.push(waiter);
      token?.onCancellationRequested(() => {
        state.waiters = state.waiters.filter((w) => w !== waiter);
        resolve(undefined);
      });
    });
  }

  private state(uri: string): DocState {
    let state = this.states.get(uri);
    if (!state) {
      state = { waiters: [] };
      this.states.set(uri, state);
    }
    return state;
  }

  private async run(uri: string, state: DocState): Promise<void> {
    const doc = this.opts.current(uri);
    if (!doc || this.states.get(uri) !== state) return;
    const source = new CancellationTokenSource();
    state.source = source;
    let result: FileAnalysis | undefined;
    try {
      result = await this.opts.analyze(doc, source.token);
    } catch (err) {
      if (!source.token.isCancellationRequested) this.opts.onError(uri, err);
    } finally {
      if (state.source === source) state.source = undefined;
      source.dispose();
    }
    const now = this.opts.current(uri);
    const stale = source.token.isCancellationRequested || !now || now.version !== doc.version || this.states.get(uri) !== state;
    if (!stale && result) {
      this.results.set(uri, result);
      this.opts.onResult(result);
    }
    if (!stale) this.release(state, doc.version, result);
  }

  /** Waiters for this version (or older ones, now superseded) get the result. */
  private release(state: DocState, version: number, result: FileAnalysis | undefined): void {
    const ready = state.waiters.filter((w) => w.version <= version);
    state.waiters = state.waiters.filter((w) => w.version > version);
    for (const w of ready) w.resolve(result);
  }
}
