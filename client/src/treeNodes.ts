// The views' model: an immutable tree of plain nodes, rebuilt on every refresh, each holding its
// parent so `getParent` (and so `TreeView.reveal`) is a field read. Providers differ only in how
// they fetch and build the tree; the plumbing (events, refresh sequencing, lookup) lives here.
import * as vscode from 'vscode';

export interface TreeNode {
  /** Stable across refreshes, so expansion and selection survive them. */
  id: string;
  kind: string;
  label: string;
  description?: string;
  tooltip?: string | vscode.MarkdownString;
  icon?: vscode.ThemeIcon;
  contextValue?: string;
  command?: vscode.Command;
  resourceUri?: vscode.Uri;
  /** Where the node points to in a log (0-based line), when it does. */
  location?: { uri: vscode.Uri; line: number };
  expanded?: boolean;
  parent?: TreeNode;
  children: TreeNode[];
  /** Payload for commands and tests (the protocol item the node shows). */
  data?: unknown;
  /**
   * Children fetched when the node is first expanded (or revealed into), replacing `children`
   * (built from what the parent's answer already said; same ids, so expansion and reveal hold).
   */
  load?: () => Promise<TreeNode[]>;
}

export type NodeInit = Omit<TreeNode, 'children' | 'parent'> & { children?: TreeNode[] };

/** Builds a node and links its children to it. */
export function node(init: NodeInit): TreeNode {
  const n: TreeNode = { ...init, children: init.children ?? [] };
  for (const c of n.children) c.parent = n;
  return n;
}

/** Reveal-the-line command for a node pointing into a log. */
export function revealCommand(uri: vscode.Uri, line: number): vscode.Command {
  return { title: 'Reveal line', command: 'rolloutLens.revealLine', arguments: [uri.toString(), line] };
}

export function* walk(nodes: readonly TreeNode[]): Generator<TreeNode> {
  for (const n of nodes) {
    yield n;
    yield* walk(n.children);
  }
}

/** A tree provider over a node tree that a subclass fetches and builds. */
export abstract class NodeTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /** Fires after each completed refresh (the roots are the new tree). */
  readonly onDidRefresh = this.refreshed.event;
  private rootsValue: TreeNode[] = [];
  private seq = 0;
  /** Last refresh error, shown as a node and kept for tests/diagnosis. */
  lastError: string | undefined;

  get roots(): readonly TreeNode[] {
    return this.rootsValue;
  }

  protected abstract build(target: vscode.Uri, token: vscode.CancellationToken): Promise<TreeNode[]>;

  /** Re-fetches for the target (none: empty view, which shows the welcome content). */
  async refresh(target: vscode.Uri | undefined): Promise<void> {
    const mine = ++this.seq;
    const cts = new vscode.CancellationTokenSource();
    try {
      const roots = target ? await this.build(target, cts.token) : [];
      if (mine !== this.seq) return; // a newer refresh started: its result wins
      this.rootsValue = roots;
      this.lastError = undefined;
    } catch (err) {
      if (mine !== this.seq) return;
      this.lastError = err instanceof Error ? err.message : String(err);
      this.rootsValue = [
        node({ id: 'error', kind: 'error', label: 'Could not analyse the log', description: this.lastError, icon: new vscode.ThemeIcon('error') }),
      ];
    } finally {
      cts.dispose();
    }
    this.changed.fire(undefined);
    this.refreshed.fire();
  }

  find(predicate: (n: TreeNode) => boolean): TreeNode | undefined {
    for (const n of walk(this.rootsValue)) if (predicate(n)) return n;
    return undefined;
  }

  getTreeItem(n: TreeNode): vscode.TreeItem {
    const state =
      n.children.length === 0 && !n.load
        ? vscode.TreeItemCollapsibleState.None
        : n.expanded
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(n.label, state);
    item.id = n.id;
    item.description = n.description;
    item.tooltip = n.tooltip;
    item.iconPath = n.icon;
    item.contextValue = n.contextValue ?? n.kind;
    item.command = n.command;
    item.resourceUri = n.resourceUri;
    return item;
  }

  getChildren(n?: TreeNode): TreeNode[] | Promise<TreeNode[]> {
    if (!n) return this.rootsValue;
    return n.load ? this.expand(n) : n.children;
  }

  private readonly loading = new WeakMap<TreeNode, Promise<TreeNode[]>>();

  /**
   * Fetches a lazy node's children once (concurrent asks share the fetch) and puts them in place.
   * A failed fetch keeps the children it had, with an error node, and is tried again next time.
   */
  expand(n: TreeNode): Promise<TreeNode[]> {
    const load = n.load;
    if (!load) return Promise.resolve(n.children);
    let pending = this.loading.get(n);
    if (!pending) {
      pending = load().then(
        (children) => {
          for (const c of children) c.parent = n;
          n.children = children;
          n.load = undefined;
          return children;
        },
        (err: unknown) => {
          this.loading.delete(n);
          const message = err instanceof Error ? err.message : String(err);
          const error = node({
            id: `${n.id}|error`,
            kind: 'error',
            label: 'Could not read the groups',
            description: message,
            icon: new vscode.ThemeIcon('error'),
          });
          error.parent = n;
          return [...n.children.filter((c) => c.kind !== 'error'), error];
        },
      );
      this.loading.set(n, pending);
    }
    return pending;
  }

  getParent(n: TreeNode): TreeNode | undefined {
    return n.parent;
  }

  dispose(): void {
    this.changed.dispose();
    this.refreshed.dispose();
  }
}
