// Shared helpers of the reliability ring: real files in fresh temp folders, the real engine (the
// code path of `rollout-lens check`) through Node's FileAccess, and the built CLI bundle.
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../shared/protocol';
import { analyzeFiles, scanFile, type ScanState } from '../../server/src/core/engine';
import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import type { FileReport, Finding, RunReport } from '../../server/src/core/vocabulary/types';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { milesSample } from '../lsp/fixtures';
import { runCli, type CliResult } from '../unit/cli/run';

import { parseContract, type ContractReport } from './contract';
import { tempDir as sharedTempDir, type AfterHook, writeIn } from '../shared/tempDir';

export { milesSample };

export const tempDir = (t: AfterHook, prefix = 'rl-rel-'): string => sharedTempDir(t, prefix);

export { writeIn as write };

/**
 * Lines of `groups` rollout groups of 4 (starting at group `from`): every third group has one
 * aborted sample (cause `Cause<g mod 2>`), rewards alternate 1.0 / 0.0 so no group has zero std.
 */
export function groupLines(from: number, to: number): string[] {
  const out: string[] = [];
  for (let g = from; g < to; g++) {
    for (let i = 0; i < 4; i++) {
      const aborted = g % 3 === 1 && i === 0;
      out.push(
        milesSample({
          group: g,
          index: g * 4 + i,
          status: aborted ? 'aborted' : 'completed',
          exitStatus: aborted ? `Cause${g % 2}` : undefined,
          reward: aborted ? 'null' : `${i % 2}.0`,
        }),
      );
    }
  }
  return out;
}

export interface EngineRun {
  report: RunReport;
  file: FileReport;
  findings: Finding[];
}

/** One file through the engine exactly as the CLI runs it (no per-sample detail kept). */
export async function check(path: string, settings: Partial<RolloutLensSettings> = {}, access: FileAccess = nodeFileAccess): Promise<EngineRun> {
  const report = await analyzeFiles([{ path, displayPath: path }], { access, settings: { ...DEFAULT_SETTINGS, ...settings }, evalConfig: null });
  return { report, file: report.files[0], findings: report.findings };
}

export function scan(path: string, settings: Partial<RolloutLensSettings> = {}, access: FileAccess = nodeFileAccess, chunkSize?: number): Promise<ScanState> {
  return scanFile({ path, displayPath: path }, { access, settings: { ...DEFAULT_SETTINGS, ...settings }, chunkSize });
}

/** Codes of findings, in report order. */
export function codes(findings: readonly Finding[]): string[] {
  return findings.map((f) => f.code);
}

/** Every line accounted for: records + invalid lines + blank lines (+ an unfinished last line). */
export function accounted(s: ScanState): { lines: number; counted: number } {
  const unfinished = s.findings.some((f) => f.code === 'truncated-line') ? 1 : 0;
  return { lines: s.lines, counted: s.records + s.invalidLines + s.blankLines + unfinished };
}

export interface CliJson extends CliResult {
  doc: ContractReport;
}

/** The built CLI with `--format json`; its stdout must satisfy the contract. */
export function cliJson(args: string[], cwd?: string): CliJson {
  const r = runCli(['check', '--format', 'json', ...args], cwd);
  let doc: ContractReport;
  try {
    doc = parseContract(r.stdout);
  } catch (err) {
    throw new Error(`CLI JSON output breaks the contract (exit ${r.status}, stderr ${JSON.stringify(r.stderr.slice(0, 500))}): ${(err as Error).message}`);
  }
  return { ...r, doc };
}

export { runCli };
