// The engine against the figures miles' and verl's own functions computed on random cases
// (scripts/audit-metrics.py writes them; docs/framework-files.md, "Random cases against the
// frameworks' functions"):
//   node scripts/audit-metrics.mjs <out dir of audit-metrics.py>
// Per case: every metric the framework logged is recomputed with the same name and value (within
// 1e-12, relative above 1: both sides compute in float64), and no other of its kind; miles' filter
// drops are the engine's (its aborted reasons named by cause, summed); a case on which the framework
// raised gives the finding that names the error. Prints the cases that differ and a summary; exits 1
// if any did.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadEngine } from '../bench/measure.mjs';

const out = process.argv[2];
if (!out || !existsSync(join(out, 'miles'))) {
  console.error('usage: node scripts/audit-metrics.mjs <out dir of scripts/audit-metrics.py>');
  process.exit(2);
}
const { analyzeFiles, nodeFileAccess, DEFAULT_SETTINGS, loadEvalConfig } = await loadEngine(out);

/** Python's json.dump writes NaN and Infinity bare. */
function readExpected(path) {
  const text = readFileSync(path, 'utf8')
    .replace(/-Infinity\b/g, '"-Infinity"')
    .replace(/(?<!-)\bInfinity\b/g, '"Infinity"')
    .replace(/\bNaN\b/g, '"NaN"');
  return JSON.parse(text, (_, v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v));
}

/** Within `tolerance` (relative above 1): 1e-12 where the framework computes in float64, 1e-6 for verl's float32 training metrics. */
function same(a, b, tolerance) {
  return Object.is(a, b) || a === b || (Number.isFinite(b) && Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b)));
}

/** Differences between the framework's `want` metrics and the engine's `got` of the same kind (`ours`). */
function compareMetrics(want, got, skip, ours, tolerance = 1e-12) {
  const problems = [];
  for (const [k, v] of Object.entries(want)) {
    if (skip(k)) continue;
    if (!(k in got)) problems.push(`${k} not recomputed (framework ${v})`);
    else if (!same(got[k], v, tolerance)) problems.push(`${k}: engine ${got[k]}, framework ${v}`);
  }
  for (const k of Object.keys(got)) if (ours(k) && !(k in want)) problems.push(`engine only: ${k} = ${got[k]}`);
  return problems;
}

const DROP = 'rollout/dynamic_filter/drop_';

function milesProblems(want, report) {
  const m = report.files[0].metrics;
  const problems = [];
  if (want.kind === 'rollout') {
    // The engine's model (rollout/analyze.ts): a group with an aborted member never reaches miles' logging.
    const crash = want.crash_without_aborted_groups;
    const named = report.findings.some((f) => f.code === 'metrics-crash' && crash !== null && f.message.includes(crash));
    if (named !== (crash !== null)) problems.push(`miles without aborted groups raises ${crash}; metrics-crash: ${named}`);
    if (want.crash === null)
      problems.push(
        ...compareMetrics(
          want.metrics,
          m,
          (k) => k === 'rollout/step' || !k.startsWith('rollout/'),
          (k) => k.startsWith('rollout/') && !k.startsWith(DROP),
        ),
      );
    const drops = Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith(DROP)));
    const aborted = Object.entries(drops).reduce((s, [k, v]) => s + (k.startsWith(`${DROP}group_has_aborted`) ? v : 0), 0);
    if ((want.drops.group_has_aborted ?? 0) !== aborted) problems.push(`aborted drops: engine ${aborted}, miles ${want.drops.group_has_aborted ?? 0}`);
    for (const [reason, count] of Object.entries(want.drops))
      if (reason !== 'group_has_aborted' && drops[`${DROP}${reason}`] !== count)
        problems.push(`${DROP}${reason}: engine ${drops[`${DROP}${reason}`]}, miles ${count}`);
    for (const k of Object.keys(drops))
      if (!k.startsWith(`${DROP}group_has_aborted`) && !(k.slice(DROP.length) in want.drops)) problems.push(`engine only: ${k}`);
  } else if (want.crash !== null) {
    if (!report.findings.some((f) => f.message.includes(want.crash))) problems.push(`miles raises ${want.crash}; no finding names it`);
  } else {
    problems.push(...evalFigures(want, m));
  }
  return problems;
}

