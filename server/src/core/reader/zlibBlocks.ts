// How many bytes zlib's deflate writes for a token stream, without writing them: zlib's block
// rules (a block ends at the token that fills its 16 383 slots; each block is stored, coded with
// the fixed Huffman code or with its own, whichever zlib's `_tr_flush_block` finds shortest) and
// its Huffman tree construction (`build_tree`: a heap ordered by frequency then depth;
// `gen_bitlen`: lengths capped at 15, or 7 for the code-length code, zlib's way), so that the
// count is the length zlib's output has. The trees' sizes are what zlib computes to choose a
// block's coding; the coded bits themselves are never produced. Checked against pako's port of
// zlib (which writes them) in test/unit/reader/zlibLength.test.ts.

const LITERALS = 256;
const END_BLOCK = 256;
const LENGTH_CODES = 29;
const L_CODES = LITERALS + 1 + LENGTH_CODES;
const D_CODES = 30;
const BL_CODES = 19;
const HEAP_SIZE = 2 * L_CODES + 1;
const MAX_BITS = 15;
const MAX_BL_BITS = 7;
const REP_3_6 = 16;
const REPZ_3_10 = 17;
const REPZ_11_138 = 18;
/** Symbols a block holds before zlib ends it (`lit_bufsize - 1` at memory level 8). */
const BLOCK_SYMBOLS = 16_383;
/** A token with this bit is a literal zlib tallies after the last position, without ending a full block. */
export const AFTER_LAST = 0x4000_0000;

const EXTRA_LBITS = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0);
const EXTRA_DBITS = Uint8Array.of(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13);
const EXTRA_BLBITS = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7);
const BL_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** zlib's length code (0-28) of a match length - 3 (0-255), and distance code of a distance - 1. */
const LENGTH_CODE = new Uint8Array(256);
const DIST_CODE = new Uint8Array(512);
/** The fixed code's lengths: literals and lengths, then distances (all 5). */
const STATIC_LLEN = new Uint8Array(L_CODES + 2);
const STATIC_DLEN = new Uint8Array(D_CODES).fill(5);
{
  let length = 0;
  for (let code = 0; code < LENGTH_CODES - 1; code++) {
    for (let n = 0; n < 1 << EXTRA_LBITS[code]; n++) LENGTH_CODE[length++] = code;
  }
  // Length 258 (255 here) has a code of its own, and so overwrites the last entry of code 27.
  LENGTH_CODE[length - 1] = LENGTH_CODES - 1;
  let dist = 0;
  for (let code = 0; code < 16; code++) {
    for (let n = 0; n < 1 << EXTRA_DBITS[code]; n++) DIST_CODE[dist++] = code;
  }
  dist >>= 7;
  for (let code = 16; code < D_CODES; code++) {
    for (let n = 0; n < 1 << (EXTRA_DBITS[code] - 7); n++) DIST_CODE[256 + dist++] = code;
  }
  for (let n = 0; n < L_CODES + 2; n++) STATIC_LLEN[n] = n <= 143 ? 8 : n <= 255 ? 9 : n <= 279 ? 7 : 8;
}

function distCode(dist: number): number {
  return dist < 256 ? DIST_CODE[dist] : DIST_CODE[256 + (dist >>> 7)];
}

/** One of zlib's three trees: frequencies, then (after `build`) code lengths, by symbol and node. */
class Tree {
  readonly freq: Uint32Array;
  readonly len: Uint16Array;
  readonly dad: Uint16Array;
  maxCode = 0;

  constructor(
    readonly elems: number,
    readonly staticLen: Uint8Array | null,
    readonly extra: Uint8Array,
    readonly extraBase: number,
    readonly maxLength: number,
  ) {
    this.freq = new Uint32Array(2 * elems + 1);
    this.len = new Uint16Array(2 * elems + 2);
    this.dad = new Uint16Array(2 * elems + 1);
  }
}

function smaller(freq: Uint32Array, depth: Uint8Array, n: number, m: number): boolean {
  return freq[n] < freq[m] || (freq[n] === freq[m] && depth[n] <= depth[m]);
}

/** zlib's `pqdownheap` over `heap[1…heapLen]`. */
function downHeap(heap: Int32Array, depth: Uint8Array, freq: Uint32Array, k: number, heapLen: number): void {
  const v = heap[k];
  let j = k << 1;
  while (j <= heapLen) {
    if (j < heapLen && smaller(freq, depth, heap[j + 1], heap[j])) j++;
    if (smaller(freq, depth, v, heap[j])) break;
    heap[k] = heap[j];
    k = j;
    j <<= 1;
  }
  heap[k] = v;
}

