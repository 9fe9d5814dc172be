// Reading JSON from its UTF-8 bytes in place (summaryDecode.ts): white space, strings, numbers
// (JSON's grammar), objects and arrays walked or skipped without decoding the document.
import { asciiText } from './promptTable';

/** Thrown inside the walk when the text is not laid out as expected. */
export class Unexpected extends Error {}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const MINUS = 0x2d;
export const ZERO = 0x30;
export const NINE = 0x39;
/** `peek` past the end. */
export const END = -1;

// A byte order mark is kept, as Node's UTF-8 decoding keeps it (JSON.parse then refuses it).
export const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A cursor over a JSON document's UTF-8 bytes (`i`), reading or skipping its values without making
 * a text of them; `Unexpected` wherever the bytes are not as expected.
 */
export class JsonCursor {
  i = 0;
  protected readonly n: number;

  constructor(protected readonly t: Uint8Array) {
    this.n = t.length;
  }

  ws(): void {
    const t = this.t;
    let i = this.i;
    while (i < this.n && isSpace(t[i])) i++;
    this.i = i;
  }

  peek(): number {
    this.ws();
    return this.i < this.n ? this.t[this.i] : END;
  }

  expect(c: number): void {
    if (this.peek() !== c) throw new Unexpected();
    this.i++;
  }

  /** A string's end (after its closing quote) from its opening quote at `i`; `plain`: no escape and ASCII only. */
  stringEnd(): { end: number; plain: boolean } {
    const t = this.t;
    const n = this.n;
    let i = this.i + 1;
    let plain = true;
    for (;;) {
      if (i >= n) throw new Unexpected();
      const c = t[i];
      if (c === QUOTE) return { end: i + 1, plain };
      if (c === BACKSLASH) {
        plain = false;
        i += 2;
      } else if (c < 0x20) throw new Unexpected();
      else {
        if (c >= 0x80) plain = false;
        i++;
      }
    }
  }

  /** The last key `object` read: its JSON's bytes (quotes included), whether plain. */
  private key = { start: 0, end: 0, plain: true };

  /** Whether the last key read is `name` (ASCII), without making a string of it when it is plain. */
  keyIs(name: string): boolean {
    const { start, end, plain } = this.key;
    if (!plain) return this.decode(start, end) === name;
    if (end - start - 2 !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.t[start + 1 + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** The string at the cursor (quotes included), the cursor after it. */
  stringSpan(): { start: number; end: number; plain: boolean } {
    if (this.peek() !== QUOTE) throw new Unexpected();
    const start = this.i;
    const { end, plain } = this.stringEnd();
    this.i = end;
    return { start, end, plain };
  }

  /** The string whose JSON (quotes included) is bytes `start` to `end`. */
  decode(start: number, end: number): string {
    try {
      return JSON.parse(utf8.decode(this.t.subarray(start, end))) as string;
    } catch {
      throw new Unexpected();
    }
  }

  /** Skips any value (checked later by JSON.parse of the skeleton). */
  skip(): void {
    let depth = 0;
    do {
      const c = this.peek();
      if (c === QUOTE) this.i = this.stringEnd().end;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        depth++;
        this.i++;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        depth--;
        this.i++;
      } else if (c === COMMA || c === COLON) this.i++;
      else if (c === END) throw new Unexpected();
      else {
        const t = this.t;
        let i = this.i + 1;
        for (
          let d = t[i];
          i < this.n && (d === MINUS || d === 0x2b || d === 0x2e || (d >= ZERO && d <= NINE) || (d >= 0x61 && d <= 0x7a) || d === 0x45);
          d = t[++i]
        );
        this.i = i;
      }
    } while (depth > 0);
  }

  /** A JSON number (validated as JSON's grammar). */
  number(): number {
    const t = this.t;
    this.ws();
    const start = this.i;
    let i = start;
    let c = t[i];
    if (c === MINUS) c = t[++i];
    let value = 0;
    if (c === ZERO) c = t[++i];
    else if (c > ZERO && c <= NINE) {
      do {
        value = value * 10 + (c - ZERO);
        c = t[++i];
      } while (c >= ZERO && c <= NINE);
    } else throw new Unexpected();
    if (c >= ZERO && c <= NINE) throw new Unexpected(); // a leading zero stands alone
    // The common case: a whole number ≥ 0 of up to 15 digits, exact as accumulated.
    if (c !== 0x2e && c !== 0x65 && c !== 0x45 && t[start] !== MINUS && i - start <= 15) {
      this.i = i;
      return value;
    }
    if (c === 0x2e) {
      c = t[++i];
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t[++i];
    }
    if (c === 0x65 || c === 0x45) {
      c = t[++i];
      if (c === MINUS || c === 0x2b) c = t[++i];
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t[++i];
    }
    this.i = i;
    return Number(asciiText(t, start, i));
  }

  count(min: number): number {
    const n = this.number();
    if (!Number.isInteger(n) || n < min) throw new Unexpected();
    return n;
  }

  /** An object's members: `member()` reads each value (or skips it), its key told by `keyIs`. */
  object(member: () => void): void {
    this.expect(OPEN_OBJECT);
    if (this.peek() === CLOSE_OBJECT) {
      this.i++;
      return;
    }
    for (;;) {
      this.key = this.stringSpan();
      this.expect(COLON);
      member();
      const c = this.peek();
      this.i++;
      if (c === CLOSE_OBJECT) return;
      if (c !== COMMA) throw new Unexpected();
    }
  }

  array(element: () => void): void {
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) {
      this.i++;
      return;
    }
    for (;;) {
      element();
      const c = this.peek();
      this.i++;
      if (c === CLOSE_ARRAY) return;
      if (c !== COMMA) throw new Unexpected();
    }
  }
}
