// The pickle's bytes as the machine reads them (docs/pt.md): a window over `data.pkl` refilled in
// chunks, with the next chunk read while the current one is interpreted, and single byte ranges
// read again on demand (a memoised text whose bytes have left the window).
import type { OpenFile } from '../../seams/fileAccess';

import { PickleError } from './pickleLiterals';

export class ChunkedInput {
  buf = new Uint8Array(0);
  /** A view of `buf` for its multi-byte numbers: one for each window, not one for each `step` call. */
  view = new DataView(this.buf.buffer);
  /** Next byte to interpret, in `buf`. */
  pos = 0;
  /** End of the valid bytes in `buf`. */
  end = 0;
  /** Pickle offset of buf[0]. */
  base = 0;
  /** The next chunk, read while the current one is interpreted: where it starts, and the read. */
  private ahead: { at: number; buf: Uint8Array; whole: Uint8Array; read: Promise<number> } | null = null;
  /** A read-ahead buffer whose bytes were all taken: reused for the next read-ahead. */
  private spare: Uint8Array | null = null;

  constructor(
    private readonly file: OpenFile,
    /** Where the pickle starts in the file and how long it is. */
    private readonly start: number,
    readonly length: number,
    private readonly chunk: number,
  ) {}

  /** Holds `bytes`, the pickle's bytes from offset `base` on, as all there is to read (a sample read again). */
  holdOnly(bytes: Uint8Array<ArrayBuffer>, base: number): void {
    this.buf = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.base = base;
    this.pos = 0;
    this.end = bytes.length;
  }

  /** Pickle offset of `pos`. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Bytes of the pickle not yet in the buffer. */
  get unread(): number {
    return this.length - (this.base + this.end);
  }

  /** True when the pickle bytes [at, at + n) are still in the buffer. */
  holds(at: number, n: number): boolean {
    return at >= this.base && at + n <= this.base + this.end;
  }

  /** The pickle bytes [at, at + n), which must be in the buffer (`holds`). */
  bytes(at: number, n: number): Uint8Array {
    return this.buf.subarray(at - this.base, at - this.base + n);
  }

  /** Reads the pickle bytes [at, at + n) again from the file, wherever the window is. */
  async reread(at: number, n: number): Promise<Uint8Array<ArrayBuffer>> {
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      const r = await this.file.read(out, got, n - got, this.start + at + got);
      if (r <= 0) throw new PickleError(`data.pkl ends before byte ${at + n} on a second read (the file changed while it was read)`);
      got += r;
    }
    return out;
  }

  /** Makes at least `need` bytes available from `pos` (fewer only at the end of the pickle). */
  async fill(need: number): Promise<void> {
    const have = this.end - this.pos;
    const want = Math.min(Math.max(need, this.chunk), have + this.unread);
    const next = want <= this.buf.length ? this.buf : new Uint8Array(want);
    if (next === this.buf) this.buf.copyWithin(0, this.pos, this.end);
    else next.set(this.buf.subarray(this.pos, this.end), 0);
    this.base += this.pos;
    if (next !== this.buf) {
      this.buf = next;
      this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
    }
    this.pos = 0;
    this.end = have;
    while (this.end < want) {
      const at = this.base + this.end;
      const ahead = this.ahead;
      this.ahead = null;
      let n = -1;
      if (ahead !== null && ahead.at === at) {
        const got = await ahead.read;
        if (got > 0) {
          n = Math.min(got, want - this.end);
          this.buf.set(ahead.buf.subarray(0, n), this.end);
          // Its buffer is read into again once all its bytes were taken (no new chunk each time).
          if (n < got) this.ahead = { at: at + n, buf: ahead.buf.subarray(n), whole: ahead.whole, read: Promise.resolve(got - n) };
          else this.spare = ahead.whole;
        }
      }
      if (n <= 0) n = await this.file.read(this.buf, this.end, want - this.end, this.start + at);
      if (n <= 0) throw new PickleError(`data.pkl ends after ${this.base + this.end} of its ${this.length} bytes (the file is truncated)`);
      this.end += n;
    }
    const at = this.base + this.end;
    const left = this.length - at;
    if (this.ahead === null && left > 0) {
      const size = Math.min(this.chunk, left);
      const whole = this.spare !== null && this.spare.length >= size ? this.spare : new Uint8Array(size);
      const buf = whole.length === size ? whole : whole.subarray(0, size);
      this.spare = null;
      // A failed read-ahead is read again directly (and reports its error there).
      this.ahead = { at, buf, whole, read: this.file.read(buf, 0, buf.length, this.start + at).catch(() => -1) };
    }
  }

  /** Waits for a read still in flight (the file is closed after the machine stops). */
  async settle(): Promise<void> {
    if (this.ahead !== null) await this.ahead.read;
  }
}
