// `rollout-lens`: the command-line front end on the same engine as the language server, bundled
// as dist/cliMain.js and started by dist/cli.js (cliStart.ts), which has set V8's flags.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseCommand, UsageError, USAGE } from './cli/args';
import { runCheck } from './cli/check';
import { runReport } from './cli/report';
import { escapeInline } from './cli/escape';
import { runExport } from './cli/exportPt';
import { runInspect } from './cli/inspect';
import { COMPARE_USAGE, parseCompareCommand } from './cli/compareArgs';
import { runDiff } from './cli/diff';
import { runPrompts } from './cli/prompts';
import { runSummarize } from './cli/summarize';

/** The package version (the bundle sits in `dist/`, next to `package.json`'s folder). */
function version(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

// `rollout-lens check … | head`: a closed pipe ends the output, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

/** `[3/200] run/rollout_3.jsonl` on one terminal line, erased when done. */
function terminalProgress(done: number, total: number, file: string | null): void {
  const width = Math.max(20, (process.stderr.columns ?? 80) - 1);
  const text = file === null ? '' : escapeInline(`[${done + 1}/${total}] ${file}`).slice(0, width);
  process.stderr.write(`\r\x1b[K${text}`);
}

async function main(argv: string[]): Promise<number> {
  const io = {
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
    progress: process.stderr.isTTY ? terminalProgress : undefined,
    drained: () => (process.stdout.writableNeedDrain ? new Promise<void>((done) => process.stdout.once('drain', done)) : Promise.resolve()),
  };
  try {
    const compare = parseCompareCommand(argv);
    if (compare?.kind === 'compare-help') {
      io.stdout(`${COMPARE_USAGE}\n`);
      return 0;
    }
    if (compare?.kind === 'summarize') return await runSummarize(compare.args, io);
    if (compare?.kind === 'diff') return await runDiff(compare.args, io);
    if (compare?.kind === 'prompts') return await runPrompts(compare.args, io);
    const command = parseCommand(argv);
    if (command.kind === 'help') {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (command.kind === 'version') {
      io.stdout(`${version()}\n`);
      return 0;
    }
    if (command.kind === 'report') return await runReport(command.args, io);
    if (command.kind === 'export') return await runExport(command.file, command.out, io, command.tensors);
    if (command.kind === 'inspect') return await runInspect(command.args, io);
    return await runCheck(command.args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`rollout-lens: ${escapeInline(err.message)}\n${USAGE.split('\n')[0]}\n`);
      // `report` fails with 1 when its file is not written (cli/report.ts); the others with 2.
      return argv[0] === 'report' ? 1 : 2;
    }
    io.stderr(`rollout-lens: internal error: ${escapeInline(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    return argv[0] === 'report' ? 1 : 2;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
