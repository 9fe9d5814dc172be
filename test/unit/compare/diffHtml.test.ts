// `rollout-lens diff --out diff.html` through the built CLI: the file is written beside the usual
// output, is self-contained (its chart script inline under a nonce, no external reference), carries
// exactly the JSON diff, shows the gate and the flipped prompts, and keeps hostile log text
// (causes, dataset names, folder names) from becoming markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RunDiff } from '../../../shared/runDiff';
import type { DiffChartData } from '../../../shared/diffViewModel';
import { DIFF_CONTRACT } from '../../shared/compareContract';
import { copyMilesRun, HOSTILE, hostileRun, INJECTED, injectSandboxAbort } from '../../shared/compareRun';
import { runCli, tempDir } from '../cli/run';

// The page's chart script reads the diff as `DiffChartData`: the diff must stay assignable to it.
const readsTheDiff: (diff: RunDiff) => DiffChartData = (diff) => diff;
void readsTheDiff;

function pageData(html: string): unknown {
  const m = /<script type="application\/json" id="diff-model">([^<]*)<\/script>/.exec(html);
  assert.ok(m, 'the diff as JSON');
  return JSON.parse(m[1]);
}

function selfContained(html: string): void {
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-[^"]+&#39;;/);
  assert.doesNotMatch(html, /\bsrc=|<link|https?:\/\/(?!www\.w3\.org)/i, 'no external reference');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.equal(scripts.length, 2, 'the data and the chart script');
  assert.match(scripts[1], /^<script nonce="[A-Za-z0-9+/=]+">$/);
  assert.ok(html.length > 100_000, 'Chart.js inline');
}

test('diff --out: the page is written, self-contained, with the JSON diff as its data, the gate and the flipped prompts', (t) => {
  const dir = tempDir(t);
  copyMilesRun(join(dir, 'base'));
  injectSandboxAbort(copyMilesRun(join(dir, 'cand')));
  const plain = runCli(['diff', '--gate', 'base', 'cand'], dir);
  const r = runCli(['diff', '--gate', '--out', 'diff.html', 'base', 'cand'], dir);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, plain.stdout, 'the text as without --out');
  assert.match(r.stderr, /^wrote diff\.html: 4 paired steps, gate failed, \d+ bytes\n$/);
  const html = readFileSync(join(dir, 'diff.html'), 'utf8');
  selfContained(html);
  const json = runCli(['diff', '--gate', '--format', 'json', 'base', 'cand'], dir);
  assert.deepEqual(pageData(html), DIFF_CONTRACT.parse(JSON.parse(json.stdout)));
  assert.match(html, /<title>Rollout Lens diff: base → cand<\/title>/);
  // The gate first, with its rule, message and evidence; then the causes, datasets and flips.
  assert.match(
    html,
    new RegExp(
      `<section id="gate" class="failed"><h2>Gate: failed \\(1\\)</h2>.*<tr class="failure"><td class="rule mono">drop-rate-increase</td><td class="text">group_has_aborted_SandboxUnavailable: drop rate 4\\.1667% → 8\\.3333% \\(\\+4\\.1667 points, more than 2\\)</td><td><div class="mono">cand/${INJECTED.file.replace('.', '\\.')}:${INJECTED.line}</div></td></tr>`,
    ),
  );
  assert.ok(html.indexOf('id="gate"') < html.indexOf('<main id="app">'), 'the gate before the charts');
  assert.match(html, /<li><span class="mono">kept → group_has_aborted_SandboxUnavailable<\/span>: 1<\/li>/);
  assert.match(
    html,
    new RegExp(
      `<tr class="flip"><td>rollout 2 → 2</td><td class="mono"></td><td class="mono text">[0-9a-f]{16}</td><td class="mono">kept</td><td class="mono">group_has_aborted_SandboxUnavailable</td><td class="mono">base/${INJECTED.file}:\\d+</td><td class="mono">cand/${INJECTED.file}:${INJECTED.line}</td></tr>`,
    ),
  );
  assert.equal(
    (html.match(/<tr class="dataset">/g) ?? []).length,
    5 + 4 + 4,
    'score, pass@k and samples of aime (n 4: pass@1, 2, 4), gpqa and swe_verified (n 2)',
  );

  // Identical runs: the gate passed, nothing flipped; reported only (exit 0) without --gate.
  const same = runCli(['diff', '--out', 'same.html', 'base', 'base'], dir);
  assert.equal(same.status, 0, same.stderr);
  const sameHtml = readFileSync(join(dir, 'same.html'), 'utf8');
  assert.match(sameHtml, /<section id="gate" class="passed"><h2>Gate: passed<\/h2>.*the gate is reported, not enforced \(--gate\)/);
  assert.match(sameHtml, /<p>32 prompt-steps in both runs, 0 flipped\.<\/p>/);
});

test('diff --out: an unwritable file exits 2 after the report', (t) => {
  const dir = tempDir(t);
  copyMilesRun(join(dir, 'base'));
  const r = runCli(['diff', '--out', dir, 'base', 'base'], dir);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /rollout-lens: diff: cannot write /);
  assert.match(r.stdout, /^baseline: {2}base /, 'the diff is still reported');
  assert.equal(runCli(['diff', '--out', '', 'base', 'base'], dir).status, 2);
});

test('diff --out: hostile causes, dataset names and folder names are text, never markup', (t) => {
  const dir = tempDir(t);
  hostileRun(join(dir, 'base'), false);
  hostileRun(join(dir, HOSTILE.folder), true);
  const r = runCli(['diff', '--gate', '--out', 'diff.html', 'base', HOSTILE.folder], dir);
  assert.equal(r.status, 1, r.stderr);
  const html = readFileSync(join(dir, 'diff.html'), 'utf8');
  selfContained(html);
  for (const raw of [HOSTILE.cause, HOSTILE.dataset, '<b id=injected>']) assert.ok(!html.includes(raw), `no raw ${JSON.stringify(raw)}`);
  // The bidi override only inside the inert data (read by the script, never shown as it is).
  const data = /<script type="application\/json" id="diff-model">[^<]*<\/script>/.exec(html)![0];
  assert.ok(!html.replace(data, '').includes('\u202E'), 'no raw bidi override outside the data');
  // Shown escaped, the bidi override as a visible label, in the gate, the causes and the flips.
  const cause = `group_has_aborted_${HOSTILE.cause}`;
  assert.ok(
    html.includes(`<td class="mono">group_has_aborted_&#60;script&#62;window.__pwned=1&#60;/script&#62;Sandbox</td><td>new</td>`),
    'the cause, escaped',
  );
  assert.ok(html.includes('c&#60;b id=injected&#62;&#60;U+202E&#62;ldnuj/rollout/rollout_5.jsonl:2'), 'the folder, escaped');
  assert.ok(html.includes('<td class="mono">ds&#60;/script&#62;&#60;b id=injected&#62;x&#60;/b&#62;</td>'), 'the dataset, escaped');
  // The data is the JSON diff, its strings intact.
  const json = runCli(['diff', '--gate', '--format', 'json', 'base', HOSTILE.folder], dir);
  const diff = DIFF_CONTRACT.parse(JSON.parse(json.stdout));
  assert.deepEqual(pageData(html), diff);
  assert.equal(diff.gate.failures[0].rule, 'new-drop-cause');
  assert.ok(diff.causes.some((c) => c.reason === cause));
  assert.ok(diff.datasets.some((d) => d.name === HOSTILE.dataset));
});
