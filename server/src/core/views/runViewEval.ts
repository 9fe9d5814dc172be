// One eval dataset at one eval step as a row of the run view (core/views/runView.ts): its score
// (miles `eval/<ds>`, verl the data source's `val-core/<ds>/…/mean@<n>`), pass@k by the dataset's
// own n, and what miles main (31f1ca9) gets wrong grouping by the global n.
import type { EvalRow } from '../../../../shared/runViewModel';
import type { DatasetSummary, FileReport } from '../vocabulary/types';

function finiteOrNull(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}

/** `pass@<k>` values of `eval/<ds>-pass@<k>` metrics. */
function passAtKOf(name: string, metrics: Record<string, number>): Record<string, number | null> {
  const prefix = `eval/${name}-pass@`;
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(metrics)) if (k.startsWith(prefix)) out[k.slice(`eval/${name}-`.length)] = finiteOrNull(v);
  return out;
}

/** verl's `val-core/<data source>/…` metrics of one data source. */
function valCoreOf(dataSource: string, metrics: Record<string, number>): Record<string, number | null> {
  const prefix = `val-core/${dataSource}/`;
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(metrics)) if (k.startsWith(prefix)) out[k] = finiteOrNull(v);
  return out;
}

export function evalRowOf(file: Pick<FileReport, 'path' | 'format' | 'metrics'>, d: DatasetSummary, run: number, step: number | null): EvalRow {
  let wrong: EvalRow['wrong'] = null;
  if (d.wrongPassAtK) {
    wrong =
      'crash' in d.wrongPassAtK
        ? { groupSize: d.wrongPassAtK.groupSize, crash: d.wrongPassAtK.crash }
        : { groupSize: d.wrongPassAtK.groupSize, passAtK: passAtKOf(d.name, d.wrongPassAtK.metrics) };
  }
  const valCore = file.format === 'verl-validation' ? valCoreOf(d.name, file.metrics) : {};
  const verlScoreName = Object.keys(valCore).find((k) => /\/mean@\d+$/.test(k));
  return {
    run,
    step,
    file: file.path,
    dataset: d.name,
    samples: d.samples,
    n: d.n,
    nSource: d.nSource,
    score: verlScoreName !== undefined ? valCore[verlScoreName] : finiteOrNull(d.metrics[`eval/${d.name}`]),
    valCore,
    passAtK: passAtKOf(d.name, d.metrics),
    wrong,
  };
}
