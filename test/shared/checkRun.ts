// What `rollout-lens check` (the built dist/cli.js) finds on a run folder, per file, in the shape
// an editor's diagnostics are compared in: the reference every editor test holds the server to.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../lsp/fixtures';

export const LSP_SEVERITY: Record<string, number> = { error: 1, warning: 2, information: 3, hint: 4 };

export interface CheckFinding {
  code: string;
  severity: string;
  file: string;
  line: number;
  message: string;
}

/** `check --format json` on the folder given by its absolute path (so findings name files absolutely). */
export function checkRun(runDir: string): CheckFinding[] {
  const r = spawnSync(process.execPath, [join(repoRoot(), 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', runDir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`check exited ${r.status}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { findings: CheckFinding[] }).findings;
}

/** One file's findings as sorted lines `code<TAB>line0<TAB>severity<TAB>message`. */
export function findingLines(findings: readonly CheckFinding[], file: string): string[] {
  return findings
    .filter((f) => f.file === file)
    .map((f) => `${f.code}\t${f.line - 1}\t${LSP_SEVERITY[f.severity]}\t${f.message}`)
    .sort();
}

/** LSP diagnostics in the same shape. */
export function diagnosticLines(
  diagnostics: readonly { code?: string | number; range: { start: { line: number } }; severity?: number; message: unknown }[],
): string[] {
  return diagnostics.map((d) => `${d.code}\t${d.range.start.line}\t${d.severity}\t${String(d.message)}`).sort();
}
