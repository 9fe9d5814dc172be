// The text report's per-dataset table: score, none-reward ratio, truncated ratio, pass@k by the
// dataset's own n, and what miles main (31f1ca9) gets wrong when it groups by the global n instead.
import { pyFloatRepr } from '../core/vocabulary/python';
import { fileOverview, passKsNotLogged, passKsOf } from '../core/run/fileOverview';
import type { DatasetSummary, FileReport } from '../core/vocabulary/types';
import { escapeInline } from './escape';

function num(v: number | undefined): string {
  return v === undefined ? '-' : pyFloatRepr(v);
}

/** Per-dataset table of one file; '' when the file has no eval datasets or verl metrics. */
export function renderEvalTable(file: FileReport): string {
  if (file.format === 'verl-rollout') return renderVerlRollout(file);
  if (file.format === 'verl-validation') return renderVerlValidation(file);
  const datasets = fileOverview(file).datasets;
  if (datasets.length === 0) return '';
  const ks = [...new Set(datasets.flatMap((d) => passKsOf(d.metrics, d.name)))].sort((a, b) => a - b);
  const header = ['dataset', 'samples', 'n', 'score', 'none_reward_ratio', 'truncated_ratio', ...ks.map((k) => `pass@${k}`)];
  const rows = datasets.map((d) => [
    escapeInline(d.name),
    d.samples < 0 ? '-' : String(d.samples),
    d.samples < 0 ? '-' : `${d.n} (${d.nSource})`,
    num(d.metrics[`eval/${d.name}`]),
    num(d.metrics[`eval/${d.name}-none_reward_ratio`]),
    num(d.metrics[`eval/${d.name}-truncated_ratio`]),
    ...ks.map((k) => num(d.metrics[`eval/${d.name}-pass@${k}`])),
  ]);
  const lines = [`eval datasets in ${escapeInline(file.path)}:`, ...table(header, rows)];
  for (const d of datasets) {
    const w = d.wrongPassAtK;
    if (w) lines.push(`  ${escapeInline(d.name)}: grouped by the global n = ${w.groupSize} (miles main 31f1ca9): ${wrongText(d, w)}`);
  }
  return lines.join('\n') + '\n';
}

/** The crash, or the values the global grouping gets wrong and the pass@k it does not log. */
function wrongText(d: DatasetSummary, w: NonNullable<DatasetSummary['wrongPassAtK']>): string {
  if ('crash' in w) return w.crash;
  const missing = passKsNotLogged(d, w.groupSize);
  const parts = Object.entries(w.metrics).map(([k, v]) => `${k.slice(k.lastIndexOf('-') + 1)} = ${pyFloatRepr(v)}`);
  if (missing.length > 0) parts.push(`no ${missing.map((k) => `pass@${k}`).join(', ')}`);
  return parts.join(', ');
}

function renderVerlRollout(file: FileReport): string {
  const m = file.metrics;
  if (m['critic/score/mean'] === undefined && m['response/aborted_ratio'] === undefined) return '';
  const rows = [
    ['critic/score/mean', num(m['critic/score/mean'])],
    ['response/aborted_ratio', num(m['response/aborted_ratio'])],
  ];
  return [`verl metrics of ${escapeInline(file.path)} (rows with empty output left out, as verl does):`, ...table(['metric', 'value'], rows)].join('\n') + '\n';
}

/** verl's headline (`val-core`) and the per-N means (`val-aux/…/mean@N`) per data source. */
function renderVerlValidation(file: FileReport): string {
  const rows = Object.entries(file.metrics)
    .filter(([k]) => k.startsWith('val-core/') || /^val-aux\/.*\/mean@\d+$/.test(k))
    .map(([k, v]) => [escapeInline(k), num(v)]);
  if (rows.length === 0) return '';
  return (
    [
      `verl validation metrics in ${escapeInline(file.path)} (val-core averages only prompts with all their samples):`,
      ...table(['metric', 'value'], rows),
    ].join('\n') + '\n'
  );
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