/** An eval step's figures: every eval/ metric but the step. */
function evalFigures(want, m) {
  return compareMetrics(
    want.metrics,
    m,
    (k) => k === 'eval/step',
    (k) => k.startsWith('eval/'),
  );
}

/** slime (core/vocabulary/frameworks.ts): no aborted-group filter, so every sample reaches its logging and filter. */
function slimeProblems(want, report) {
  const m = report.files[0].metrics;
  const problems = [];
  if (want.crash !== null) {
    if (!report.findings.some((f) => f.code === 'metrics-crash' && f.message.includes(want.crash)))
      problems.push(`slime raises ${want.crash}; no finding names it`);
  } else if (report.findings.some((f) => f.code === 'metrics-crash')) problems.push('metrics-crash where slime raised nothing');
  if (want.kind === 'eval') {
    if (want.crash === null) problems.push(...evalFigures(want, m));
    return problems;
  }
  if (want.crash === null)
    problems.push(
      ...compareMetrics(
        want.metrics,
        m,
        (k) => !k.startsWith('rollout/'),
        (k) => k.startsWith('rollout/') && !k.startsWith(DROP),
      ),
    );
  const drops = Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith(DROP)));
  for (const [reason, count] of Object.entries(want.drops))
    if (drops[`${DROP}${reason}`] !== count) problems.push(`${DROP}${reason}: engine ${drops[`${DROP}${reason}`]}, slime ${count}`);
  for (const k of Object.keys(drops)) if (!(k.slice(DROP.length) in want.drops)) problems.push(`engine only: ${k}`);
  // slime steps through slime's generation (audit_compact.py): what its filter raised per group, and the
  // groups its assertion refuses (counted by rollout).
  if (want.filter_raised_by_group !== undefined) {
    const crashes = report.findings.filter((f) => f.code === 'filter-crash');
    const raised = Object.entries(want.filter_raised_by_group);
    if (crashes.length !== raised.length) problems.push(`filter-crash findings: engine ${crashes.length}, slime raised on ${raised.length} groups`);
    for (const [group, error] of raised)
      if (!crashes.some((f) => f.group === group && f.message.includes(error)))
        problems.push(`group ${group}: slime raises ${error}; no filter-crash names it`);
  }
  if (want.incomplete_groups !== undefined) {
    const sizes = report.findings.filter((f) => f.code === 'incomplete-group').map((f) => f.group);
    if (sizes.join() !== want.incomplete_groups.join()) problems.push(`incomplete-group on [${sizes}], slime's assertion on [${want.incomplete_groups}]`);
    if (want.incomplete_groups.length > 0 && want.short_group_crash !== 'AssertionError: ')
      problems.push(`slime raised ${want.short_group_crash} on a short group`);
  }
  return problems;
}

const PASSRATE = 'passrate/';

/**
 * miles' stock configurations (audit-metrics.py `miles_stock_case`): the eval figures (or the
 * finding naming what miles raised); a rollout's rollout/ and passrate/ figures, its drops, and a
 * filter-crash naming what check_reward_nonzero_std raised on each group that raised.
 */
