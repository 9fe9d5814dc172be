// `rollout-lens report`: the analysis of `check` as one self-contained HTML file (the run view
// model, the chart script and the styles inline; no network). Safe to open from an untrusted run:
// see shared/runViewPage.ts for how log text is kept from becoming markup.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runViewHtml } from '../../../shared/runViewPage';
import { RUN_VIEW_STYLES } from '../../../shared/runViewStyles';
import { DEFAULT_SAMPLES_PER_REASON, type RunViewBuilder, runViewBuilder } from '../core/views/runView';
import { attachExcerpts } from '../core/views/runViewExcerpts';
import { nodeFileAccess } from '../node/nodeFileAccess';

import type { ReportArgs } from './args';
import { analyzeRun, type Io } from './check';
import { escapeInline } from './escape';

/** The chart script bundled beside the CLI (dist/runView.js). */
function chartScript(): string {
  return readFileSync(join(__dirname, 'runView.js'), 'utf8');
}

export async function runReport(args: ReportArgs, io: Io, script: () => string = chartScript): Promise<number> {
  let builder: RunViewBuilder | null = null;
  const analysed = await analyzeRun(args, io, (file, settings, plan) => {
    builder ??= runViewBuilder({ causes: settings, samplesPerReason: args.samplesPerCause ?? DEFAULT_SAMPLES_PER_REASON, plan });
    builder.add(file);
  });
  if (analysed === null) return 2;
  const view = (builder ?? runViewBuilder({ causes: analysed.settings })).finish(analysed.report);
  await attachExcerpts(view, nodeFileAccess);
  const title = `Rollout Lens report: ${args.paths.join(', ')}`;
  const html = runViewHtml({ model: view, title, nonce: nonce(), script: { inline: script() }, styles: RUN_VIEW_STYLES });
  try {
    writeFileSync(args.out, html);
  } catch (err) {
    io.stderr(`rollout-lens: cannot write ${escapeInline(args.out)}: ${escapeInline((err as Error).message)}\n`);
    return 2;
  }
  const t = view.totals;
  io.stdout(
    `wrote ${escapeInline(args.out)}: ${view.steps.length} steps, ${t.groups} groups (${t.dropped} dropped), ${view.eval.length} eval rows, ${html.length} bytes\n`,
  );
  if (analysed.unreadable) return 2;
  return !args.exitZero && analysed.report.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/** A script nonce: 18 random bytes in base64. Web Crypto (a global) rather than node:crypto, which costs every start of the CLI a module load. */
function nonce(): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(18))).toString('base64');
}
