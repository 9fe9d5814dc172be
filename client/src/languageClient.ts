// The language client: `dist/server.js` over node IPC, for JSON Lines logs (VS Code's built-in
// `jsonl` language, and *.jsonl/*.ndjson files by name) and the miles eval configs the analysis
// reads (synced so an unsaved config edit counts at once). Settings section `rolloutLens`.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { LOG_FILE_GLOB } from '../../shared/logFiles';
import {
  LANGUAGE_ID,
  OpenSampleCommand,
  SETTINGS_SECTION,
  SetNSamplesPerEvalPromptCommand,
  type RolloutLensInitializationOptions,
  WorkspaceTrustNotification,
} from '../../shared/protocol';

export const CLIENT_ID = 'rolloutLens';
export const CLIENT_NAME = 'Rollout Lens';

export const DOCUMENT_SELECTOR = [
  { language: LANGUAGE_ID },
  { scheme: 'file', pattern: LOG_FILE_GLOB },
  { scheme: 'untitled', language: LANGUAGE_ID },
  // miles eval configs (`eval_config.yaml` beside a log, or any *eval*.yaml/json the setting names).
  { scheme: 'file', pattern: '**/*eval*.{yaml,yml,json}' },
];

export function createLanguageClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  // Trust decides whether the server reads a path a log names outside the workspace (docs/editors.md#token-text).
  // A function: a restarted server is told the trust of that moment.
  const initializationOptions = (): RolloutLensInitializationOptions => ({
    clientCommands: [SetNSamplesPerEvalPromptCommand, OpenSampleCommand],
    workspaceTrusted: vscode.workspace.isTrusted,
  });
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    synchronize: { configurationSection: SETTINGS_SECTION },
    outputChannel: output,
    initializationOptions,
    middleware: {
      // Untrusted workspaces get read-only analysis: no edits offered to their files.
      provideCodeActions: (document, range, ctx, token, next) => (vscode.workspace.isTrusted ? next(document, range, ctx, token) : []),
      // A sample's hover: its headline (the server's first paragraph), then a link that opens it in
      // the sample view, then the details. The link is built here from the document and line (no
      // log text) and trusted for that one command only; the server's text stays untrusted.
      provideHover: async (document, position, token, next) => {
        const hover = await next(document, position, token);
        if (!hover) return hover;
        const args = encodeURIComponent(JSON.stringify([document.uri.toString(), position.line]));
        const link = new vscode.MarkdownString(`[Open Sample](command:${OpenSampleCommand}?${args} "Open this sample in the sample view")`);
        link.isTrusted = { enabledCommands: [OpenSampleCommand] };
        const [first, ...others] = hover.contents;
        const value = first instanceof vscode.MarkdownString ? first.value : undefined;
        const cut = value?.indexOf('\n\n') ?? -1;
        if (value === undefined || cut < 0) return new vscode.Hover([...hover.contents, link], hover.range);
        const headline = new vscode.MarkdownString(value.slice(0, cut));
        const details = new vscode.MarkdownString(value.slice(cut + 2));
        return new vscode.Hover([headline, link, details, ...others], hover.range);
      },
    },
  };
  const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  // Trust granted while the server runs: it may read such paths from now on.
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client.isRunning()) void client.sendNotification(WorkspaceTrustNotification, { trusted: true }).catch(() => undefined);
    }),
  );
  return client;
}
