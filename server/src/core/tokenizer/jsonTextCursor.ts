// A cursor over a JSON text (a string), read in place (core/tokenizer/tokenText.ts): a tokenizer.json is 5–15 MB, most
// of it BPE merges, so values that are not wanted are skipped, never built.
/** Where the text stops being JSON (tokenText.ts names the file in its message). */
export class JsonTextCursorError extends Error {}

/** A position in a JSON text that reads it in place: values that are not wanted are skipped, never built. */
export class JsonTextCursor {
  i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new JsonTextCursorError(`not a tokenizer.json: ${what} at character ${this.i}`);
  }
  ws(): void {
    const s = this.s;
    for (let c = s.charCodeAt(this.i); c === 32 || c === 9 || c === 10 || c === 13; c = s.charCodeAt(++this.i));
  }
  peek(): string {
    this.ws();
    return this.s[this.i] ?? '';
  }
  expect(ch: string): void {
    if (this.peek() !== ch) this.fail(`expected ${ch}`);
    this.i++;
  }
  /** The end of the string opening at `i` (after its closing quote); whether it has escapes. */
  private stringEnd(): { end: number; escaped: boolean } {
    const s = this.s;
    let escaped = false;
    for (let j = this.i + 1; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 92) {
        escaped = true;
        j++;
      } else if (c === 34) return { end: j + 1, escaped };
    }
    return this.fail('an unterminated string');
  }
  string(): string {
    if (this.peek() !== '"') this.fail('expected a string');
    const { end, escaped } = this.stringEnd();
    const text = escaped ? (JSON.parse(this.s.slice(this.i, end)) as string) : this.s.slice(this.i + 1, end - 1);
    this.i = end;
    return text;
  }
  skip(): void {
    const c = this.peek();
    if (c === '"') {
      this.i = this.stringEnd().end;
      return;
    }
    if (c === '{' || c === '[') {
      let depth = 0;
      const s = this.s;
      for (; this.i < s.length; this.i++) {
        const x = s.charCodeAt(this.i);
        if (x === 34) this.i = this.stringEnd().end - 1;
        else if (x === 123 || x === 91) depth++;
        else if (x === 125 || x === 93) {
          if (--depth === 0) {
            this.i++;
            return;
          }
        }
      }
      this.fail('an unclosed value');
    }
    const start = this.i;
    while (this.i < this.s.length && !',}] \t\r\n'.includes(this.s[this.i])) this.i++;
    if (this.i === start) this.fail('expected a value');
  }
  /** The next value's text (for the small parts read whole). */
  text(): string {
    this.ws();
    const start = this.i;
    this.skip();
    return this.s.slice(start, this.i);
  }
  /** Calls `entry` at each value of an object (it must consume the value). */
  object(entry: (key: string) => void): void {
    this.expect('{');
    if (this.peek() === '}') {
      this.i++;
      return;
    }
    for (;;) {
      const key = this.string();
      this.expect(':');
      entry(key);
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      this.expect('}');
      return;
    }
  }
  array(item: (index: number) => void): void {
    this.expect('[');
    if (this.peek() === ']') {
      this.i++;
      return;
    }
    for (let k = 0; ; k++) {
      item(k);
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      this.expect(']');
      return;
    }
  }
}