/**
 * Sizes deflate blocks: zlib's three trees, its heap and the running bit counts. One per sizer
 * (zlibLength.ts `ZlibSizer`): every call starts its own blocks, but the arrays are this object's.
 */
export class BlockSizer {
  private readonly ltree = new Tree(L_CODES, STATIC_LLEN, EXTRA_LBITS, LITERALS + 1, MAX_BITS);
  private readonly dtree = new Tree(D_CODES, STATIC_DLEN, EXTRA_DBITS, 0, MAX_BITS);
  private readonly bltree = new Tree(BL_CODES, null, EXTRA_BLBITS, 0, MAX_BL_BITS);
  private readonly heap = new Int32Array(HEAP_SIZE);
  private readonly depth = new Uint8Array(HEAP_SIZE);
  private readonly blCount = new Uint16Array(MAX_BITS + 1);
  /** The block's bits with each tree's own code (`opt_len`) and with the fixed code (`static_len`). */
  private optLen = 0;
  private staticLen = 0;

  /** zlib's `build_tree` and `gen_bitlen`: code lengths, and their bits added to `optLen` / `staticLen`. */
  private build(t: Tree): void {
    const heap = this.heap;
    const depth = this.depth;
    const { freq, len, dad, elems } = t;
    let heapLen = 0;
    let heapMax = HEAP_SIZE;
    let maxCode = -1;
    for (let n = 0; n < elems; n++) {
      if (freq[n] !== 0) {
        heap[++heapLen] = maxCode = n;
        depth[n] = 0;
      } else len[n] = 0;
    }
    // At least two codes of non-zero frequency, as the format requires: the forced ones cost nothing.
    while (heapLen < 2) {
      const node = (heap[++heapLen] = maxCode < 2 ? ++maxCode : 0);
      freq[node] = 1;
      depth[node] = 0;
      this.optLen--;
      if (t.staticLen) this.staticLen -= t.staticLen[node];
    }
    t.maxCode = maxCode;
    for (let n = heapLen >> 1; n >= 1; n--) downHeap(heap, depth, freq, n, heapLen);
    let node = elems;
    do {
      const n = heap[1];
      heap[1] = heap[heapLen--];
      downHeap(heap, depth, freq, 1, heapLen);
      const m = heap[1];
      heap[--heapMax] = n;
      heap[--heapMax] = m;
      freq[node] = freq[n] + freq[m];
      depth[node] = (depth[n] >= depth[m] ? depth[n] : depth[m]) + 1;
      dad[n] = dad[m] = node;
      heap[1] = node++;
      downHeap(heap, depth, freq, 1, heapLen);
    } while (heapLen >= 2);
    heap[--heapMax] = heap[1];
    this.bitLengths(t, heapMax);
  }

  /** zlib's `gen_bitlen`: lengths from the tree's depths, the deepest moved up to `maxLength`. */
  private bitLengths(t: Tree, heapMax: number): void {
    const heap = this.heap;
    const blCount = this.blCount;
    const { freq, len, dad, maxLength, extra, extraBase, staticLen: stree } = t;
    let optLen = this.optLen;
    let staticLen = this.staticLen;
    blCount.fill(0);
    len[heap[heapMax]] = 0;
    let overflow = 0;
    let h: number;
    for (h = heapMax + 1; h < HEAP_SIZE; h++) {
      const n = heap[h];
      let bits = len[dad[n]] + 1;
      if (bits > maxLength) {
        bits = maxLength;
        overflow++;
      }
      len[n] = bits;
      if (n > t.maxCode) continue;
      blCount[bits]++;
      const xbits = n >= extraBase ? extra[n - extraBase] : 0;
      optLen += freq[n] * (bits + xbits);
      if (stree) staticLen += freq[n] * (stree[n] + xbits);
    }
    if (overflow === 0) {
      this.optLen = optLen;
      this.staticLen = staticLen;
      return;
    }
    do {
      let bits = maxLength - 1;
      while (blCount[bits] === 0) bits--;
      blCount[bits]--;
      blCount[bits + 1] += 2;
      blCount[maxLength]--;
      overflow -= 2;
    } while (overflow > 0);
    for (let bits = maxLength; bits !== 0; bits--) {
      let n = blCount[bits];
      while (n !== 0) {
        const m = heap[--h];
        if (m > t.maxCode) continue;
        if (len[m] !== bits) {
          optLen += (bits - len[m]) * freq[m];
          len[m] = bits;
        }
        n--;
      }
    }
    this.optLen = optLen;
    this.staticLen = staticLen;
  }

