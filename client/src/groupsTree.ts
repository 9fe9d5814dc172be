// "Groups by cause": Dropped → reason (`group_has_aborted_<cause>`, `zero_std_<r>`) → group →
// samples, and Kept, for the log the views follow; for a run folder, the drops per cause over
// its steps first, then each step's file. A folder's answer has each file's causes and counts
// only (a run's files can hold millions of groups): a file's groups are asked for when its node is
// first expanded (docs/editors.md).
import * as vscode from 'vscode';
import type { CauseBucket, FileGroups, GroupItem, RunContext, RunSummary, SamplesRef } from '../../shared/protocol';
import { revealLine } from './commands';
import { contextFields } from './runStatus';
import { isFolder, type ServerApi } from './serverApi';
import { appendFields, baseName, exact, num, plain, plural, safeMarkdown, shownPath } from './text';
import { NodeTreeProvider, node, revealCommand, type TreeNode } from './treeNodes';

const DROP_PREFIX = 'rollout/dynamic_filter/drop_';

/** Fetches one file's groups (its own `groupsByCause` answer). */
type LoadFile = (uri: string) => Promise<FileGroups | undefined>;

export class GroupsTreeProvider extends NodeTreeProvider {
  constructor(private readonly server: ServerApi) {
    super();
  }

  protected async build(target: vscode.Uri, token: vscode.CancellationToken): Promise<TreeNode[]> {
    const folder = await isFolder(target);
    const groups = await this.server.groupsByCause(target, token);
    const load: LoadFile = async (uri) => (await this.server.groupsByCause(vscode.Uri.parse(uri))).files.find((f) => f.uri === uri);
    if (!folder) {
      const file = groups.files[0];
      if (!file) return [emptyNode(target)];
      return fileSections(file, groups.context);
    }
    const files = [...groups.files].sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || a.uri.localeCompare(b.uri));
    const analysed = new Set(files.map((f) => f.uri));
    const roots = files.length > 0 ? [runNode(target, groups.runs ?? [], groups.context, analysed)] : [];
    roots.push(...files.map((f) => fileNode(f, load)));
    return roots.length > 0 ? roots : [emptyNode(target)];
  }
}

function emptyNode(target: vscode.Uri): TreeNode {
  return node({
    id: `${target}|empty`,
    kind: 'empty',
    label: `No rollout groups in ${baseName(target)}`,
    description: 'eval logs are under Eval datasets',
    icon: new vscode.ThemeIcon('info'),
  });
}

function stepLabel(step: number | null, uri: vscode.Uri): string {
  return step === null ? baseName(uri) : `step ${step} · ${baseName(uri)}`;
}

/** The command of a cause's per-step leaf: opens that cause's first group in that step. */
export const OPEN_CAUSE_IN_STEP = 'rolloutLens.openCauseInStep';

/**
 * Opens the first group dropped for `reason` in a step, looking through the step's analysed files
 * in order (each file's own groups answer lists a cause's groups in file order). Falls back to the
 * step's first file when none lists one (the file changed since). Returns where it went.
 */
export async function openCauseInStep(server: ServerApi, uris: readonly string[], reason: string): Promise<{ uri: string; line: number } | undefined> {
  for (const uri of uris) {
    const answer = await server.groupsByCause(vscode.Uri.parse(uri));
    const first = answer.files.find((f) => f.uri === uri)?.buckets.find((b) => b.reason === reason)?.groups[0];
    if (first) {
      await revealLine(first.uri, first.line);
      return { uri: first.uri, line: first.line };
    }
  }
  if (uris.length === 0) return undefined;
  await revealLine(uris[0], 0);
  return { uri: uris[0], line: 0 };
}

/**
 * Run totals: drops per cause summed over the run's rollout steps as the server's run model counts
 * them (a step is counted once, whatever files describe it), each with its per-step counts.
 */
