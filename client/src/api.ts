// What `activate()` returns. Other extensions get `RolloutLensApi`: the running language client
// (send the requests of shared/protocol.ts by method name, `client.sendRequest(X.method, params)`:
// a RequestType object from another copy of the protocol library is refused by the bundled
// client, whose parameter-structure check compares identities), when it is ready, and a refresh of
// the views. The extension's own parts (`RolloutLensTestApi`) are returned only when it runs from
// its sources (its VS Code tests); an installed package returns the public API alone.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { AnalysisState } from './analysisState';
import type { DatasetsTreeProvider } from './datasetsTree';
import type { GroupsTreeProvider } from './groupsTree';
import type { HugeFiles } from './hugeFiles';
import type { RunStatus } from './runStatus';
import type { RunViewPanels } from './runViewPanel';
import type { SamplePanel } from './samplePanel';
import type { TreeNode } from './treeNodes';
import type { ViewTarget } from './viewTarget';

export interface RolloutLensApi {
  /** Resolves once the server has started (or rejects if it could not). */
  readonly ready: Promise<void>;
  /** The running language client (replaced by a restart). */
  client(): LanguageClient | undefined;
  /** Re-fetches both views for what they show now. */
  refresh(): Promise<void>;
}

/** The extension's parts, for its own tests only. */
export interface RolloutLensTestApi extends RolloutLensApi {
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
  /** The inspected run's status item and Problems entries. */
  readonly runStatus: RunStatus;
}
