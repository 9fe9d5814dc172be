// The run view following its run (`node bench/runView.mjs --only follow`): one server draws the
// run, then a new step file appears and the time to the redrawn model is taken: the client's
// debounce (REDRAW_DEBOUNCE_MS of client/src/runViewPanel.ts, added, not waited) plus the `runView`
// request that draws it again, on a copy of the example run (a new step of 8 groups) and on the
// 10 M-sample folder (hard links; the new step a hard link of the 1 M-sample short file).
import { cpSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { load, machine, pct, root } from './measure.mjs';
import { bounded, cpuOf, memOf, serverOn, warmFolder } from './runViewServer.mjs';

/** The client's debounce before a redraw (client/src/runViewPanel.ts REDRAW_DEBOUNCE_MS). */
const REDRAW_DEBOUNCE_MS = 300;
const FOLLOW_TARGET_MS = { example: 1000, folder: 3000 };
const TARGET_MB = 200;

/**
 * One server draws the run view of `folder`, then `addStep()` writes a new step file and the run
 * view is asked again: the redraw's wall time (plus the client's debounce), its server CPU, the
 * server's peak RSS over both, and both answers.
 */
async function followOnce(bundle, folder, addStep) {
  warmFolder(folder);
  const { client, child, uri, close } = await serverOn(bundle, folder);
  const t0 = performance.now();
  const before = await bounded('runView', client.sendRequest('rolloutLens/runView', { uri }), 600_000);
  const firstMs = performance.now() - t0;
  addStep();
  const cpu0 = cpuOf(child.pid);
  const t1 = performance.now();
  const after = await bounded('runView again', client.sendRequest('rolloutLens/runView', { uri }), 600_000);
  const redrawMs = performance.now() - t1;
  const cpu = cpuOf(child.pid) - cpu0;
  const mem = memOf(child.pid);
  await close();
  return { before, after, firstMs, ms: REDRAW_DEBOUNCE_MS + redrawMs, requestMs: redrawMs, cpu, peak: mem.peak };
}

/**
 * The follow rows: the example run and the 10 M-sample folder (`folder`: its `files`, of `want`'s
 * totals), each checked (the new step drawn, with its samples); the section's text.
 */
export async function follow({ bundle, folder: FOLDER, files, want, runs: RUNS }) {
  const loadBeforeFollow = load();
  const rows = [];
  const exampleLines = readFileSync(join(root, 'examples/run/rollout/rollout_2.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.stringify({ ...JSON.parse(l), rollout_id: 4 }));
  const folderLinks = join(root, 'bench/.data', `${basename(FOLDER)}-follow`);
  const short = join(root, 'bench/.data/scale-short-1m-seed7.jsonl');
  for (let i = 0; i < RUNS; i++) {
    const ex = join(root, 'bench/.data/runview-follow-example');
    rmSync(ex, { recursive: true, force: true });
    cpSync(join(root, 'examples/run'), ex, { recursive: true });
    const e = await followOnce(bundle, ex, () => writeFileSync(join(ex, 'rollout/rollout_4.jsonl'), `${exampleLines.join('\n')}\n`));
    const step4 = e.after.steps.find((s) => s.step === 4 && e.after.runs[s.run].framework === 'miles');
    if (!step4 || step4.samples !== exampleLines.length || e.after.totals.samples !== e.before.totals.samples + exampleLines.length)
      throw new Error(`example run: the redrawn model lacks step 4 of ${exampleLines.length} samples`);
    rows.push({ what: 'example', ...e });
    console.log(
      `follow (example run): first ${(e.firstMs / 1000).toFixed(2)} s, new step file → redrawn model ${e.ms.toFixed(0)} ms, peak RSS ${e.peak.toFixed(0)} MB`,
    );

    if (!existsSync(short)) throw new Error(`${short} is missing: run node bench/scale.mjs first`);
    rmSync(folderLinks, { recursive: true, force: true });
    mkdirSync(folderLinks, { recursive: true });
    for (const f of files) linkSync(join(FOLDER, f), join(folderLinks, f));
    const n = files.length + 1;
    const f = await followOnce(bundle, folderLinks, () => linkSync(short, join(folderLinks, `rollout_${n}.jsonl`)));
    const added = f.after.steps.find((s) => s.step === n);
    if (!added || added.samples !== 1_000_000 || f.after.totals.samples !== want.totals.samples + 1_000_000 || f.before.totals.samples !== want.totals.samples)
      throw new Error(`10 M folder: the redrawn model lacks step ${n} of 1,000,000 samples (${JSON.stringify(f.after.totals)})`);
    rows.push({ what: 'folder', ...f });
    console.log(
      `follow (10 M folder): first ${(f.firstMs / 1000).toFixed(1)} s, new step file → redrawn model ${f.ms.toFixed(0)} ms, CPU ${f.cpu.toFixed(1)} s, peak RSS ${f.peak.toFixed(0)} MB`,
    );
  }
  rmSync(folderLinks, { recursive: true, force: true });
  const line = (what, label, target) => {
    const xs = rows.filter((r) => r.what === what);
    const ms = pct(
      xs.map((x) => x.ms),
      50,
    );
    const peak = Math.max(...xs.map((x) => x.peak));
    const first = pct(
      xs.map((x) => x.firstMs),
      50,
    );
    const rss = what === 'folder' ? `; ≤ ${TARGET_MB} MB: ${peak <= TARGET_MB ? 'met' : 'missed'}` : '';
    return `| ${label} | ${(first / 1000).toFixed(2)} | ${ms.toFixed(0)} | ${pct(
      xs.map((x) => x.cpu),
      50,
    ).toFixed(2)} | ${peak.toFixed(0)} | ≤ ${target} ms: ${ms <= target ? 'met' : `missed by ${(ms - target).toFixed(0)} ms`}${rss} |`;
  };
  return `
## Run view following its run

\`node bench/runView.mjs --only follow --runs ${RUNS}\`: one language server draws the run view, then a new step file appears and the run view is asked again; "redraw" is the client's debounce (${REDRAW_DEBOUNCE_MS} ms, added) plus that request's wall time, each answer checked (the new step, with its samples); unchanged files are not read again (their part of the model is kept by their stamp). Runs: ${RUNS}, p50 shown. ${machine(loadBeforeFollow)}.

| run, new step file | first draw (s) | redraw (ms) | redraw server CPU (s) | peak RSS (MB) | target |
|---|---|---|---|---|---|
${line('example', 'example run (examples/run), `rollout/rollout_4.jsonl` of 8 groups', FOLLOW_TARGET_MS.example)}
${line('folder', `10 M-sample folder (${files.length} × 1 M), \`rollout_${files.length + 1}.jsonl\` of 1 M samples`, FOLLOW_TARGET_MS.folder)}
`;
}
