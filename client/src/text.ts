// The label escaper (shared/unsafeText.ts lists the others). Log text is written by the model
// under training: it reaches labels and tooltips only through these helpers. Labels are plain
// text, but control and bidi-override characters could still disguise what a line says, so they
// are shown escaped; tooltips are built with `MarkdownString.appendText` (which escapes markdown)
// and never trusted, never HTML.
import * as vscode from 'vscode';
import { formatOrMissing } from '../../shared/numberFormat';
import { pyFloatRepr } from '../../shared/pythonRepr';
import { UNSAFE_OR_WHITESPACE_CONTROL } from '../../shared/unsafeText';

/** One line of display text: unsafe characters as `\uXXXX`, long text cut with an ellipsis. */
export function plain(value: string, max = 120): string {
  const safe = value.replace(UNSAFE_OR_WHITESPACE_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** A tooltip that renders log text literally: no links to commands, no HTML, no theme icons. */
export function safeMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

/** Appends `label: value` lines; only `label` may contain our own markdown. */
export function appendFields(md: vscode.MarkdownString, fields: [string, string][]): vscode.MarkdownString {
  for (const [label, value] of fields) {
    md.appendMarkdown(`**${label}:** `);
    md.appendText(plain(value, 400));
    md.appendMarkdown('  \n');
  }
  return md;
}

/** A number in a label or description: 4 significant digits (shared/numberFormat.ts). */
export function num(value: number | null | undefined): string {
  return formatOrMissing(value, 'null');
}

/** A number in a tooltip: exactly as Python prints it (the logs' and the metrics' own notation). */
export function exact(value: number | null | undefined): string {
  return value === null || value === undefined ? 'null' : pyFloatRepr(value);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The file name of a URI, for labels. */
export function baseName(uri: vscode.Uri): string {
  const parts = uri.path.split('/');
  return parts[parts.length - 1] || uri.path;
}

/**
 * A file or folder as tooltips name it: relative to its workspace folder, never this machine's
 * absolute path; outside the workspace, its name.
 */
export function shownPath(uri: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return `${baseName(uri)} (outside the workspace)`;
  const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
  const rel = uri.path.startsWith(base) ? uri.path.slice(base.length) : '';
  // Several folders: which one says where the file is.
  const many = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  if (rel === '') return folder.name;
  return many ? `${folder.name}/${rel}` : rel;
}
