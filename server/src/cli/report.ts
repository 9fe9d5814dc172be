// `rollout-lens report`: the analysis of `check` as one self-contained HTML file (the run view
// model, the chart script and the styles inline; no network), made to be shared as a CI artifact:
// its findings by code with severity and message, every path relative to the path given, and exit
// status 0 once the file is written (its findings are for whoever reads it; `check` is the gate).
// Safe to open from an untrusted run: see shared/runViewPage.ts for how log text is kept from
// becoming markup.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runViewHtml } from '../../../shared/runViewPage';
import { RUN_VIEW_STYLES } from '../../../shared/runViewStyles';
import { DEFAULT_SAMPLES_PER_REASON, type RunViewBuilder, runViewBuilder } from '../core/views/runView';
import { attachExcerpts } from '../core/views/runViewExcerpts';
import { groupFindings } from '../core/views/findingGroups';

import type { ReportArgs } from './args';
import { analyzeRun, type Io } from './check';
import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';
import { findingsSection, notReadSection, REPORT_FINDINGS_STYLES } from './reportFindings';
import { relativeModel, reportPaths } from './reportPaths';

/** The chart script bundled beside the CLI (dist/runView.js). */
function chartScript(): string {
  return readFileSync(join(__dirname, 'runView.js'), 'utf8');
}

/** Exit status: 0 the file is written; 1 it is not (nothing to read, or it cannot be written; bad usage is 1 too, cli.ts). */
export async function runReport(args: ReportArgs, io: Io, script: () => string = chartScript): Promise<number> {
  let builder: RunViewBuilder | null = null;
  // What could not be read is said on stderr and, since the file is written anyway, in the file.
  const notRead: string[] = [];
  const said: Io = {
    ...io,
    stderr: (text) => {
      // `--progress` lines (`rollout-lens: [3/10] file`) are no problem.
      if (!/^rollout-lens: \[\d+\/\d+\] /.test(text)) notRead.push(text.replace(/^rollout-lens: /, '').replace(/\n$/, ''));
      io.stderr(text);
    },
  };
  const analysed = await analyzeRun(args, said, (file, settings, plan) => {
    builder ??= runViewBuilder({ causes: settings, samplesPerReason: args.samplesPerCause ?? DEFAULT_SAMPLES_PER_REASON, plan });
    builder.add(file);
  });
  if (analysed === null) return 1;
  const done = builder ?? runViewBuilder({ causes: analysed.settings });
  for (const [root, found] of analysed.tokenizers) done.addTokenizer(root, found);
  const built = done.finish(analysed.report);
  built.readAt = new Date().toISOString();
  await attachExcerpts(built, cliFileAccess);
  const paths = reportPaths(args.paths);
  const view = relativeModel(built, paths);
  // The findings are listed below with their messages, by this file's own section.
  view.findings = {};
  view.findingRows = [];
  view.findingRowsOmitted = 0;
  const findings = notReadSection(notRead, paths) + findingsSection(groupFindings(analysed.report.findings), paths);
  const title = `Rollout Lens report: ${paths.title()}`;
  const html = runViewHtml({
    model: view,
    title,
    nonce: nonce(),
    script: { inline: script() },
    styles: RUN_VIEW_STYLES + REPORT_FINDINGS_STYLES,
    appendix: findings,
  });
  try {
    writeFileSync(args.out, html);
  } catch (err) {
    io.stderr(`rollout-lens: cannot write ${escapeInline(args.out)}: ${escapeInline((err as Error).message)}\n`);
    return 1;
  }
  const t = view.totals;
  const n = analysed.report.findings.length;
  io.stdout(
    `wrote ${escapeInline(args.out)}: ${view.steps.length} steps, ${t.groups} groups (${t.dropped} dropped), ${view.eval.length} eval rows, ${n} finding${n === 1 ? '' : 's'}, ${html.length} bytes\n`,
  );
  return 0;
}

/** A script nonce: 18 random bytes in base64. Web Crypto (a global) rather than node:crypto, which costs every start of the CLI a module load. */
export function nonce(): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(18))).toString('base64');
}
