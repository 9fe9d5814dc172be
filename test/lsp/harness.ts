// In-process LSP harness: the real server (`startServer`) on one end of a pair of streams, a real
// protocol client (`vscode-languageserver-protocol`) on the other. Nothing is mocked: messages
// are framed, serialised and dispatched exactly as over stdio. Waits are event-driven with a
// bound (no fixed sleeps): every incoming message re-checks what a test waits for.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { AnalysisChangedNotification, type AnalysisChangedParams } from '../../shared/protocol';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import type { ServerRuntime } from '../../server/src/server/runtime';
import { startServer } from '../../server/src/server/startServer';
import type { TempWorkspace } from './fixtures';

export const WAIT_MS = 15_000;

export interface HarnessOptions {
  capabilities?: ClientCapabilities;
  workspaceFolders?: string[];
  initializationOptions?: unknown;
  runtime?: Partial<ServerRuntime>;
  /** What `workspace/configuration` answers for the `rolloutLens` section of a scope. */
  settings?: (scopeUri: string | undefined) => unknown;
}

export const PUSH_CAPS: ClientCapabilities = {
  workspace: { configuration: true, workspaceEdit: { documentChanges: true }, didChangeWatchedFiles: { dynamicRegistration: true } },
  textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } },
  window: { workDoneProgress: true },
};

export const PULL_CAPS: ClientCapabilities = {
  ...PUSH_CAPS,
  workspace: { ...PUSH_CAPS.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...PUSH_CAPS.textDocument, diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } },
};

export interface Harness {
  client: ProtocolConnection;
  init: InitializeResult;
  /** Every publishDiagnostics, in arrival order. */
  published: PublishDiagnosticsParams[];
  logs: { type: number; message: string }[];
  changes: AnalysisChangedParams[];
  progress: { token: string | number; value: { kind: string; percentage?: number; message?: string } }[];
  refreshes: number;
  registrations: { method: string; registerOptions?: unknown }[];
  /** Resolves with `check()`'s first non-undefined value; re-checked on every message; rejects after `ms`. */
  waitFor<T>(what: string, check: () => T | undefined, ms?: number): Promise<T>;
  /** The next publishDiagnostics for `uri` (after `sinceIndex` in `published`) that satisfies `accept`. */
  diagnostics(uri: string, accept?: (d: Diagnostic[], p: PublishDiagnosticsParams) => boolean, sinceIndex?: number): Promise<Diagnostic[]>;
  open(uri: string, text: string, version?: number, languageId?: string): void;
  /** Opens `uri` (version 1) and waits for its diagnostics that `accept` takes (by default: any finding). */
  openAndWait(uri: string, text: string, accept?: (d: Diagnostic[], p: PublishDiagnosticsParams) => boolean): Promise<Diagnostic[]>;
  change(uri: string, version: number, text: string): void;
  close(uri: string): void;
  setSettings(settings: (scopeUri: string | undefined) => unknown): void;
  stop(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverConnection = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(serverConnection, { access: nodeFileAccess, debounceMs: 10, pollIntervalMs: 0, ...options.runtime });
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const events = new EventEmitter();
  events.setMaxListeners(1000);
  let settings = options.settings ?? (() => ({}));

  const h = {
    client,
    published: [] as PublishDiagnosticsParams[],
    logs: [] as { type: number; message: string }[],
    changes: [] as AnalysisChangedParams[],
    progress: [] as Harness['progress'],
    refreshes: 0,
    registrations: [] as Harness['registrations'],
  };
  const bump = () => events.emit('message');
  client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    h.published.push(p);
    bump();
  });
  client.onNotification('window/logMessage', (p: { type: number; message: string }) => {
    h.logs.push(p);
    bump();
  });
  client.onNotification(AnalysisChangedNotification, (p: AnalysisChangedParams) => {
    h.changes.push(p);
    bump();
  });
  client.onNotification('$/progress', (p: Harness['progress'][number]) => {
    h.progress.push(p);
    bump();
  });
  client.onRequest('workspace/configuration', (p: { items: { scopeUri?: string; section?: string }[] }) =>
    p.items.map((item) => (item.section === 'rolloutLens' ? settings(item.scopeUri) : null)),
  );
  client.onRequest('client/registerCapability', (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
    h.registrations.push(...p.registrations);
    bump();
    return null;
  });
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onRequest('workspace/diagnostic/refresh', () => {
    h.refreshes++;
    bump();
    return null;
  });
  client.listen();

  const folders = options.workspaceFolders ?? [];
  const init = (await client.sendRequest('initialize', {
    processId: null, // a number would make the server watch that process and exit with it
    rootUri: null,
    capabilities: options.capabilities ?? PUSH_CAPS,
    workspaceFolders: folders.map((f) => ({ uri: `file://${f}`, name: f })),
    initializationOptions: options.initializationOptions,
  })) as InitializeResult;
  await client.sendNotification('initialized', {});

  function waitFor<T>(what: string, check: () => T | undefined, ms = WAIT_MS): Promise<T> {
    return new Promise((resolve, reject) => {
      const test = () => {
        let value: T | undefined;
        try {
          value = check();
        } catch (err) {
          done();
          reject(err);
          return;
        }
        if (value !== undefined) {
          done();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        events.off('message', test);
      };
      events.on('message', test);
      test();
    });
  }

  const diagnostics: Harness['diagnostics'] = (uri, accept = () => true, sinceIndex = 0) =>
    waitFor(`diagnostics for ${uri}`, () => {
      for (let i = h.published.length - 1; i >= sinceIndex; i--) {
        const p = h.published[i];
        if (p.uri === uri) return accept(p.diagnostics, p) ? p.diagnostics : undefined;
      }
      return undefined;
    });
  const open: Harness['open'] = (uri, text, version = 1, languageId = 'jsonl') => {
    void client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  };

  return {
    ...h,
    get refreshes() {
      return h.refreshes;
    },
    init,
    waitFor,
    diagnostics,
    open,
    openAndWait(uri, text, accept = (d) => d.length > 0) {
      open(uri, text);
      return diagnostics(uri, accept);
    },
    change(uri, version, text) {
      void client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    },
    close(uri) {
      void client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    setSettings(next) {
      settings = next;
    },
    async stop() {
      await client.sendRequest('shutdown');
      // No `exit`: in this process it would end the test runner.
      client.dispose();
      serverConnection.dispose();
      toServer.end();
      toClient.end();
    },
  };
}

/** `body` with a harness on `options`; afterwards, whatever `body` throws, the harness is stopped. */
export async function withHarness<T>(options: HarnessOptions, body: (h: Harness) => Promise<T>): Promise<T> {
  const h = await startHarness(options);
  try {
    return await body(h);
  } finally {
    await h.stop();
  }
}

/**
 * `body` with a harness on `options`, whose workspace folder is `ws` unless `options` names others
 * (`workspaceFolders: []`: no root); afterwards, whatever `body` throws, the harness is stopped and
 * `ws` removed.
 */
export async function inWorkspace<T>(ws: TempWorkspace, options: HarnessOptions, body: (h: Harness) => Promise<T>): Promise<T> {
  try {
    return await withHarness({ workspaceFolders: [ws.dir], ...options }, body);
  } finally {
    ws.remove();
  }
}
