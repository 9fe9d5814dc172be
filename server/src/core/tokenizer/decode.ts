// How a tokenizer.json's decoder turns one token into visible text (core/tokenizer/tokenText.ts
// reads the file): the decoder's steps as `tokenizers` applies them to a token alone, then the
// bytes as text that is visible and never ambiguous (the rules: the top of tokenText.ts).
import { isObject } from '../vocabulary/types';

/** How a token's string becomes bytes, one step of the file's decoder. */
export type Step = { kind: 'byteLevel' } | { kind: 'replace'; from: string; to: string } | { kind: 'byteFallback' } | { kind: 'prefix'; prefix: string };

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
export function tokenBytes(token: string, steps: readonly Step[]): Uint8Array {
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

/** The decoder's steps and kinds; kinds that only join or trim a sequence add no step. */
export function decoderSteps(d: unknown, steps: Step[], kinds: string[], depth = 0): void {
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
