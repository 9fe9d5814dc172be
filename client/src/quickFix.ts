// The quick fix of a finding, reached from its item in the Eval datasets view: the same code
// actions the lightbulb offers (`vscode.executeCodeActionProvider` over the finding's diagnostic),
// applied as VS Code would (edit first, then command).
import * as vscode from 'vscode';
import type { FindingData } from './datasetsTree';

const DIAGNOSTIC_WAIT_MS = 15_000;

function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

function matching(uri: vscode.Uri, f: FindingData): vscode.Diagnostic | undefined {
  return vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === f.code && d.range.start.line === f.line);
}

/** The finding's diagnostic, waiting (bounded) for the server to publish it. */
export function diagnosticFor(uri: vscode.Uri, f: FindingData): Promise<vscode.Diagnostic> {
  const now = matching(uri, f);
  if (now) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no ${f.code} diagnostic on line ${f.line + 1} of ${uri.fsPath} (is the log open?)`));
    }, DIAGNOSTIC_WAIT_MS);
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      const d = matching(uri, f);
      if (!d) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(d);
    });
  });
}

/** Code actions the server offers for the finding's diagnostic. */
export async function fixesFor(f: FindingData): Promise<vscode.CodeAction[]> {
  const uri = vscode.Uri.parse(f.uri);
  // Diagnostics exist for open documents: open the log at the finding (without stealing focus).
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(f.line, 0, f.line, 0), preserveFocus: true, preview: false });
  const diagnostic = await diagnosticFor(uri, f);
  const all =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      uri,
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    )) ?? [];
  // A bare Command has a string `command`; a CodeAction's `command` is an object, if any.
  const actions = all.filter((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string');
  const forIt = actions.filter((a) => a.diagnostics?.some((d) => codeOf(d) === f.code));
  return forIt.length > 0 ? forIt : actions;
}

export async function applyCodeAction(action: vscode.CodeAction): Promise<boolean> {
  if (action.edit && !(await vscode.workspace.applyEdit(action.edit))) return false;
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
  return true;
}

/**
 * Applies the finding's fix: the preferred one when `pick` is 'preferred' or there is only one,
 * else the one the user picks. Returns the applied action's title, or undefined.
 */
export async function applyFindingFix(f: FindingData, pick: 'ask' | 'preferred' = 'ask'): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage('Rollout Lens: quick fixes are off in an untrusted workspace.');
    return undefined;
  }
  const actions = await fixesFor(f);
  if (actions.length === 0) {
    void vscode.window.showWarningMessage(`Rollout Lens: no quick fix is available for ${f.code} (see the Rollout Lens output).`);
    return undefined;
  }
  let chosen: vscode.CodeAction | undefined = actions.find((a) => a.isPreferred) ?? actions[0];
  if (pick === 'ask' && actions.length > 1) {
    const item = await vscode.window.showQuickPick(
      actions.map((a) => ({ label: a.title, action: a })),
      { title: `Fix ${f.code}` },
    );
    chosen = item?.action;
  }
  if (!chosen) return undefined;
  return (await applyCodeAction(chosen)) ? chosen.title : undefined;
}
