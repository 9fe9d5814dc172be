// Open documents keep their per-line scans between edits (core/documentScans): documents are line
// arrays (lineArrayDocument) that say which lines each change replaced, and just those lines become
// unscanned, so the next analysis re-scans them, not the whole (maybe 40 MB) document. The
// analysed version's lines are pinned (a copy of the array: strings are immutable) and served as
// the file's bytes line by line: hover re-reads one sample line without the whole document ever
// being joined or encoded to UTF-8.
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import type { FileAccess, FileStat, OpenFile } from '../../core/seams/fileAccess';
import { type LineLayout, DocumentScans, type LineSource } from '../../core/documentScans';
import { LineArrayDocument } from './lineArrayDocument';

export class OpenDocuments {
  private readonly byUri = new Map<string, DocumentScans>();

  /** For `new TextDocuments(lines.config)`: line-array documents whose changes the scans follow. */
  readonly config: TextDocumentsConfiguration<LineArrayDocument> = {
    create: (uri, languageId, version, content) => {
      this.byUri.delete(uri);
      const doc = new LineArrayDocument(uri, languageId, version, content);
      doc.onReplace = (from, to, count) => this.byUri.get(uri)?.replace(from, to, count);
      return doc;
    },
    update: (doc, changes, version) => {
      doc.update(changes, version);
      return doc;
    },
  };

  /** The line scans of an open document (empty until its first analysis). */
  get(uri: string): DocumentScans {
    let scans = this.byUri.get(uri);
    if (!scans) {
      scans = new DocumentScans();
      this.byUri.set(uri, scans);
    }
    return scans;
  }

  close(uri: string): void {
    this.byUri.delete(uri);
  }
}

export function lineSource(doc: LineArrayDocument): LineSource {
  return { lineCount: doc.lineCount, lineText: (i) => doc.line(i) };
}

const encoder = new TextEncoder();

/** The line holding byte `position` (binary search over the line starts). */
function lineAt(layout: LineLayout, position: number): number {
  let lo = 0;
  let hi = layout.byteStarts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.byteStarts[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** `path` read from the pinned text of one analysed version; other paths from `fallback`. */
export function layoutAccess(path: string, layout: LineLayout, fallback: FileAccess): FileAccess {
  const size = layout.byteStarts[layout.byteStarts.length - 1];
  const file: OpenFile = {
    async read(buffer, bufferOffset, length, position) {
      let done = 0;
      while (done < length && position + done < size) {
        const at = position + done;
        const i = lineAt(layout, at);
        const bytes = encoder.encode(layout.lines[i]);
        const from = at - layout.byteStarts[i];
        const n = Math.min(length - done, bytes.length - from);
        if (n <= 0) break;
        buffer.set(bytes.subarray(from, from + n), bufferOffset + done);
        done += n;
      }
      return done;
    },
    async close() {},
  };
  return {
    async stat(p): Promise<FileStat> {
      if (p !== path) return fallback.stat(p);
      return { size, mtimeMs: 0, isFile: true, isDirectory: false, id: `doc:${path}` };
    },
    async open(p) {
      return p === path ? file : fallback.open(p);
    },
    readDir: (p) => fallback.readDir(p),
    realPath: (p) => (p === path ? Promise.resolve(p) : fallback.realPath(p)),
  };
}
