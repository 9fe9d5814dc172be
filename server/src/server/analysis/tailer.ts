// The read state of one tailed file. `update` brings the analysis up to the file as it is now.
import type { ScanState } from '../../core/engine';
import type { FileStat } from '../../core/seams/fileAccess';
import { runScanAnalysis, type FileAnalysis, type RunOptions } from './fileAnalysis';

/** What a run needs besides the file itself, which the tailer knows. */
export type TailUpdateOptions = Omit<RunOptions, 'uri' | 'path' | 'version'>;

/**
 * The engine's `scanFile` does the resuming: given the previous scan it reads only the bytes
 * after the last complete line when the file grew (same identity, same bytes before that point),
 * and starts over when the file shrank or was replaced. The last, unterminated line is never
 * committed, so a line split across writes is read whole once it completes.
 */
export class Tailer {
  private scan: ScanState | undefined;

  constructor(
    readonly path: string,
    readonly uri: string,
  ) {}

  async update(opts: TailUpdateOptions): Promise<{ stat: FileStat; analysis: FileAnalysis }> {
    const { analysis, scan } = await runScanAnalysis(
      {
        uri: this.uri,
        path: this.path,
        version: null,
        access: opts.access,
        deflate: opts.deflate,
        settings: opts.settings,
        workspaceFolders: opts.workspaceFolders,
        cancellation: opts.cancellation,
        onProgress: opts.onProgress,
        onConfigProblem: opts.onConfigProblem,
      },
      this.scan,
    );
    this.scan = scan;
    const id = scan.identity;
    return { stat: { size: id.size, mtimeMs: id.mtimeMs, id: id.id, isFile: true, isDirectory: false }, analysis };
  }
}
