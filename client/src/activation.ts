// Wires the parts together: language client, analysis state, view target, the two views, the
// status bar, huge-file handling and the commands. Returns the API object.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { AnalysisChangedNotification, type AnalysisChangedParams, OpenSampleCommand } from '../../shared/protocol';
import { LOG_FILE_EXTENSIONS, PT_DUMP_EXTENSIONS } from '../../shared/logFiles';
import { AnalysisState } from './analysisState';
import type { RolloutLensTestApi } from './api';
import { pickLogOrFolder, registerCommands } from './commands';
import { DatasetsTreeProvider } from './datasetsTree';
import { GroupsTreeProvider, OPEN_CAUSE_IN_STEP, openCauseInStep } from './groupsTree';
import { HugeFiles } from './hugeFiles';
import { createLanguageClient } from './languageClient';
import { RunViewPanels } from './runViewPanel';
import { registerPtView } from './ptView';
import { RunStatus } from './runStatus';
import { SamplePanel, sampleTarget } from './samplePanel';
import { ServerApi } from './serverApi';
import { StatusBar } from './statusBar';
import type { TreeNode } from './treeNodes';
import { ViewTarget } from './viewTarget';

const REFRESH_DEBOUNCE_MS = 150;

let client: LanguageClient | undefined;

export function activateExtension(context: vscode.ExtensionContext): RolloutLensTestApi {
  const output = vscode.window.createOutputChannel('Rollout Lens', { log: true });
  const state = new AnalysisState();
  const target = new ViewTarget();
  client = createLanguageClient(context, output);
  const server = new ServerApi(() => client);
  const groups = new GroupsTreeProvider(server);
  const datasets = new DatasetsTreeProvider(server);
  const groupsView = vscode.window.createTreeView('rolloutLens.groups', { treeDataProvider: groups, showCollapseAll: true });
  const datasetsView = vscode.window.createTreeView('rolloutLens.datasets', { treeDataProvider: datasets, showCollapseAll: true });
  const statusBar = new StatusBar(state, target);
  const hugeFiles = new HugeFiles(server, () => client, state, output);
  // The inspected run's findings in Problems and its status item, while it is inspected.
  const runStatus = new RunStatus(server, () => client);
  context.subscriptions.push(output, state, target, groups, datasets, groupsView, datasetsView, statusBar, hugeFiles, runStatus);
  const inspectTarget = async (uri: vscode.Uri) => {
    target.inspect(uri);
    await refresh();
  };
  const samplePanel = new SamplePanel(context.extensionUri, server);
  const runView = new RunViewPanels(context.extensionUri, server, groups, groupsView, target, inspectTarget, (uri, line) => samplePanel.open(uri, line, true));
  context.subscriptions.push(runView, samplePanel);

  const refresh = async (): Promise<void> => {
    const t = target.current;
    const work = Promise.all([groups.refresh(t), datasets.refresh(t)]);
    // A spinner on the views while a folder or a big log is analysed.
    await vscode.window.withProgress({ location: { viewId: 'rolloutLens.groups' } }, () => work);
  };
  let timer: NodeJS.Timeout | undefined;
  const scheduleRefresh = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
  };
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });

  let shown = target.current?.toString();
  // Context keys for the welcome views and the view title's "Follow the Active Log".
  const setContexts = () => {
    void vscode.commands.executeCommand('setContext', 'rolloutLens.hasTarget', target.current !== undefined);
    void vscode.commands.executeCommand('setContext', 'rolloutLens.inspecting', target.inspected !== undefined);
  };
  context.subscriptions.push(
    target.onDidChange(() => {
      setContexts();
      if (target.inspected?.toString() !== runStatus.target?.toString()) void runStatus.show(target.inspected);
      if (target.current?.toString() === shown) return;
      shown = target.current?.toString();
      void refresh();
    }),
    state.onDidChange((key) => {
      if (key === '' || target.concerns(vscode.Uri.parse(key))) scheduleRefresh();
      if (key !== '') runView.analysisChanged(vscode.Uri.parse(key));
      if (key !== '') runStatus.analysisChanged(vscode.Uri.parse(key));
    }),
    followEditorSelection(groupsView, groups),
  );
  client.onNotification(AnalysisChangedNotification, (p: AnalysisChangedParams) => state.update(p));

  const start = async () => {
    await client!.start();
    await refresh();
  };
  const ready = start().catch((err) => {
    output.error(`the server could not start: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  });
  ready.catch(() => undefined); // reported above; the API's `ready` still rejects for callers

  context.subscriptions.push(
    ...registerPtView(server),
    vscode.commands.registerCommand(OpenSampleCommand, async (arg?: unknown, line?: unknown) => {
      const at = sampleTarget(arg, line);
      if (!at) return undefined;
      try {
        return await samplePanel.open(at.uri, at.line);
      } catch (err) {
        void vscode.window.showErrorMessage(`Rollout Lens: sample view: ${err instanceof Error ? err.message : String(err)}`);
        output.error(`sample view: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        throw err;
      }
    }),
    vscode.commands.registerCommand('rolloutLens.openRunView', async (uri?: vscode.Uri, at?: unknown) => {
      const chosen = uri instanceof vscode.Uri ? uri : (target.current ?? (await pickRun()));
      if (!chosen) return undefined;
      // `{ mismatchStep }` (the run status's drift): the page opens at that step's mismatch.
      const step = at !== null && typeof at === 'object' ? (at as { mismatchStep?: unknown }).mismatchStep : undefined;
      try {
        return await runView.open(chosen, true, typeof step === 'number' && Number.isInteger(step) ? step : undefined);
      } catch (err) {
        void vscode.window.showErrorMessage(`Rollout Lens: run view: ${err instanceof Error ? err.message : String(err)}`);
        output.error(`run view: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        throw err;
      }
    }),
    // "Compare with Run…": the run view's run (or `candidate`) against a baseline (the argument, else
    // chosen in a dialog that opens at the workspace): a run folder, a log or a run summary.
    vscode.commands.registerCommand('rolloutLens.compareWithRun', async (baseline?: unknown, candidate?: unknown) => {
      try {
        if (isFileUri(candidate)) await runView.open(candidate);
        else if (!runView.state) {
          const shown = target.current;
          if (!shown) {
            void vscode.window.showInformationMessage('Rollout Lens: open the run view of a run first, then compare it with another.');
            return undefined;
          }
          await runView.open(shown);
        }
        const chosen = isFileUri(baseline) ? baseline : await pickBaseline();
        if (!chosen) return undefined;
        return await runView.compareWith(chosen);
      } catch (err) {
        void vscode.window.showErrorMessage(`Rollout Lens: compare: ${err instanceof Error ? err.message : String(err)}`);
        output.error(`compare: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        throw err;
      }
    }),
    vscode.commands.registerCommand('rolloutLens.clearComparison', () => runView.clearComparison()),
    vscode.commands.registerCommand(OPEN_CAUSE_IN_STEP, (uris: string[], reason: string) => openCauseInStep(server, uris, reason)),
    // The sample view's steps (keybindings and title buttons while it is the active panel).
    ...(
      [
        ['rolloutLens.nextFailedSample', 'failedSample', 1],
        ['rolloutLens.previousFailedSample', 'failedSample', -1],
        ['rolloutLens.nextDroppedGroup', 'droppedGroup', 1],
        ['rolloutLens.previousDroppedGroup', 'droppedGroup', -1],
      ] as const
    ).map(([command, what, direction]) => vscode.commands.registerCommand(command, () => samplePanel.navigate(what, direction))),
    ...registerCommands({
      restart: async () => {
        state.clear();
        await client!.restart();
        hugeFiles.reset();
        await Promise.all([refresh(), runStatus.show(target.inspected)]);
      },
      showOutput: () => output.show(true),
      inspect: async (uri) => {
        target.inspect(uri);
        if (uri) await vscode.commands.executeCommand('rolloutLens.groups.focus');
        await refresh();
      },
      // "Refresh Views" draws the run view again too.
      refresh: async () => {
        await Promise.all([refresh(), runView.redraw()]);
      },
    }),
  );
  setContexts();

  return {
    groups,
    datasets,
    groupsView,
    datasetsView,
    state,
    target,
    hugeFiles,
    runView,
    samplePanel,
    statusText: () => statusBar.text,
    runStatus,
    client: () => client,
    ready,
    refresh,
  };
}

