// Token ids → text from the run's Hugging Face tokenizer file (`tokenizer.json`, the format of the
// `tokenizers` library), for the views that list tokens (docs/editors.md#token-text). miles' Sample
// (main 31f1ca9) holds token ids and the whole response, never a token's own text, so the text comes
// from the model's tokenizer: the `tokenizer` setting names its tokenizer.json or the folder holding
// it (a Hugging Face checkpoint, as miles' `--hf-checkpoint` names it).
//
// A tokenizer.json is 5–15 MB, most of it BPE merges: the file is scanned once per path and version
// (never JSON.parse'd whole), and only an id → token string table and the decoder's steps are kept.
// A token is decoded alone, as the decoders of `tokenizers` treat it: ByteLevel (the GPT-2
// byte ↔ unicode table of Qwen2/Qwen3/Llama 3), Metaspace or Replace of `▁` (SentencePiece style),
// ByteFallback (`<0xNN>` byte tokens), WordPiece's `##`. Fuse and Strip join and trim a whole
// sequence, not one token, so a token keeps its own leading space.
//
// What a view shows is text, never markup, and visible: bytes that are not whole UTF-8 (a token is
// often part of a character) as `\xNN`, control characters as `\n`, `\t`, `\r`, `\xNN`, format and
// bidirectional controls (U+202E, U+200B, …) as `\u{202E}`, and a backslash as `\\`, so an escape
// is never ambiguous and no token can reorder the text around it.
import { type FileAccess, fileStamp } from '../fileAccess';
import { isAbsolutePath, joinPath } from '../paths';

/** The file name looked for in a folder (a Hugging Face checkpoint). */
export const TOKENIZER_FILE = 'tokenizer.json';
/** Larger than any real tokenizer.json (the largest vocabularies, 256k tokens, are ~35 MB). */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;
/** Ids above this are not a vocabulary's (the largest are ~260k): such an entry is passed over. */
const MAX_ID = 16 * 1024 * 1024;
/** Tokenizers kept loaded (one per run, a few runs open at once). */
const CACHED = 4;

/** How a token's string becomes bytes, one step of the file's decoder. */
type Step = { kind: 'byteLevel' } | { kind: 'replace'; from: string; to: string } | { kind: 'byteFallback' } | { kind: 'prefix'; prefix: string };

/** A tokenizer file read for its token texts. */
export interface TokenTexts {
  /** The tokenizer.json read. */
  path: string;
  /** Tokens in its vocabulary and added tokens. */
  size: number;
  /** The decoder's kinds as the file names them (`ByteLevel`, `Replace, ByteFallback, Fuse, Strip`), or `none`. */
  decoder: string;
  /** A token's text as a view shows it (see the top of this file); null: the id is not in the tokenizer. */
  text(id: number): string | null;
}

/** A tokenizer setting that names no readable tokenizer file; the message says which and why. */
export class TokenizerError extends Error {}

// GPT-2's byte ↔ unicode table (`bytes_to_unicode`), which ByteLevel uses: printable bytes stand for
// themselves, the other 68 for U+0100 onward, in byte order.
const BYTE_OF_CHAR: ReadonlyMap<number, number> = (() => {
  const map = new Map<number, number>();
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 256;
  for (let b = 0; b < 256; b++) map.set(printable(b) ? b : next++, b);
  return map;
})();

const utf8 = new TextEncoder();

