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
import { type FileAccess, fileStamp } from '../seams/fileAccess';
import { isAbsolutePath, joinPath } from '../locate/paths';
import { isObject } from '../vocabulary/types';
import { decoderSteps, type Step, tokenBytes, visibleText } from './decode';
import { JsonTextCursor, JsonTextCursorError } from './jsonTextCursor';

export { visibleText };

/** The file name looked for in a folder (a Hugging Face checkpoint). */
export const TOKENIZER_FILE = 'tokenizer.json';
/** Larger than any real tokenizer.json (the largest vocabularies, 256k tokens, are ~35 MB). */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;
/** Ids above this are not a vocabulary's (the largest are ~260k): such an entry is passed over. */
const MAX_ID = 16 * 1024 * 1024;
/** Tokenizers kept loaded (one per run, a few runs open at once). */
const CACHED = 4;

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
  const cursor = new JsonTextCursor(text);
  if (cursor.peek() !== '{') throw new TokenizerError(`${path}: not a tokenizer.json (not a JSON object)`);
  try {
    cursor.object((key) => {
      if (key === 'model' && cursor.peek() === '{')
        cursor.object((mk) => {
          if (mk !== 'vocab') return cursor.skip();
          // BPE, WordPiece and WordLevel: {token: id}; Unigram: [[piece, score], …] by id.
          if (cursor.peek() === '{')
            cursor.object((token) => {
              const id = Number(cursor.text());
              if (validId(id)) table.set(id, own(token));
            });
          else if (cursor.peek() === '[')
            cursor.array((id) => {
              const entry = JSON.parse(cursor.text()) as unknown;
              if (Array.isArray(entry) && typeof entry[0] === 'string' && validId(id)) table.set(id, own(entry[0]));
            });
          else cursor.skip();
        });
      else if (key === 'decoder') decoder = JSON.parse(cursor.text());
      else if (key === 'added_tokens') added = JSON.parse(cursor.text());
      else cursor.skip();
    });
  } catch (err) {
    if (err instanceof JsonTextCursorError || err instanceof TokenizerError) throw new TokenizerError(`${path}: ${err.message}`);
    throw new TokenizerError(`${path}: not a tokenizer.json (${err instanceof Error ? err.message : String(err)})`);
  }
  return { table, decoder, added };
}

/** The id → token table and decoder of a tokenizer.json's text (the text itself is not kept). */
export function parseTokenizerJson(text: string, path: string): TokenTexts {
  // Scanned in its own function: a closure here must not hold the cursor, nor so the file's text.
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
