// A file's prompt rows written as JSON's UTF-8 bytes from one reused buffer
// (`PromptTable.writeRowsJson`): no string made for a plain row.
export const OPEN = 0x5b;
export const CLOSE = 0x5d;
export const COMMA_BYTE = 0x2c;
const QUOTE_BYTE = 0x22;
const utf8Encoder = new TextEncoder();

/** A reused buffer of JSON text's UTF-8 bytes, handed on when full (`PromptTable.writeRowsJson`). */
export class RowBytes {
  private buffer = new Uint8Array(1 << 16);
  private at = 0;

  constructor(private readonly write: (bytes: Uint8Array, length: number) => void) {}

  /** At least `bytes` free. */
  room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    this.flush();
    if (bytes > this.buffer.length) this.buffer = new Uint8Array(bytes);
  }

  flush(): void {
    if (this.at > 0) this.write(this.buffer, this.at);
    this.at = 0;
  }

  byte(b: number): void {
    this.room(1);
    this.buffer[this.at++] = b;
  }

  /** `JSON.stringify` of a plain ASCII id (no quote, backslash or control character) from its units; false: not plain, nothing written. */
  plainId(text: string | Uint8Array, start: number, end: number): boolean {
    const b = this.buffer;
    let at = this.at;
    b[at++] = QUOTE_BYTE;
    for (let i = start; i < end; i++) {
      const c = typeof text === 'string' ? text.charCodeAt(i) : text[i];
      if (c < 0x20 || c > 0x7e || c === QUOTE_BYTE || c === 0x5c) return false;
      b[at++] = c;
    }
    b[at++] = QUOTE_BYTE;
    this.at = at;
    return true;
  }

  /** Any text, as UTF-8 (`room` made for it beforehand: 3 bytes a unit at most). */
  text(t: string): void {
    this.room(t.length * 3);
    this.at += utf8Encoder.encodeInto(t, this.buffer.subarray(this.at)).written;
  }

  /** A number as JSON writes it: digits for a whole one ≥ 0 (not -0), else `String`'s text (`null` when not finite). */
  number(x: number): void {
    if (!(Number.isInteger(x) && x >= 0 && x <= Number.MAX_SAFE_INTEGER) || Object.is(x, -0)) {
      this.text(Number.isFinite(x) ? String(x) : 'null');
      return;
    }
    let digits = 1;
    for (let v = x; v >= 10; v = Math.floor(v / 10)) digits++;
    this.room(digits);
    const b = this.buffer;
    let v = x;
    for (let k = this.at + digits - 1; k >= this.at; k--) {
      b[k] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    }
    this.at += digits;
  }
}
