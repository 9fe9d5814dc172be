// What a file that is not text is, from its first bytes, so the finding can say "this is a gzip
// file" instead of a thousand invalid-JSON lines (a `.pt` dump or a compressed log opened by mistake).

const SIGNATURES: [number[], string][] = [
  [[0x1f, 0x8b], 'a gzip-compressed file (decompress it first, e.g. `gunzip -k`)'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'a zstd-compressed file (decompress it first, e.g. `zstd -d`)'],
  [[0x42, 0x5a, 0x68], 'a bzip2-compressed file (decompress it first)'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'an xz-compressed file (decompress it first)'],
  [[0x50, 0x4b, 0x03, 0x04], 'a zip archive (a PyTorch `.pt` checkpoint is one), not a JSONL log'],
  [[0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59], 'a NumPy `.npy` array, not a JSONL log'],
  [[0x50, 0x41, 0x52, 0x31], 'a Parquet file, not a JSONL log'],
];

/** A description when `bytes` (the start of line 1) look binary; null for text. */
export function sniffBinary(bytes: Uint8Array, start: number, end: number): string | null {
  for (const [magic, what] of SIGNATURES) {
    if (end - start >= magic.length && magic.every((m, k) => bytes[start + k] === m)) return what;
  }
  // Python pickle (protocol 2-5): PROTO opcode then the protocol number.
  if (end - start >= 2 && bytes[start] === 0x80 && bytes[start + 1] >= 2 && bytes[start + 1] <= 5)
    return 'a Python pickle (e.g. a `torch.save` file), not a JSONL log';
  const utf16 = utf16Encoding(bytes, start, end);
  if (utf16) return `${utf16} text, not UTF-8 (convert it first, e.g. \`iconv -f ${utf16} -t UTF-8 in.jsonl > out.jsonl\`)`;
  const n = Math.min(end - start, 512);
  let control = 0;
  for (let k = start; k < start + n; k++) {
    const c = bytes[k];
    if (c === 0) return 'a binary file (it contains NUL bytes), not a JSONL log';
    if (c < 0x20 && c !== 0x09) control++;
  }
  return n > 0 && control / n > 0.1 ? 'a binary file, not a JSONL log' : null;
}

/**
 * UTF-16 text (PowerShell's `>` writes UTF-16LE with a BOM; a JSON line starts with `{`): by the
 * BOM, or by NULs in every other byte of the first characters.
 */
function utf16Encoding(b: Uint8Array, s: number, e: number): 'UTF-16LE' | 'UTF-16BE' | null {
  if (e - s >= 2 && b[s] === 0xff && b[s + 1] === 0xfe) return 'UTF-16LE';
  if (e - s >= 2 && b[s] === 0xfe && b[s + 1] === 0xff) return 'UTF-16BE';
  if (e - s < 4) return null;
  if (b[s] !== 0 && b[s + 1] === 0 && b[s + 2] !== 0 && b[s + 3] === 0) return 'UTF-16LE';
  if (b[s] === 0 && b[s + 1] !== 0 && b[s + 2] === 0 && b[s + 3] !== 0) return 'UTF-16BE';
  return null;
}
