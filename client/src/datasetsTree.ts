// "Eval datasets": per dataset its score, none-reward ratio, pass@k by the dataset's own n (and,
// where miles main (31f1ca9) groups by the global n, the values it would report instead), and the
// dataset's findings, a fixable one carrying the quick fix as an inline action.
import * as vscode from 'vscode';
import type { DatasetItem } from '../../shared/protocol';
import type { ServerApi } from './serverApi';
import { contextFields } from './runStatus';
import { appendFields, exact, num, plain, safeMarkdown, shownPath } from './text';
import { NodeTreeProvider, node, revealCommand, type TreeNode } from './treeNodes';

export const FIXABLE_CONTEXT = 'finding.fixable';

const N_SOURCE: Record<string, string> = {
  dataset: 'from the dataset entry',
  defaults: 'from eval.defaults',
  global: 'from --n-samples-per-eval-prompt',
  inferred: 'inferred from the log',
  default: 'miles default',
};

export interface FindingData {
  uri: string;
  dataset: string;
  code: string;
  severity: string;
  message: string;
  line: number;
}

export class DatasetsTreeProvider extends NodeTreeProvider {
  constructor(private readonly server: ServerApi) {
    super();
  }

  protected async build(target: vscode.Uri, token: vscode.CancellationToken): Promise<TreeNode[]> {
    const { datasets } = await this.server.evalDatasets(target, token);
    return datasets.map(datasetNode);
  }
}

/** A metric: rounded in the description, exact in the tooltip (what users compare with their logs). */
function metricNode(parentId: string, label: string, value: number, description?: string): TreeNode {
  return node({
    id: `${parentId}|${label}`,
    kind: 'metric',
    label,
    description: description ?? num(value),
    tooltip: `${label} = ${exact(value)}`,
    icon: new vscode.ThemeIcon('symbol-number'),
  });
}

function passAtKNodes(d: DatasetItem, id: string): TreeNode[] {
  const prefix = `eval/${d.name}-pass@`;
  const wrong = d.wrongPassAtK;
  const out: TreeNode[] = [];
  for (const [name, value] of Object.entries(d.metrics)) {
    if (!name.startsWith(prefix)) continue;
    const wrongValue = wrong?.metrics?.[name];
    const differs = wrongValue !== undefined; // the engine lists only the values that are wrong
    const n = metricNode(id, name, value, differs ? `${num(value)} (grouped by ${wrong!.groupSize}: ${num(wrongValue)})` : undefined);
    if (differs)
      n.tooltip = `${name} = ${exact(value)} with ${d.n} samples per prompt; miles main (31f1ca9) groups by ${wrong!.groupSize} and reports ${exact(wrongValue)}`;
    out.push(n);
  }
  // pass@k names miles main (31f1ca9) would log that the right grouping does not have (or its crash).
  if (wrong?.metrics) {
    for (const [name, value] of Object.entries(wrong.metrics)) {
      if (name in d.metrics) continue;
      out.push(metricNode(id, `${name} (grouped by ${wrong.groupSize})`, value, `${num(value)}, not logged with n = ${d.n}`));
    }
  }
  if (wrong?.crash) {
    out.push(
      node({
        id: `${id}|crash`,
        kind: 'crash',
        label: `grouped by ${wrong.groupSize}`,
        description: plain(wrong.crash),
        tooltip: wrong.crash,
        icon: new vscode.ThemeIcon('error'),
      }),
    );
  }
  return out;
}

function findingNode(d: DatasetItem, id: string, f: DatasetItem['findings'][number], i: number): TreeNode {
  const uri = vscode.Uri.parse(d.uri);
  const fixable = f.fixable === true; // the server's answer, from the engine's catalog
  const data: FindingData = { uri: d.uri, dataset: d.name, ...f };
  const tip = appendFields(safeMarkdown(), [
    ['Finding', f.code],
    ['Severity', f.severity],
    ['Line', String(f.line + 1)],
    ['Message', f.message],
  ]);
  if (fixable) tip.appendMarkdown('\n\nA quick fix is available: use the lightbulb action on this item.');
  return node({
    id: `${id}|finding|${i}|${f.code}`,
    kind: 'finding',
    label: f.code,
    description: plain(f.message, 100),
    tooltip: tip,
    icon: new vscode.ThemeIcon(f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'info'),
    contextValue: fixable ? FIXABLE_CONTEXT : 'finding',
    command: revealCommand(uri, f.line),
    location: { uri, line: f.line },
    data,
  });
}

function datasetNode(d: DatasetItem): TreeNode {
  const uri = vscode.Uri.parse(d.uri);
  const id = `${d.uri}|dataset|${d.name}`;
  const score = d.metrics[`eval/${d.name}`];
  const none = d.metrics[`eval/${d.name}-none_reward_ratio`];
  const truncated = d.metrics[`eval/${d.name}-truncated_ratio`];
  const children: TreeNode[] = [];
  if (score !== undefined) children.push(metricNode(id, `eval/${d.name}`, score));
  if (none !== undefined) children.push(metricNode(id, `eval/${d.name}-none_reward_ratio`, none));
  if (truncated !== undefined && truncated !== 0) children.push(metricNode(id, `eval/${d.name}-truncated_ratio`, truncated));
  children.push(
    node({
      id: `${id}|n`,
      kind: 'groupSize',
      label: 'samples per prompt',
      description: `${d.n} (${N_SOURCE[d.nSource] ?? d.nSource}) · ${d.samples} samples`,
      icon: new vscode.ThemeIcon('symbol-array'),
    }),
  );
  children.push(...passAtKNodes(d, id));
  const findings = d.findings.map((f, i) => findingNode(d, id, f, i));
  if (findings.length) {
    children.push(
      node({
        id: `${id}|findings`,
        kind: 'findings',
        label: 'Findings',
        description: String(findings.length),
        icon: new vscode.ThemeIcon('warning'),
        expanded: true,
        children: findings,
      }),
    );
  }
  const tip = appendFields(safeMarkdown(), [
    ['Dataset', d.name],
    ['Score', score === undefined ? 'n/a' : `eval/${d.name} = ${exact(score)}`],
    ['Samples', `${d.samples}, ${d.n} per prompt (${N_SOURCE[d.nSource] ?? d.nSource})`],
    ['Findings', String(d.findings.length)],
    ['Log', shownPath(uri)],
    ...contextFields({ settingsFiles: d.settingsFile ? [d.settingsFile] : [], evalConfigs: d.evalConfig ? [d.evalConfig] : [] }),
  ]);
  return node({
    id,
    kind: 'dataset',
    label: plain(d.name, 80),
    description: `${score === undefined ? '' : num(score)}${d.findings.length ? ` · ${d.findings.length} finding${d.findings.length === 1 ? '' : 's'}` : ''}`,
    tooltip: tip,
    icon: new vscode.ThemeIcon(d.findings.some((f) => f.severity === 'error') ? 'error' : 'database'),
    command: revealCommand(uri, d.line),
    location: { uri, line: d.line },
    expanded: true,
    data: d,
    children,
  });
}