/** UTF-8 bytes as visible text: whole characters as themselves (escaped where invisible), other bytes as `\xNN`. */
export function visibleText(bytes: Uint8Array): string {
  let out = '';
  const hex = (b: number) => `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    let cp = -1;
    let len = 1;
    if (b < 0x80) cp = b;
    else {
      len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      if (len > 0 && i + len <= bytes.length) {
        let v = len === 2 ? b & 0x1f : len === 3 ? b & 0x0f : b & 0x07;
        let ok = true;
        for (let k = 1; k < len; k++) {
          const c = bytes[i + k];
          if ((c & 0xc0) !== 0x80) ok = false;
          v = (v << 6) | (c & 0x3f);
        }
        // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
        const min = len === 2 ? 0x80 : len === 3 ? 0x800 : 0x10000;
        if (ok && v >= min && v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff)) cp = v;
      }
      if (cp < 0) len = 1;
    }
    if (cp < 0) out += hex(b);
    else if (cp === 0x5c) out += '\\\\';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0d) out += '\\r';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) out += hex(cp);
    else {
      const ch = String.fromCodePoint(cp);
      out += /[\p{Cf}\p{Zl}\p{Zp}\p{Co}]/u.test(ch) ? `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}` : ch;
    }
    i += len;
  }
  return out;
}

/** A token's string through the decoder's steps, to bytes. */
function tokenBytes(token: string, steps: readonly Step[]): Uint8Array {
  // Pieces are text, or single bytes a step produced (ByteLevel, ByteFallback).
  let pieces: (string | number)[] = [token];
  for (const step of steps) {
    if (step.kind === 'replace') pieces = pieces.map((p) => (typeof p === 'string' ? p.split(step.from).join(step.to) : p));
    else if (step.kind === 'prefix')
      pieces = pieces.map((p, k) => (k === 0 && typeof p === 'string' && p.startsWith(step.prefix) ? p.slice(step.prefix.length) : p));
    else if (step.kind === 'byteFallback')
      pieces = pieces.map((p) => {
        const m = typeof p === 'string' ? /^<0x([0-9A-Fa-f]{2})>$/.exec(p) : null;
        return m ? parseInt(m[1], 16) : p;
      });
    else
      pieces = pieces.flatMap((p) => {
        if (typeof p !== 'string') return [p];
        const out: (string | number)[] = [];
        // A character outside the table is kept as its own UTF-8, as `tokenizers` does.
        for (const ch of p) out.push(BYTE_OF_CHAR.get(ch.codePointAt(0)!) ?? ch);
        return out;
      });
  }
  const parts = pieces.map((p) => (typeof p === 'number' ? Uint8Array.of(p) : utf8.encode(p)));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The decoder's steps and kinds; kinds that only join or trim a sequence add no step. */
function decoderSteps(d: unknown, steps: Step[], kinds: string[], depth = 0): void {
  if (!isObject(d) || typeof d.type !== 'string' || depth > 8) return;
  if (d.type === 'Sequence') {
    if (Array.isArray(d.decoders)) for (const x of d.decoders) decoderSteps(x, steps, kinds, depth + 1);
    return;
  }
  kinds.push(d.type);
  switch (d.type) {
    case 'ByteLevel':
      steps.push({ kind: 'byteLevel' });
      return;
    case 'ByteFallback':
      steps.push({ kind: 'byteFallback' });
      return;
    case 'Metaspace':
      steps.push({ kind: 'replace', from: typeof d.replacement === 'string' && d.replacement !== '' ? d.replacement : '\u2581', to: ' ' });
      return;
    case 'Replace': {
      const p = isObject(d.pattern) ? d.pattern.String : undefined;
      if (typeof p === 'string' && p !== '' && typeof d.content === 'string') steps.push({ kind: 'replace', from: p, to: d.content });
      return;
    }
    case 'WordPiece':
      steps.push({ kind: 'prefix', prefix: typeof d.prefix === 'string' ? d.prefix : '##' });
      return;
    case 'BPEDecoder':
      if (typeof d.suffix === 'string' && d.suffix !== '') steps.push({ kind: 'replace', from: d.suffix, to: ' ' });
      return;
    default:
      // Fuse, Strip, CTC: they act on a whole sequence; a token alone is left as it is.
      return;
  }
}

/** A JSON text scanned in place: values that are not wanted are skipped, never built. */
class Scanner {
  i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new TokenizerError(`not a tokenizer.json: ${what} at character ${this.i}`);
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

/**
 * A copy of a string cut from the file's text: V8 keeps a long slice as a view of the whole text,
 * which would keep the 10 MB file alive behind a table of short strings.
 */
const own = (s: string): string => (s.length >= 13 ? (' ' + s).slice(1) : s);

const validId = (id: unknown): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= MAX_ID;

/** What is kept of a tokenizer.json: its vocabulary by id, and its decoder and added tokens as JSON. */
function scan(text: string, path: string): { table: Map<number, string>; decoder: unknown; added: unknown } {
  const table = new Map<number, string>();
  let decoder: unknown = null;
  let added: unknown = null;
  const sc = new Scanner(text);
  if (sc.peek() !== '{') throw new TokenizerError(`${path}: not a tokenizer.json (not a JSON object)`);
  try {
    sc.object((key) => {
      if (key === 'model' && sc.peek() === '{')
        sc.object((mk) => {
          if (mk !== 'vocab') return sc.skip();
          // BPE, WordPiece and WordLevel: {token: id}; Unigram: [[piece, score], …] by id.
          if (sc.peek() === '{')
            sc.object((token) => {
              const id = Number(sc.text());
              if (validId(id)) table.set(id, own(token));
            });
          else if (sc.peek() === '[')
            sc.array((id) => {
              const entry = JSON.parse(sc.text()) as unknown;
              if (Array.isArray(entry) && typeof entry[0] === 'string' && validId(id)) table.set(id, own(entry[0]));
            });
          else sc.skip();
        });
      else if (key === 'decoder') decoder = JSON.parse(sc.text());
      else if (key === 'added_tokens') added = JSON.parse(sc.text());
      else sc.skip();
    });
  } catch (err) {
    if (err instanceof TokenizerError) throw new TokenizerError(`${path}: ${err.message}`);
    throw new TokenizerError(`${path}: not a tokenizer.json (${err instanceof Error ? err.message : String(err)})`);
  }
  return { table, decoder, added };
}

/** The id → token table and decoder of a tokenizer.json's text (the text itself is not kept). */
export function parseTokenizerJson(text: string, path: string): TokenTexts {
  // Scanned in its own function: a closure here must not hold the scanner, nor so the file's text.
  const { table, decoder, added } = scan(text, path);
  // Added tokens (special tokens such as <|im_end|>) take their id over the vocabulary's.
  if (Array.isArray(added)) for (const a of added) if (isObject(a) && validId(a.id) && typeof a.content === 'string') table.set(a.id, a.content);
  if (table.size === 0) throw new TokenizerError(`${path}: not a tokenizer.json (no model.vocab and no added_tokens)`);
  const steps: Step[] = [];
  const kinds: string[] = [];
  decoderSteps(decoder, steps, kinds);
  return {
    path,
    size: table.size,
    decoder: kinds.length > 0 ? kinds.join(', ') : 'none',
    text(id: number): string | null {
      const token = table.get(id);
      return token === undefined ? null : visibleText(tokenBytes(token, steps));
    },
  };
}

/** The tokenizer.json a setting names: the file, or `tokenizer.json` in the folder named; relative to `base`. */
export async function tokenizerFileOf(access: FileAccess, setting: string, base: string | null): Promise<string> {
  const named = isAbsolutePath(setting) || base === null ? setting : joinPath(base, setting);
  let st;
  try {
    st = await access.stat(named);
  } catch (err) {
    throw new TokenizerError(`${named}: cannot read the tokenizer (${(err as { code?: string }).code ?? (err as Error).message})`);
  }
  return st.isDirectory ? joinPath(named, TOKENIZER_FILE) : named;
}

const cache = new Map<string, { stamp: string; texts: Promise<TokenTexts> }>();

async function readAll(access: FileAccess, path: string, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  const file = await access.open(path);
  try {
    let at = 0;
    while (at < size) {
      const n = await file.read(bytes, at, Math.min(1 << 20, size - at), at);
      if (n === 0) break;
      at += n;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await file.close();
  }
}

/**
 * The token texts of the tokenizer a setting names (see `tokenizerFileOf`), read once per file
 * version and kept for the next view. Throws TokenizerError when it cannot be read or is not one.
 */
export async function loadTokenTexts(access: FileAccess, setting: string, base: string | null = null): Promise<TokenTexts> {
  const path = await tokenizerFileOf(access, setting, base);
  let st;
  try {
    st = await access.stat(path);
  } catch (err) {
    throw new TokenizerError(`${path}: cannot read the tokenizer (${(err as { code?: string }).code ?? (err as Error).message})`);
  }
  if (!st.isFile) throw new TokenizerError(`${path}: not a file`);
  if (st.size > MAX_TOKENIZER_BYTES) throw new TokenizerError(`${path}: ${st.size} bytes, more than a tokenizer.json (at most ${MAX_TOKENIZER_BYTES})`);
  const stamp = fileStamp(st);
  const held = cache.get(path);
  if (held && held.stamp === stamp) return held.texts;
  const texts = readAll(access, path, st.size).then((bytes) => parseTokenizerJson(new TextDecoder().decode(bytes), path));
  cache.delete(path);
  cache.set(path, { stamp, texts });
  while (cache.size > CACHED) cache.delete(cache.keys().next().value!);
  // A failed read is not kept: the next view tries again.
  texts.catch(() => {
    if (cache.get(path)?.texts === texts) cache.delete(path);
  });
  return texts;
}