function pickRun(): Promise<vscode.Uri | undefined> {
  return pickLogOrFolder('Open the run view of a run folder or a log', 'Open Run View');
}

/** A `file:` URI (a menu may pass other arguments, such as a webview's context). */
function isFileUri(x: unknown): x is vscode.Uri {
  return x instanceof vscode.Uri && x.scheme === 'file';
}

/** The baseline to compare the run view with: a run folder, a log or a run summary, from the workspace on. */
function pickBaseline(): Promise<vscode.Uri | undefined> {
  return pickLogOrFolder(
    'Compare the run view with a baseline run: a run folder, a log or a run summary',
    'Compare',
    { 'Runs (logs, .pt dumps, run summaries)': [...LOG_FILE_EXTENSIONS, ...PT_DUMP_EXTENSIONS, 'json'], 'All files': ['*'] },
    vscode.workspace.workspaceFolders?.[0]?.uri,
  );
}

/** Selects the sample under the cursor in the Groups view (when the view is visible). */
function followEditorSelection(view: vscode.TreeView<TreeNode>, groups: GroupsTreeProvider): vscode.Disposable {
  return vscode.window.onDidChangeTextEditorSelection((e) => {
    if (!view.visible || e.kind === vscode.TextEditorSelectionChangeKind.Command) return;
    const uri = e.textEditor.document.uri.toString();
    const line = e.selections[0]?.active.line;
    const n = groups.find((x) => x.kind === 'sample' && x.location?.uri.toString() === uri && x.location.line === line);
    if (n) void view.reveal(n, { select: true, focus: false, expand: true });
  });
}

export async function deactivateExtension(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}