function stockProblems(want, report) {
  const m = report.files[0].metrics;
  if (want.crash !== null && want.crash !== undefined)
    return report.findings.some((f) => f.message.includes(want.crash)) ? [] : [`miles raises ${want.crash}; no finding names it`];
  if (want.kind === 'eval') return evalFigures(want, m);
  const problems = compareMetrics(
    want.metrics,
    m,
    (k) => k === 'rollout/step' || !(k.startsWith('rollout/') || k.startsWith(PASSRATE)),
    (k) => (k.startsWith('rollout/') && !k.startsWith(DROP)) || k.startsWith(PASSRATE),
  );
  const drops = Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith(DROP)));
  const aborted = Object.entries(drops).reduce((s, [k, v]) => s + (k.startsWith(`${DROP}group_has_aborted`) ? v : 0), 0);
  if ((want.drops.group_has_aborted ?? 0) !== aborted) problems.push(`aborted drops: engine ${aborted}, miles ${want.drops.group_has_aborted ?? 0}`);
  for (const [reason, count] of Object.entries(want.drops))
    if (reason !== 'group_has_aborted' && drops[`${DROP}${reason}`] !== count)
      problems.push(`${DROP}${reason}: engine ${drops[`${DROP}${reason}`]}, miles ${count}`);
  const crashes = report.findings.filter((f) => f.code === 'filter-crash');
  const raised = Object.entries(want.filter_raised_by_group);
  if (crashes.length !== raised.length) problems.push(`filter-crash findings: engine ${crashes.length}, miles raised on ${raised.length} groups`);
  for (const [group, error] of raised)
    if (!crashes.some((f) => f.group === group && f.message.includes(error))) problems.push(`group ${group}: miles raises ${error}; no filter-crash names it`);
  return problems;
}

/** `pass@<k> = <v>` pairs a compact-rollouts finding states by rollouts (rollout/compactRollouts.ts). */
function statedByRollouts(message) {
  const at = message.indexOf('by rollouts (');
  const out = {};
  if (at < 0) return out;
  for (const m of message.slice(at).matchAll(/(pass@\d+) = ([^,\s]+?)(?=,|\.$|$)/g)) out[m[1]] = Number(m[2]);
  return out;
}

/**
 * Compact / sub-agent rollouts (audit-metrics.py `miles_compact_case`): the figures miles logged (the
 * dump holds the kept groups only, so no drops), no incomplete-group but on a group written short,
 * and a compact-rollouts finding exactly where a rollout fans out, stating pass@k by rollouts as
 * compute_pass_rate gives it.
 */
function compactProblems(want, report) {
  const problems = [];
  if (want.crash !== null) {
    if (!report.findings.some((f) => f.code === 'metrics-crash' && f.message.includes(want.crash)))
      problems.push(`miles raises ${want.crash}; no finding names it`);
  } else
    problems.push(
      ...compareMetrics(
        want.metrics,
        report.files[0].metrics,
        (k) => k.startsWith(DROP),
        (k) => (k.startsWith('rollout/') && !k.startsWith(DROP)) || k.startsWith(PASSRATE),
      ),
    );
  // What convert_samples_to_train_data raised (_normalize_rewards_by_rollout), quoted exactly; nothing where it raised nothing.
  const trainCrash = report.findings.filter((f) => f.code === 'train-data-crash');
  const trainWant = want.train_crash ?? null;
  if (trainWant === null ? trainCrash.length > 0 : trainCrash.length !== 1 || !trainCrash[0].message.includes(` raises ${trainWant} in `))
    problems.push(
      `convert_samples_to_train_data raises ${trainWant}; train-data-crash: ${trainCrash.map((f) => f.message.slice(0, 160)).join(' | ') || 'none'}`,
    );
  if (trainWant !== null) tally.trainCrashes++;
  const short = report.findings.filter((f) => f.code === 'incomplete-group').map((f) => f.group);
  if (short.join() !== (want.short_group ?? '')) problems.push(`incomplete-group on [${short}], written short: ${want.short_group}`);
  const info = report.findings.filter((f) => f.code === 'compact-rollouts');
  if (info.length !== (want.fanned_out > 0 ? 1 : 0)) problems.push(`compact-rollouts findings: ${info.length}, fanned-out groups ${want.fanned_out}`);
  if (info.length === 1) {
    if (!info[0].message.startsWith(`${want.fanned_out} of `)) problems.push(`fanned-out groups: ${info[0].message.slice(0, 20)}…, miles ${want.fanned_out}`);
    problems.push(
      ...compareMetrics(
        want.pass_at_k_by_rollouts,
        statedByRollouts(info[0].message),
        () => false,
        () => true,
      ).map((p) => `by rollouts: ${p}`),
    );
    tally.metrics += Object.keys(want.pass_at_k_by_rollouts).length;
  }
  if (want.crash === null && report.findings.some((f) => f.code === 'metrics-crash')) problems.push('metrics-crash where miles raised nothing');
  return problems;
}

