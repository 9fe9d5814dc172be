// verl validation metrics (docs/semantics.md#verl-validation-metrics) from a validation dump: per data source and prompt uid,
// `mean@N`/`std@N` of each numeric variable, averaged over uids per metric name; the headline
// `val-core/<ds>/<var>/mean@<Nmax>` averages only prompts that kept all Nmax samples. v1 dumps
// count a session once (its last output); a dump without data_source gets one combined figure
// (docs/framework-files.md#verl).
import { pyFloatRepr } from '../vocabulary/python';
import type { DatasetSummary, Finding, Location, SampleRecord } from '../vocabulary/types';
import { makeFinding } from './findings';
import { npMean, npStd, npSum } from './numeric';
import { countedRows } from './verlRows';

/** The name of the figure over every prompt of a dump that lost its data sources: no data source is called that. */
const ALL_DATA_SOURCES = '(all data sources)';

/** Dump keys that are not reward variables (`score` is the dump's copy of `reward`). */
const NOT_VARIABLES: ReadonlySet<string> = new Set(['score', 'step', 'reward']);

type UidVars = Map<string, { first: SampleRecord; rows: SampleRecord[]; vars: Map<string, number[]> }>;

export function analyzeVerlValidation(
  file: string,
  samples: readonly SampleRecord[],
): {
  datasets: DatasetSummary[];
  metrics: Record<string, number>;
  findings: Finding[];
} {
  const bySource = new Map<string, UidVars>();
  const rows = countedRows(samples);
  const unnamed = rows.filter((s) => s.dataset === null);
  for (const s of rows) {
    const ds = s.dataset ?? ALL_DATA_SOURCES;
    const uid = s.groupKey ?? s.promptKey ?? `line ${s.line}`;
    let uids = bySource.get(ds);
    if (!uids) bySource.set(ds, (uids = new Map()));
    let entry = uids.get(uid);
    if (!entry) uids.set(uid, (entry = { first: s, rows: [], vars: new Map() }));
    entry.rows.push(s);
    for (const [name, value] of variablesOf(s)) {
      let list = entry.vars.get(name);
      if (!list) entry.vars.set(name, (list = []));
      list.push(value);
    }
  }
  const datasets: DatasetSummary[] = [];
  const metrics: Record<string, number> = {};
  const findings: Finding[] = [];
  for (const [ds, uids] of bySource) {
    const dsMetrics = sourceMetrics(ds, uids);
    Object.assign(metrics, dsMetrics.metrics);
    const count = [...uids.values()].reduce((n, u) => n + u.rows.length, 0);
    datasets.push({ name: ds, samples: count, n: dsMetrics.nMax, nSource: 'inferred', metrics: dsMetrics.metrics });
    const f = inflation(file, ds, uids, dsMetrics.coreVar, dsMetrics.nMax, dsMetrics.metrics);
    if (f) findings.push(f);
  }
  if (unnamed.length > 0)
    findings.push(
      makeFinding('verl-no-data-source', { file, line: unnamed[0].line, dataset: ALL_DATA_SOURCES }, noDataSourceMessage(unnamed.length, rows.length)),
    );
  return { datasets, metrics, findings };
}

function noDataSourceMessage(unnamed: number, total: number): string {
  const which = unnamed === total ? `the dump has no data_source (all ${total} rows)` : `${unnamed} of ${total} rows have no data_source`;
  return (
    `${which}: verl reports val-core/<data_source>/… per data source at run time, but its dump does not write the data source, ` +
    `so per-source figures cannot be recomputed; the figures over every prompt without one are under val-core/${ALL_DATA_SOURCES}/… (not a verl metric). ` +
    "To get per-source figures, return data_source in the reward function's extra info (it is then dumped as a column)"
  );
}

function variablesOf(s: SampleRecord): [string, number][] {
  const out: [string, number][] = [];
  const reward = typeof s.vars?.reward === 'number' ? s.vars.reward : s.reward;
  if (reward !== null) out.push(['reward', reward]);
  for (const [k, v] of Object.entries(s.vars ?? {})) if (!NOT_VARIABLES.has(k) && typeof v === 'number') out.push([k, v]);
  return out;
}

function sourceMetrics(ds: string, uids: UidVars): { metrics: Record<string, number>; coreVar: string; nMax: number } {
  // var → metric name → per-uid values, in uid order (verl's dict insertion order).
  const perVar = new Map<string, Map<string, number[]>>();
  for (const { vars } of uids.values()) {
    for (const [name, values] of vars) {
      let m = perVar.get(name);
      if (!m) perVar.set(name, (m = new Map()));
      const n = values.length;
      push(m, `mean@${n}`, npMean(values));
      if (n > 1) push(m, `std@${n}`, npStd(values));
    }
  }
  const coreVar = perVar.has('acc') ? 'acc' : 'reward';
  const metrics: Record<string, number> = {};
  let nMaxCore = 0;
  for (const [name, m] of perVar) {
    const nMax = Math.max(...[...m.keys()].map((k) => Number(k.split('@')[1])));
    if (name === coreVar) nMaxCore = nMax;
    for (const [metric, values] of m) {
      const core = name === coreVar && metric.startsWith('mean') && metric.includes(`@${nMax}`);
      metrics[`${core ? 'val-core' : 'val-aux'}/${ds}/${name}/${metric}`] = npMean(values);
    }
  }
  return { metrics, coreVar, nMax: nMaxCore };
}

function push(m: Map<string, number[]>, key: string, v: number): void {
  const list = m.get(key);
  if (list) list.push(v);
  else m.set(key, [v]);
}

/** Prompts with fewer than Nmax samples drop out of the headline: show it beside all attempts. */
function inflation(file: string, ds: string, uids: UidVars, coreVar: string, nMax: number, metrics: Record<string, number>): Finding | null {
  const name = `val-core/${ds}/${coreVar}/mean@${nMax}`;
  const reported = metrics[name];
  if (reported === undefined) return null;
  const all = [...uids.values()].filter((u) => u.vars.has(coreVar));
  const short = all.filter((u) => u.vars.get(coreVar)!.length < nMax);
  if (short.length === 0) return null;
  const sum = npSum(all.flatMap((u) => u.vars.get(coreVar)!));
  const allAttempts = sum / (all.length * nMax);
  const lesser = [...new Set(short.map((u) => u.vars.get(coreVar)!.length))].sort((a, b) => b - a).map((n) => `mean@${n}`);
  const related = short
    .flatMap((u) => u.rows)
    .slice(1, 21)
    .map((s): Location => ({ file, line: s.line }));
  const message =
    `${name} = ${pyFloatRepr(reported)} averages only the ${all.length - short.length} of ${all.length} prompts that kept all ${nMax} samples; ` +
    `${short.length} prompt${short.length === 1 ? '' : 's'} that lost samples ${short.length === 1 ? 'goes' : 'go'} to val-aux (${lesser.join(', ')}); ` +
    `over all ${all.length * nMax} attempts (lost ones scored 0) the mean is ${pyFloatRepr(allAttempts)}`;
  return makeFinding('denominator-inflation', { file, line: short[0].first.line, dataset: ds, group: null, related }, message);
}
