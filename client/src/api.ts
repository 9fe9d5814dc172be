// What `activate()` returns: the extension's parts, for tests and for other extensions.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { AnalysisState } from './analysisState';
import type { DatasetsTreeProvider } from './datasetsTree';
import type { GroupsTreeProvider } from './groupsTree';
import type { HugeFiles } from './hugeFiles';
import type { RunViewPanels } from './runViewPanel';
import type { SamplePanel } from './samplePanel';
import type { TreeNode } from './treeNodes';
import type { ViewTarget } from './viewTarget';

export interface RolloutLensApi {
  readonly groups: GroupsTreeProvider;
  readonly datasets: DatasetsTreeProvider;
  readonly groupsView: vscode.TreeView<TreeNode>;
  readonly datasetsView: vscode.TreeView<TreeNode>;
  readonly state: AnalysisState;
  readonly target: ViewTarget;
  readonly hugeFiles: HugeFiles;
  /** The run view panel ("Rollout Lens: Open Run View"). */
  readonly runView: RunViewPanels;
  /** The sample panel ("Rollout Lens: Open Sample"). */
  readonly samplePanel: SamplePanel;
  /** The status bar item's text (with its `$(icon)`), undefined while it is hidden. */
  statusText(): string | undefined;
  /** The running language client (replaced by a restart). */
  client(): LanguageClient | undefined;
  /** Resolves once the server has started (or rejects if it could not). */
  readonly ready: Promise<void>;
  /** Re-fetches both views for what they show now. */
  refresh(): Promise<void>;
}
