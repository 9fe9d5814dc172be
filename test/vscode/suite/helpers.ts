// Helpers for the extension-host suites: bounded condition waits (never fixed sleeps), the
// extension's API, and paths in the test workspace.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RolloutLensTestApi } from '../../../client/src/api';

export const EXTENSION_ID = 'rollout-lens.rollout-lens';

/** Polls `check` until it returns a truthy value; fails after `ms` naming what it waited for. */
export async function waitFor<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50)); // poll interval of a bounded wait, not a sleep-for-effect
  }
}

export async function api(): Promise<RolloutLensTestApi> {
  const ext = vscode.extensions.getExtension<RolloutLensTestApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  const a = await ext.activate();
  await a.ready;
  return a;
}

export function wsUri(...parts: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need a workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...parts);
}

export async function openLog(...parts: string[]): Promise<vscode.TextEditor> {
  const uri = wsUri(...parts);
  return vscode.window.showTextDocument(uri, { preview: false });
}

export function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c);
}

/** Diagnostics of our server for a file, waiting until `ready` holds for them. */
export function diagnostics(uri: vscode.Uri, ready: (ds: vscode.Diagnostic[]) => boolean, what: string): Promise<vscode.Diagnostic[]> {
  return waitFor(() => {
    const ds = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rollout-lens');
    return ready(ds) ? ds : undefined;
  }, what);
}

/**
 * The quick fixes VS Code offers (vscode.executeCodeActionProvider) for the first diagnostic of
 * `uri` that `which` picks, waiting until there is one (`what` names it).
 */
export async function quickFixes(uri: vscode.Uri, which: (d: vscode.Diagnostic) => boolean, what: string): Promise<vscode.CodeAction[]> {
  const ds = await diagnostics(uri, (d) => d.some(which), what);
  const diag = ds.find(which)!;
  return vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range, vscode.CodeActionKind.QuickFix.value);
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** What a markdown string escaped by `appendText` reads as (backslash escapes, `&nbsp;`). */
export function unescapeMarkdown(value: string): string {
  return value.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}

/**
 * Runs `body` with auto-save off: the web workbench saves after a delay by default, and a test's
 * unsaved edit must stay unsaved (and be reverted, not written to the shared workspace).
 */
export async function withoutAutoSave<T>(body: () => Promise<T>): Promise<T> {
  const files = vscode.workspace.getConfiguration('files');
  const autoSave = files.inspect('autoSave')?.globalValue;
  await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
  try {
    return await body();
  } finally {
    await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  }
}

/** Where a screenshot goes: docs/ when updating them, else test/.tmp/ beside the workbench one. */
export function shotPath(name: string): string {
  const main = process.env.ROLLOUT_LENS_SCREENSHOT ?? wsUri('screenshot.png').fsPath;
  return join(main, '..', name);
}

/** A screenshot of the workbench by the code-server host (none under desktop VS Code). */
export async function screenshot(name: string): Promise<void> {
  if (process.env.CODE_HOST !== '1') return; // desktop VS Code: no host to take the picture
  const out = shotPath(name);
  rmSync(out, { force: true });
  console.log(`[[code-host:screenshot ${out}]]`);
  await waitFor(() => existsSync(out), `the screenshot at ${out}`, 30_000);
}