function runNode(folder: vscode.Uri, runs: readonly RunSummary[], context: RunContext, analysed: ReadonlySet<string>): TreeNode {
  const byReason = new Map<string, { uris: string[]; step: number | null; count: number; metric: string }[]>();
  let steps = 0;
  for (const run of runs) {
    for (const s of run.steps) {
      if (s.kind !== 'rollout') continue;
      steps++;
      // The step's analysed files (a step's annotations are never read as groups).
      const read = s.uris.filter((u) => analysed.has(u));
      for (const [reason, count] of Object.entries(s.droppedByCause)) {
        if (!byReason.has(reason)) byReason.set(reason, []);
        byReason.get(reason)!.push({ uris: read.length > 0 ? read : s.uris.slice(0, 1), step: s.step, count, metric: `${DROP_PREFIX}${reason}` });
      }
    }
  }
  const total = (rows: { count: number }[]) => rows.reduce((a, r) => a + r.count, 0);
  const reasons = [...byReason.entries()].sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]));
  const children = reasons.map(([reason, rows]) =>
    node({
      id: `${folder}|run|${reason}`,
      kind: 'runReason',
      label: plain(reason),
      description: plural(total(rows), 'group'),
      tooltip: `${rows[0].metric}: ${total(rows)} over ${plural(rows.length, 'step')}`,
      icon: reasonIcon(reason),
      children: rows.map((r) => {
        const uri = vscode.Uri.parse(r.uris[0]);
        return node({
          id: `${folder}|run|${reason}|${r.uris[0]}`,
          kind: 'runStep',
          label: stepLabel(r.step, uri),
          description: String(r.count),
          tooltip: `${plural(r.count, 'group')} dropped for ${plain(reason)} at ${r.step === null ? shownPath(uri) : `step ${r.step}`}: opens the first`,
          command: { title: 'Open the first group', command: OPEN_CAUSE_IN_STEP, arguments: [r.uris, reason] },
          resourceUri: uri,
          data: { uris: r.uris, reason, step: r.step },
        });
      }),
    }),
  );
  const dropped = reasons.reduce((a, [, rows]) => a + total(rows), 0);
  const tip = appendFields(safeMarkdown(), [['Run', shownPath(folder)], ['Rollout steps', String(steps)], ...contextFields(context)]);
  return node({
    id: `${folder}|run`,
    kind: 'run',
    label: `Run · ${baseName(folder)}`,
    description: `${plural(steps, 'step')} · ${dropped} dropped`,
    tooltip: tip,
    icon: new vscode.ThemeIcon('graph'),
    expanded: true,
    children,
  });
}

/**
 * A step file of a run: its sections from the folder's counts, and (the folder's answer lists no
 * groups) its groups fetched when it is first expanded.
 */
function fileNode(file: FileGroups, load: LoadFile): TreeNode {
  const uri = vscode.Uri.parse(file.uri);
  return node({
    id: `${file.uri}|file`,
    kind: 'file',
    label: stepLabel(file.step, uri),
    description: `${file.dropped} dropped · ${file.kept} kept`,
    tooltip: shownPath(uri),
    resourceUri: uri,
    icon: vscode.ThemeIcon.File,
    command: revealCommand(uri, 0),
    children: fileSections(file),
    load: file.groupsListed
      ? undefined
      : async () => {
          const listed = await load(file.uri);
          if (!listed) throw new Error(`${baseName(uri)} has no rollout groups now`);
          return fileSections(listed);
        },
  });
}

/** A file's Dropped and Kept sections; `context` given: they are the view's roots (one log) and name what configured it. */
function fileSections(file: FileGroups, context?: RunContext): TreeNode[] {
  const dropped = file.buckets.filter((b) => b.reason !== 'kept');
  const kept = file.buckets.find((b) => b.reason === 'kept');
  const tip = context ? appendFields(safeMarkdown(), [['Log', shownPath(vscode.Uri.parse(file.uri))], ...contextFields(context)]) : undefined;
  const sections: TreeNode[] = [
    node({
      id: `${file.uri}|dropped`,
      kind: 'dropped',
      label: 'Dropped',
      description: plural(file.dropped, 'group'),
      tooltip: tip,
      icon: new vscode.ThemeIcon('filter'),
      expanded: true,
      children: dropped.map((b) => bucketNode(file, b)),
    }),
  ];
  sections.push(
    node({
      id: `${file.uri}|kept`,
      kind: 'kept',
      label: 'Kept',
      description: plural(file.kept, 'group'),
      tooltip: tip,
      icon: new vscode.ThemeIcon('pass'),
      children: kept ? kept.groups.map((g) => groupNode(`${file.uri}|kept`, g)) : [],
    }),
  );
  return sections;
}