/**
 * Compact attempts in miles' eval path (audit_compact.py `miles_compact_eval_case`): every figure
 * log_eval_rollout_data logged (or the finding naming what it raised), one finding on the fan-out
 * where an attempt fans out, and no misgrouped-dataset there (no n would fix miles' chunks).
 */
function compactEvalProblems(want, report) {
  const problems =
    want.crash !== null
      ? report.findings.some((f) => f.message.includes(want.crash))
        ? []
        : [`miles raises ${want.crash}; no finding names it`]
      : evalFigures(want, report.files[0].metrics);
  const fan = report.findings.filter((f) => (f.code === 'compact-rollouts' || f.code === 'metrics-crash') && / fan out into several samples/.test(f.message));
  if (fan.length !== (want.fanned_out > 0 ? 1 : 0)) problems.push(`fan-out findings: ${fan.length}, attempts fanned out ${want.fanned_out}`);
  else if (fan.length === 1 && !fan[0].message.startsWith(`${want.fanned_out} of `))
    problems.push(`fanned-out attempts: ${fan[0].message.slice(0, 30)}…, miles ${want.fanned_out}`);
  if (want.fanned_out > 0 && report.findings.some((f) => f.code === 'misgrouped-dataset')) problems.push('misgrouped-dataset on fanned-out attempts');
  return problems;
}

function verlProblems(want, report) {
  const mean = (k) => k.includes('/mean@') || k.includes('/std@');
  return compareMetrics(want.metrics, report.files[0].metrics, () => false, mean);
}

// What the dump holds the data of: its score column and its empty outputs (no token counts, no KL-penalised rewards).
const VERL_TRAINING = ['critic/score/', 'response/aborted_ratio'];

function verlRolloutProblems(want, report) {
  // A step whose every response is empty: the denominator-inflation finding names what verl raised.
  if (want.crash !== null) return report.findings.some((f) => f.message.includes(want.crash)) ? [] : [`verl raises ${want.crash}; no finding names it`];
  const ours = (k) => VERL_TRAINING.some((p) => k.startsWith(p));
  return compareMetrics(want.metrics, report.files[0].metrics, (k) => !ours(k), ours, 1e-6);
}

/** `<name> between <least> and <most>` in the denominator finding: the ranges the dump allows (eval/verlEmptyRows.ts). */
function statedRanges(report) {
  const f = report.findings.find((x) => x.code === 'denominator-inflation');
  const ranges = {};
  for (const m of f?.message.matchAll(/(\S+) between (\S+) and ([^,\s]+)/g) ?? []) ranges[m[1]] = [Number(m[2]), Number(m[3])];
  return ranges;
}

/**
 * Responses of only an end token beside aborted ones: the engine's figures are verl's with every
 * empty output aborted, and the ranges it states hold what verl logged for the step (float32: 1e-6).
 */
function verlEndTokenProblems(want, report) {
  const problems =
    want.all_empty_aborted === null
      ? report.findings.some((f) => f.message.includes(want.all_empty_aborted_crash))
        ? []
        : [`verl raises ${want.all_empty_aborted_crash} with every empty output aborted; no finding names it`]
      : verlRolloutProblems({ metrics: want.all_empty_aborted, crash: null }, report);
  const ranges = statedRanges(report);
  for (const [name, v] of Object.entries(want.metrics)) {
    const range = ranges[name];
    if (range === undefined) problems.push(`${name}: no range stated (verl ${v})`);
    else if (!(same(v, range[0], 1e-6) || same(v, range[1], 1e-6) || (v >= range[0] && v <= range[1])))
      problems.push(`${name}: verl ${v} outside ${range[0]} to ${range[1]}`);
  }
  tally.endTokenRows += want.end_token_rows;
  return problems;
}

