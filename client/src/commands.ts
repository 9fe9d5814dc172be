// Commands: the palette's (restart, output, inspect, refresh), the views' (reveal a line, apply a
// finding's fix) and the client command the server's quick fixes may carry.
import * as vscode from 'vscode';
import { SETTINGS_SECTION, SetNSamplesPerEvalPromptCommand, type SetNSamplesPerEvalPromptArgs } from '../../shared/protocol';
import type { FindingData } from './datasetsTree';
import { applyFindingFix } from './quickFix';
import type { TreeNode } from './treeNodes';
import { LOG_FILE_EXTENSIONS } from '../../shared/logFiles';

export interface CommandHost {
  restart(): Promise<void>;
  showOutput(): void;
  /** `undefined`: stop inspecting, follow the active log again. */
  inspect(uri: vscode.Uri | undefined): Promise<void>;
  refresh(): Promise<void>;
}

/** Opens a log at a 0-based line. `vscode.open` works for huge files the extension host cannot load. */
export async function revealLine(uri: vscode.Uri | string, line: number): Promise<void> {
  const target = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  const pos = new vscode.Range(line, 0, line, 0);
  const options: vscode.TextDocumentShowOptions = { selection: pos, preview: true };
  await vscode.commands.executeCommand('vscode.open', target, options);
}

/** One log or folder from an open dialog (undefined when the user cancels); it opens at `defaultUri` when given. */
export async function pickLogOrFolder(
  title: string,
  openLabel: string,
  filters?: Record<string, string[]>,
  defaultUri?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel,
    filters,
    defaultUri,
  });
  return picked?.[0];
}

function pickTarget(): Promise<vscode.Uri | undefined> {
  return pickLogOrFolder('Inspect a rollout/eval log or a run folder', 'Inspect', { 'JSON Lines logs': [...LOG_FILE_EXTENSIONS], 'All files': ['*'] });
}

/** Writes `rolloutLens.nSamplesPerEvalPrompt` where it applies to the log: its folder, else the user. */
export async function setNSamplesPerEvalPrompt(args: SetNSamplesPerEvalPromptArgs): Promise<void> {
  if (!vscode.workspace.isTrusted) throw new Error('settings are not changed from an untrusted workspace');
  if (!args || !Number.isInteger(args.value) || args.value < 1 || typeof args.resourceUri !== 'string') throw new Error('expected { resourceUri, value ≥ 1 }');
  const resource = vscode.Uri.parse(args.resourceUri);
  const scope = vscode.workspace.getWorkspaceFolder(resource) ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration(SETTINGS_SECTION, resource).update('nSamplesPerEvalPrompt', args.value, scope);
}

function findingOf(arg: TreeNode | FindingData | undefined): FindingData | undefined {
  if (!arg) return undefined;
  return 'kind' in arg && 'children' in arg ? (arg.data as FindingData | undefined) : (arg as FindingData);
}

export function registerCommands(host: CommandHost): vscode.Disposable[] {
  const reg = vscode.commands.registerCommand;
  return [
    reg('rolloutLens.restartServer', () => host.restart()),
    reg('rolloutLens.showOutput', () => host.showOutput()),
    reg('rolloutLens.refresh', () => host.refresh()),
    reg('rolloutLens.inspect', async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : await pickTarget();
      if (target) await host.inspect(target);
    }),
    reg('rolloutLens.followActiveEditor', () => host.inspect(undefined)),
    reg('rolloutLens.revealLine', (uri: vscode.Uri | string, line: number) => revealLine(uri, line)),
    reg('rolloutLens.applyFix', async (arg?: TreeNode | FindingData, pick?: 'ask' | 'preferred') => {
      const finding = findingOf(arg);
      if (!finding) return undefined;
      try {
        return await applyFindingFix(finding, pick ?? 'ask');
      } catch (err) {
        void vscode.window.showErrorMessage(`Rollout Lens: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }),
    reg(SetNSamplesPerEvalPromptCommand, (args: SetNSamplesPerEvalPromptArgs) => setNSamplesPerEvalPrompt(args)),
  ];
}