function reasonIcon(reason: string): vscode.ThemeIcon {
  return new vscode.ThemeIcon(reason.startsWith('group_has_aborted_') ? 'debug-disconnect' : 'dash');
}

function bucketNode(file: FileGroups, b: CauseBucket): TreeNode {
  const tip = safeMarkdown();
  appendFields(tip, [
    ['Reason', b.reason],
    ['Groups', String(b.count)],
  ]);
  if (b.metric) appendFields(tip, [['Metric', b.metric]]);
  if (b.formerly.length) appendFields(tip, [['miles main (31f1ca9) logs', b.formerly.join(', ')]]);
  // Counts only (a folder's answer): the groups come with the file's own answer, not a cap.
  const capped = file.groupsListed && b.omitted > 0;
  if (capped) appendFields(tip, [['Not listed', `${b.omitted} more groups (the list is capped)`]]);
  const id = `${file.uri}|reason|${b.reason}`;
  return node({
    id,
    kind: 'reason',
    label: plain(b.reason),
    description: plural(b.count, 'group') + (capped ? ` (${b.groups.length} listed)` : ''),
    tooltip: tip,
    icon: reasonIcon(b.reason),
    data: b,
    children: b.groups.map((g) => groupNode(id, g)),
  });
}

function countBy(values: (string | null)[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? 'unknown', (counts.get(v ?? 'unknown') ?? 0) + 1);
  return [...counts.entries()].map(([k, c]) => `${c} ${k}`).join(', ');
}

/** The group's tooltip: what was decided, on which samples. */
export function groupTooltip(g: GroupItem): vscode.MarkdownString {
  const fields: [string, string][] = [
    ['Group', g.key],
    [g.kept ? 'Kept' : 'Dropped', g.kept ? 'passed the filters' : (g.reason ?? 'unknown')],
  ];
  if (g.metric) fields.push(['Metric', g.metric]);
  fields.push(['Samples', `${g.samples.length} (${countBy(g.samples.map((s) => s.status))})`]);
  fields.push(['Rewards', g.samples.map((s) => exact(s.reward)).join(', ')]);
  fields.push(['Exit statuses', countBy(g.samples.map((s) => s.cause))]);
  fields.push(['First line', `${baseName(vscode.Uri.parse(g.uri))}:${g.line + 1}`]);
  return appendFields(safeMarkdown(), fields);
}

function groupNode(parentId: string, g: GroupItem): TreeNode {
  const uri = vscode.Uri.parse(g.uri);
  const id = `${parentId}|group|${g.key}`;
  const cause = g.samples.find((s) => s.status === 'aborted')?.failureCause;
  return node({
    id,
    kind: 'group',
    label: `group ${plain(g.key, 60)}`,
    description: `${plural(g.samples.length, 'sample')} · ${cause ? `aborted: ${plain(cause, 40)}` : `rewards ${g.samples.map((s) => num(s.reward)).join(' ')}`}`,
    tooltip: groupTooltip(g),
    icon: new vscode.ThemeIcon(g.kept ? 'check' : 'close'),
    command: revealCommand(uri, g.line),
    location: { uri, line: g.line },
    data: g,
    children: g.samples.map((s) => sampleNode(id, s)),
  });
}

function sampleNode(parentId: string, s: SamplesRef): TreeNode {
  const uri = vscode.Uri.parse(s.uri);
  const parts = [s.status ?? 'no status', ...(s.failureCause ? [s.failureCause] : []), `reward ${num(s.reward)}`];
  return node({
    id: `${parentId}|sample|${s.line}`,
    kind: 'sample',
    contextValue: 'sample',
    label: `line ${s.line + 1}`,
    description: plain(parts.join(' · '), 80),
    icon: new vscode.ThemeIcon(s.status === 'aborted' ? 'debug-disconnect' : s.status === 'truncated' ? 'fold' : 'circle-small'),
    command: revealCommand(uri, s.line),
    location: { uri, line: s.line },
    data: s,
  });
}