const tally = { slime: 0, cases: 0, raising: 0, differ: 0, metrics: 0, endTokenRows: 0, trainCrashes: 0 };
/** Per folder: cases (a .pt dump counted apart) and those that differ. */
const perFolder = {};
for (const [folder, check, settings] of [
  ['miles/rollout', milesProblems, { ...DEFAULT_SETTINGS, dynamicFilter: 'check_reward_nonzero_std' }],
  ['miles/eval', milesProblems, DEFAULT_SETTINGS],
  ['slime/rollout', slimeProblems, { ...DEFAULT_SETTINGS, dynamicFilter: 'check_reward_nonzero_std' }],
  ['slime/eval', slimeProblems, DEFAULT_SETTINGS],
  ['verl/validation', verlProblems, DEFAULT_SETTINGS],
  ['verl/rollout', verlRolloutProblems, DEFAULT_SETTINGS],
  ['miles/stock-eval', stockProblems, null],
  ['miles/stock-rollout', stockProblems, null],
  ['verl/rollout-end-token', verlEndTokenProblems, DEFAULT_SETTINGS],
  ['miles/compact', compactProblems, null],
  ['miles/compact-eval', compactEvalProblems, null],
  ['slime/compact', slimeProblems, null],
  ['slime/compact-eval', slimeProblems, null],
]) {
  const dir = join(out, folder);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const want = readExpected(join(dir, name));
    const file = name.replace(/\.json$/, '.jsonl');
    // miles' and slime's cases also as their own .pt dump of the same samples: the same figures are due.
    const fw = folder.split('/')[0];
    const stock = folder.startsWith('miles/stock-');
    // Stock cases' dumps are numbered from 100000, compact cases' from 200000, compact eval cases' from 300000.
    const offset = stock ? 100000 : folder.endsWith('/compact') ? 200000 : folder.endsWith('/compact-eval') ? 300000 : 0;
    const dumpName = offset
      ? file.replace(/^(eval_|case)(\d+)\.jsonl$/, (_, p, n) => `${p === 'case' ? '' : p}${offset + Number(n)}.pt`)
      : file.replace(/^case/, '').replace(/\.jsonl$/, '.pt');
    const dump = fw === 'miles' || fw === 'slime' ? `${fw}/rollout_data/${dumpName}` : null;
    // A stock or compact case carries its settings (and a stock eval case its eval config).
    const caseSettings = settings ?? { ...DEFAULT_SETTINGS, ...want.settings };
    const evalConfig = want.eval_config ? await loadEvalConfig(join(dir, want.eval_config), nodeFileAccess) : null;
    for (const rel of dump !== null && existsSync(join(out, dump)) ? [`${folder}/${file}`, dump] : [`${folder}/${file}`]) {
      const report = await analyzeFiles([{ path: join(out, rel), displayPath: rel }], { access: nodeFileAccess, settings: caseSettings, evalConfig });
      const figuresBefore = tally.metrics;
      const problems = check(want, report);
      const checkFigures = tally.metrics - figuresBefore;
      tally.cases++;
      if (rel.startsWith('slime/')) tally.slime++;
      const kind = (perFolder[folder] ??= { cases: 0, differ: 0, figures: 0 });
      kind.cases++;
      if (problems.length > 0) kind.differ++;
      if (want.crash || want.train_crash || Object.keys(want.filter_raised_by_group ?? {}).length > 0) tally.raising++;
      const before = tally.metrics;
      tally.metrics += Object.keys(want.metrics ?? {}).length;
      kind.figures += tally.metrics - before + checkFigures;
      if (problems.length === 0) continue;
      tally.differ++;
      if (tally.differ <= 20) console.log(`${rel}\n  ${problems.slice(0, 8).join('\n  ')}`);
    }
  }
}
console.log(
  `${tally.cases} cases (${tally.slime} slime; ${tally.raising} on which the framework raised), ${tally.metrics} framework figures, ${tally.differ} cases differ; ` +
    `${tally.endTokenRows} verl rows of only an end token; ${tally.trainCrashes} compact files on which convert_samples_to_train_data raised`,
);
for (const [folder, k] of Object.entries(perFolder)) console.log(`  ${folder}: ${k.cases} cases, ${k.figures} figures, ${k.differ} differ`);
process.exitCode = tally.differ > 0 ? 1 : 0;