  /** zlib's `scan_tree`: the frequencies of the code-length code that sends tree `t`'s lengths. */
  private scanLengths(t: Tree): void {
    const { len, maxCode } = t;
    const blFreq = this.bltree.freq;
    let prevLen = -1;
    let nextLen = len[0];
    let count = 0;
    let maxCount = nextLen === 0 ? 138 : 7;
    let minCount = nextLen === 0 ? 3 : 4;
    for (let n = 0; n <= maxCode; n++) {
      const curLen = nextLen;
      // zlib's guard past the last code: a length no code has.
      nextLen = n + 1 <= maxCode ? len[n + 1] : 0xffff;
      if (++count < maxCount && curLen === nextLen) continue;
      if (count < minCount) blFreq[curLen] += count;
      else if (curLen !== 0) {
        if (curLen !== prevLen) blFreq[curLen]++;
        blFreq[REP_3_6]++;
      } else if (count <= 10) blFreq[REPZ_3_10]++;
      else blFreq[REPZ_11_138]++;
      count = 0;
      prevLen = curLen;
      if (nextLen === 0) {
        maxCount = 138;
        minCount = 3;
      } else if (curLen === nextLen) {
        maxCount = 6;
        minCount = 3;
      } else {
        maxCount = 7;
        minCount = 4;
      }
    }
  }

  /** The bits of one block as zlib writes it (`_tr_flush_block`); `bits` so far, for a stored block's alignment. */
  private blockBits(bits: number, storedLength: number, last: boolean): number {
    this.build(this.ltree);
    this.build(this.dtree);
    this.scanLengths(this.ltree);
    this.scanLengths(this.dtree);
    this.build(this.bltree);
    let maxBlIndex = BL_CODES - 1;
    while (maxBlIndex >= 3 && this.bltree.len[BL_ORDER[maxBlIndex]] === 0) maxBlIndex--;
    this.optLen += 3 * (maxBlIndex + 1) + 5 + 5 + 4;
    let optBytes = (this.optLen + 3 + 7) >>> 3;
    const staticBytes = (this.staticLen + 3 + 7) >>> 3;
    if (staticBytes <= optBytes) optBytes = staticBytes;
    if (storedLength + 4 <= optBytes) {
      // Stored: 3 header bits, up to the byte, two 16-bit lengths, the bytes themselves.
      bits = (((bits + 3 + 7) >>> 3) + 4 + storedLength) * 8;
    } else bits += 3 + (staticBytes === optBytes ? this.staticLen : this.optLen);
    if (last) bits = ((bits + 7) >>> 3) * 8;
    return bits;
  }

  private startBlock(): void {
    this.ltree.freq.fill(0);
    this.dtree.freq.fill(0);
    this.bltree.freq.fill(0);
    this.ltree.freq[END_BLOCK] = 1;
    this.optLen = 0;
    this.staticLen = 0;
  }

  /**
   * The bytes of zlib's deflate blocks for `count` tokens of zlibMatches.wat's form (`distance << 8
   * | (length - 3)` for a match, the byte for a literal, `AFTER_LAST` on a literal tallied after the
   * last position): the length of `zlib.compress` less its 2-byte header and 4-byte trailer.
   */
  deflatedBlockBytes(tokens: Int32Array, count: number): number {
    let bits = 0;
    let symbols = 0;
    let pos = 0;
    let blockStart = 0;
    this.startBlock();
    const lfreq = this.ltree.freq;
    const dfreq = this.dtree.freq;
    for (let i = 0; i < count; i++) {
      const token = tokens[i];
      const dist = (token & ~AFTER_LAST) >>> 8;
      const lc = token & 0xff;
      if (dist === 0) {
        lfreq[lc]++;
        pos++;
      } else {
        lfreq[LENGTH_CODE[lc] + LITERALS + 1]++;
        dfreq[distCode(dist - 1)]++;
        pos += lc + 3;
      }
      if (++symbols === BLOCK_SYMBOLS && (token & AFTER_LAST) === 0) {
        bits = this.blockBits(bits, pos - blockStart, false);
        blockStart = pos;
        symbols = 0;
        this.startBlock();
      }
    }
    return this.blockBits(bits, pos - blockStart, true) >>> 3;
  }
}
