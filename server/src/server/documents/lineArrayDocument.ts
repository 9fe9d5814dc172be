// A TextDocument kept as an array of lines instead of one string. The stock implementation
// rebuilds (and V8 then flattens) the whole content string on every incremental change: for a
// big log that is a cost per keystroke that grows with the file (BENCHMARKS.md, "Design
// measurements"). Here an edit rebuilds only the
// lines it touches, and tells a listener which line range it replaced (so per-line scans can
// follow). Positions, offsets and ranges behave as in vscode-languageserver-textdocument:
// `\r\n`, `\n` and a lone `\r` break lines; characters past a line's end clamp to before its EOL.
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** Lines of `text`, each with its end-of-line; the last one has none (and may be empty). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  if (text.indexOf('\r') < 0) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function eolLength(line: string): number {
  if (line.endsWith('\r\n')) return 2;
  const last = line.charCodeAt(line.length - 1);
  return last === 0x0a || last === 0x0d ? 1 : 0;
}

/** Told after each change: lines `from..to` (inclusive, before the change) became `count` lines. */
export type ReplaceListener = (from: number, to: number, count: number) => void;

export class LineArrayDocument implements TextDocument {
  private lines: string[];
  /** UTF-16 offset of each line's start; rebuilt lazily after a change. */
  private starts: Float64Array | undefined;
  private full: string | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private _version: number,
    content: string,
  ) {
    this.lines = splitLines(content);
    this.full = content;
  }

  onReplace: ReplaceListener | undefined;

  get version(): number {
    return this._version;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** The lines of this version (strings are immutable: a copy of the array pins the version). */
  snapshot(): readonly string[] {
    return this.lines.slice();
  }

  /** Line `i` with its end-of-line. */
  line(i: number): string {
    return this.lines[i];
  }

  private lineStarts(): Float64Array {
    if (!this.starts) {
      const starts = new Float64Array(this.lines.length + 1);
      for (let i = 0; i < this.lines.length; i++) starts[i + 1] = starts[i] + this.lines[i].length;
      this.starts = starts;
    }
    return this.starts;
  }

  /** A position clamped into the text: [line, character before the line's EOL]. */
  private clamp(p: Position): [number, number] {
    const n = this.lines.length;
    if (p.line >= n) return [n - 1, this.lines[n - 1].length];
    if (p.line < 0) return [0, 0];
    const line = this.lines[p.line];
    return [p.line, Math.max(0, Math.min(p.character, line.length - eolLength(line)))];
  }

  getLineRange(line: number): Range {
    const n = this.lines.length;
    if (line >= n) return { start: { line: n - 1, character: 0 }, end: { line: n - 1, character: this.lines[n - 1].length } };
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const text = this.lines[line];
    return { start: { line, character: 0 }, end: { line, character: text.length - eolLength(text) } };
  }

  getEOLCharacters(line: number): string {
    if (line < 0 || line >= this.lines.length) return '';
    const text = this.lines[line];
    return text.slice(text.length - eolLength(text));
  }

  offsetAt(position: Position): number {
    const [line, ch] = this.clamp(position);
    return this.lineStarts()[line] + ch;
  }

  positionAt(offset: number): Position {
    const starts = this.lineStarts();
    const o = Math.max(0, Math.min(offset, starts[starts.length - 1]));
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    const line = this.lines[lo];
    return { line: lo, character: Math.min(o - starts[lo], line.length - eolLength(line)) };
  }

  getText(range?: Range): string {
    if (!range) {
      this.full ??= this.lines.join('');
      return this.full;
    }
    let a = this.clamp(range.start);
    let b = this.clamp(range.end);
    if (a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])) [a, b] = [b, a];
    if (a[0] === b[0]) return this.lines[a[0]].slice(a[1], b[1]);
    let out = this.lines[a[0]].slice(a[1]);
    for (let i = a[0] + 1; i < b[0]; i++) out += this.lines[i];
    return out + this.lines[b[0]].slice(0, b[1]);
  }

  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      this.starts = undefined;
      this.full = undefined;
      if (!('range' in change) || !change.range) {
        const before = this.lines.length;
        this.lines = splitLines(change.text);
        this.onReplace?.(0, before - 1, this.lines.length);
        continue;
      }
      this.applyRange(change.range, change.text);
    }
    this._version = version;
  }

  /**
   * Rebuilds the edited lines with one unchanged line on each side, so a `\r` and a `\n` that the
   * edit brings together (or apart) split exactly as in the whole text.
   */
  private applyRange(range: Range, text: string): void {
    let s = this.clamp(range.start);
    let e = this.clamp(range.end);
    if (s[0] > e[0] || (s[0] === e[0] && s[1] > e[1])) [s, e] = [e, s];
    const n = this.lines.length;
    const from = Math.max(0, s[0] - 1);
    const to = Math.min(n - 1, e[0] + 1);
    let region = '';
    for (let i = from; i < s[0]; i++) region += this.lines[i];
    region += this.lines[s[0]].slice(0, s[1]) + text + this.lines[e[0]].slice(e[1]);
    for (let i = e[0] + 1; i <= to; i++) region += this.lines[i];
    let pieces = splitLines(region);
    // Not the document's end: the region ends with an EOL, so its split ends with an empty piece.
    if (to < n - 1) pieces.pop();
    // The neighbours usually come out unchanged: keep their strings and report only what changed.
    let head = 0;
    while (head < pieces.length && from + head <= to && pieces[head] === this.lines[from + head]) head++;
    let tail = 0;
    while (tail < pieces.length - head && to - tail >= from + head && pieces[pieces.length - 1 - tail] === this.lines[to - tail]) tail++;
    pieces = pieces.slice(head, pieces.length - tail);
    const first = from + head;
    const last = to - tail;
    if (pieces.length < 10_000) this.lines.splice(first, last - first + 1, ...pieces);
    else this.lines = this.lines.slice(0, first).concat(pieces, this.lines.slice(last + 1));
    this.onReplace?.(first, last, pieces.length);
  }
}
