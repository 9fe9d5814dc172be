;; The hot loops of the JSON scanner in WebAssembly SIMD: `skipRun` validates the rest of a flat
;; numeric array (`, 123, -0.5, ...`: token ids, loss masks, log-probs) 32 bytes at a time;
;; `skipText` finds the end of a plain run in a long string and `maskRun` sums a 0/1 loss mask,
;; 48 bytes a step (16 where it is not written as Python writes it); `skipValue` validates and skips one whole JSON value (below). Source of
;; `numberRunWasm.ts` (`npm run build:wasm`); `ruleParse.ts` calls it where a line's bytes live in
;; this module's memory (`lineBuffers.ts`), and its own JS loop everywhere else.
;;
;; skipRun(i, e): `i` is just after a number inside an array, `e` the end of the line. Returns the
;; offset just after the last number up to which every byte forms `, number` pairs: where the
;; caller goes on with its own pair loop (jsonSkip.ts, `skipNumberRun`), so the result is exactly
;; the JS scanner's. The blocks take pairs of the common shape: `,` + at most one space + optional
;; `-` + digits without a leading zero + optional `.digits`. At the first other byte the pair at
;; the `,` before it is read one byte at a time, as the JS `pairEnd` reads it (`pairEnd` below:
;; the array's last number; where that byte is an exponent's `e` right after a digit, only the
;; exponent, every byte before it being valid), and the blocks go on after it; where that pair is not
;; sure (other whitespace, errors, a number reaching `e`) the `,` is returned. It never decides
;; that a line is invalid. Integer runs (token ids) first go through `skipInts`, with fewer byte
;; classes; where exponents come close together, the rest of the run goes through `skipRunE`,
;; whose blocks take them.
;;
;; Each 32-byte block becomes one bit mask per byte class (bit t = byte p+t). The grammar is a rule
;; on what may come before each byte (`,` and `.` after a digit, ` ` after `,`, `-` after `,` or
;; ` `, no digit after a number's leading `0`); rules on what comes after follow from these (after
;; `-` or `.` only a digit can stand, every other class needing something else before it).
;; Shifting a mask left by one (carrying the previous block's top bit in) lines each byte up with
;; its predecessor. The one rule that is not local, one `.` per number, uses an addition: adding a
;; bit at the first digit after a `.` carries through the digits and lands on the byte after them,
;; which must not be another `.`.
(module
  (import "env" "memory" (memory 1))
  ;; The byte patterns the loops compare with. V8 builds an `i8x16.splat` or `v128.const` again at
  ;; each use, three instructions inside every loop that uses it; a mutable global cannot be folded,
  ;; so each function reads these into locals once, which stay in vector registers (BENCHMARKS.md,
  ;; "Design measurements").
  (global $kZero (mut v128) (v128.const i8x16 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30 0x30))
  (global $kOne (mut v128) (v128.const i8x16 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31 0x31))
  (global $kComma (mut v128) (v128.const i8x16 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c 0x2c))
  (global $kSpace (mut v128) (v128.const i8x16 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
  (global $kMinus (mut v128) (v128.const i8x16 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d 0x2d))
  (global $kDot (mut v128) (v128.const i8x16 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e 0x2e))
  (global $kQuote (mut v128) (v128.const i8x16 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22))
  (global $kE (mut v128) (v128.const i8x16 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65 0x65))
  (global $kPlus (mut v128) (v128.const i8x16 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b 0x2b))
  (global $kBackslash (mut v128) (v128.const i8x16 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c))
  ;; a digit plus 0x50 is below 0x8a as a signed byte, and nothing else is (skipRun)
  (global $kDigit (mut v128) (v128.const i8x16 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50 0x50))
  (global $kDigits (mut v128) (v128.const i8x16 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a 0x8a))
  ;; 16 `, d` pairs over three blocks (maskRun): each byte's pattern, and the bit of its digit places
  (global $kPairs0 (mut v128) (v128.const i8x16 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c))
  (global $kPairs1 (mut v128) (v128.const i8x16 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20))
  (global $kPairs2 (mut v128) (v128.const i8x16 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30 0x2c 0x20 0x30))
  (global $kDigitAt0 (mut v128) (v128.const i8x16 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0))
  (global $kDigitAt1 (mut v128) (v128.const i8x16 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0))
  (global $kDigitAt2 (mut v128) (v128.const i8x16 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1))

  ;; `skipRun`'s exponents read in a row, each within 64 bytes of the one before, and where the last
  ;; was (globals, not locals: they are used only at a stop, and locals would hold registers the
  ;; block loop wants)
  (global $dense (mut i32) (i32.const 0))
  (global $lastE (mut i32) (i32.const -64))

  (func $skipRun (export "skipRun") (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $lo v128) (local $hi v128)
    (local $kZero v128) (local $kDigit v128) (local $kDigits v128) (local $kComma v128) (local $kSpace v128) (local $kMinus v128) (local $kDot v128)
    (local $D i32) (local $C i32) (local $S i32) (local $M i32) (local $P i32) (local $ZS i32)
    ;; the previous byte's class, for each byte of the block
    (local $pD i32) (local $pC i32) (local $pS i32) (local $pP i32) (local $pZS i32)
    ;; carried from the previous block: its last byte's class, and whether its last byte was a digit after a `.`
    (local $cD i32) (local $cC i32) (local $cS i32) (local $cP i32) (local $cZS i32) (local $cF i64)
    (local $sum i64) (local $bad i32) (local $q i32) (local $j i32)
    ;; the caller stopped after a whole number, at a byte that is not a digit: only a `,` goes on from there
    (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 0x2c)) (then (return (local.get $i))))
    (local.set $kZero (global.get $kZero))
    (local.set $kDigit (global.get $kDigit))
    (local.set $kDigits (global.get $kDigits))
    (local.set $kComma (global.get $kComma))
    (local.set $kSpace (global.get $kSpace))
    (local.set $kMinus (global.get $kMinus))
    (local.set $kDot (global.get $kDot))
    ;; integers first (token ids): where a `-`, `.` or anything else stops them, the loop below
    ;; goes on from the last whole pair, as if called there
    (local.set $i (call $skipInts (local.get $i) (local.get $e)))
    (local.set $p (local.get $i))
    (global.set $dense (i32.const 0))
    (global.set $lastE (i32.const -64))
    ;; the caller has just read a whole number: the byte before `i` counts as a digit
    (local.set $cD (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $e)))
        (local.set $lo (v128.load align=1 (local.get $p)))
        (local.set $hi (v128.load offset=16 align=1 (local.get $p)))
        ;; digits: `0`-`9` + 0x50 are the only bytes that land on -128..-119 (one signed compare)
        (local.set $D (i32.or
          (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $lo) (local.get $kDigit)) (local.get $kDigits)))
          (i32.shl (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $hi) (local.get $kDigit)) (local.get $kDigits))) (i32.const 16))))
        (local.set $C (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kComma))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kComma))) (i32.const 16))))
        (local.set $S (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kSpace))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kSpace))) (i32.const 16))))
        (local.set $M (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kMinus))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kMinus))) (i32.const 16))))
        (local.set $P (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kDot))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kDot))) (i32.const 16))))
        (local.set $pD (i32.or (i32.shl (local.get $D) (i32.const 1)) (local.get $cD)))
        (local.set $pC (i32.or (i32.shl (local.get $C) (i32.const 1)) (local.get $cC)))
        (local.set $pS (i32.or (i32.shl (local.get $S) (i32.const 1)) (local.get $cS)))
        (local.set $pP (i32.or (i32.shl (local.get $P) (i32.const 1)) (local.get $cP)))
        ;; a `0` that starts a number's digits: after neither a digit nor a `.` (each byte before the
        ;; first bad one is of a class of ours, so that is after `,`, ` ` or `-`)
        (local.set $ZS (i32.and
          (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kZero))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kZero))) (i32.const 16)))
          (i32.xor (i32.or (local.get $pD) (local.get $pP)) (i32.const -1))))
        (local.set $pZS (i32.or (i32.shl (local.get $ZS) (i32.const 1)) (local.get $cZS)))
        ;; from each first digit after a `.`, through the digits, to the byte after them
        (local.set $sum (i64.add
          (i64.add (i64.extend_i32_u (local.get $D)) (i64.extend_i32_u (i32.and (local.get $pP) (local.get $D))))
          (local.get $cF)))
        (local.set $bad
          (i32.or
            (i32.or
              ;; a byte of no class of ours
              (i32.xor (i32.or (i32.or (local.get $D) (local.get $C)) (i32.or (i32.or (local.get $S) (local.get $M)) (local.get $P))) (i32.const -1))
              ;; `,` and `.` follow a digit; ` ` follows `,`; `-` follows `,` or ` `
              (i32.or
                (i32.and (i32.or (local.get $C) (local.get $P)) (i32.xor (local.get $pD) (i32.const -1)))
                (i32.or
                  (i32.and (local.get $S) (i32.xor (local.get $pC) (i32.const -1)))
                  (i32.and (local.get $M) (i32.xor (i32.or (local.get $pC) (local.get $pS)) (i32.const -1))))))
            (i32.or
              ;; no digit after a leading `0`
              (i32.and (local.get $pZS) (local.get $D))
              ;; no `.` right after the digits that follow a `.`
              (i32.and (i32.wrap_i64 (local.get $sum)) (local.get $P)))))
        ;; the last `,` before the first bad byte: all before it is valid. The pair there is
        ;; taken here when it is of the usual shape (an exponent, the array's last number), and
        ;; the blocks go on after it as after the caller's number.
        (if (local.get $bad) (then
          (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $bad))))
          (local.set $j (i32.const -1))
          ;; an exponent right after a digit: every byte before it is valid, so only the exponent
          ;; is read (full-precision log-probs near 0 have one every other number)
          (if (i32.and
                (i32.eq (i32.or (i32.load8_u (local.get $q)) (i32.const 0x20)) (i32.const 0x65))
                (i32.and (i32.shr_u (local.get $pD) (i32.ctz (local.get $bad))) (i32.const 1)))
            (then
              (local.set $j (call $exponentEnd (local.get $q) (local.get $e)))
              (global.set $dense (select (i32.add (global.get $dense) (i32.const 1)) (i32.const 0)
                (i32.lt_u (i32.sub (local.get $q) (global.get $lastE)) (i32.const 64))))
              (global.set $lastE (local.get $q))))
          (if (i32.lt_s (local.get $j) (i32.const 0)) (then
            (local.set $p (call $commaBefore (local.get $i) (local.get $q)))
            (local.set $j (call $pairEnd (local.get $p) (local.get $e)))
            (if (i32.lt_s (local.get $j) (i32.const 0)) (then (return (local.get $p))))))
          (if (i32.ne (i32.load8_u (local.get $j)) (i32.const 0x2c)) (then (return (local.get $j))))
          ;; exponents close together (confident tokens' log-probs at full precision): the rest of
          ;; the run in blocks that take them, instead of a stop at each
          (if (i32.ge_u (global.get $dense) (i32.const 6)) (then (return (call $skipRunE (local.get $j) (local.get $e)))))
          (local.set $i (local.get $j))
          (local.set $p (local.get $j))
          (local.set $cD (i32.const 1))
          (local.set $cC (i32.const 0))
          (local.set $cS (i32.const 0))
          (local.set $cP (i32.const 0))
          (local.set $cZS (i32.const 0))
          (local.set $cF (i64.const 0))
          (br $blocks)))
        (local.set $cD (i32.shr_u (local.get $D) (i32.const 31)))
        (local.set $cC (i32.shr_u (local.get $C) (i32.const 31)))
        (local.set $cS (i32.shr_u (local.get $S) (i32.const 31)))
        (local.set $cP (i32.shr_u (local.get $P) (i32.const 31)))
        (local.set $cZS (i32.shr_u (local.get $ZS) (i32.const 31)))
        (local.set $cF (i64.shr_u (local.get $sum) (i64.const 32)))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $blocks)))
    (call $commaBefore (local.get $i) (local.get $p)))

  ;; skipRunE(i, e): `skipRun` whose blocks take exponents too (`e`/`E`, then an optional sign, then
  ;; digits; any digits, a leading `0` included), for runs where most numbers have one. Besides
  ;; skipRun's rules: `e` follows a digit, `+` follows `e`, `-` may also follow `e`; no `0` that
  ;; starts an exponent's digits counts as a leading zero; and, as for a `.`, the digits after an
  ;; exponent's start land on neither a `.` nor an `e`. Its blocks cost more than skipRun's, so
  ;; `skipRun` calls it only where exponents come close together.
  (func $skipRunE (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $lo v128) (local $hi v128)
    (local $kZero v128) (local $kDigit v128) (local $kDigits v128) (local $kComma v128) (local $kSpace v128) (local $kMinus v128) (local $kDot v128) (local $kE v128) (local $kPlus v128)
    (local $D i32) (local $C i32) (local $S i32) (local $M i32) (local $P i32) (local $E i32) (local $L i32) (local $X i32) (local $ZS i32)
    (local $pD i32) (local $pC i32) (local $pS i32) (local $pP i32) (local $pE i32) (local $pX i32) (local $pZS i32)
    (local $cD i32) (local $cC i32) (local $cS i32) (local $cP i32) (local $cE i32) (local $cX i32) (local $cZS i32) (local $cF i64) (local $cG i64)
    (local $sumF i64) (local $sumG i64) (local $bad i32) (local $j i32)
    (local.set $kZero (global.get $kZero))
    (local.set $kDigit (global.get $kDigit))
    (local.set $kDigits (global.get $kDigits))
    (local.set $kComma (global.get $kComma))
    (local.set $kSpace (global.get $kSpace))
    (local.set $kMinus (global.get $kMinus))
    (local.set $kDot (global.get $kDot))
    (local.set $kE (global.get $kE))
    (local.set $kPlus (global.get $kPlus))
    (local.set $p (local.get $i))
    (local.set $cD (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $e)))
        (local.set $lo (v128.load align=1 (local.get $p)))
        (local.set $hi (v128.load offset=16 align=1 (local.get $p)))
        (local.set $D (i32.or
          (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $lo) (local.get $kDigit)) (local.get $kDigits)))
          (i32.shl (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $hi) (local.get $kDigit)) (local.get $kDigits))) (i32.const 16))))
        (local.set $C (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kComma))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kComma))) (i32.const 16))))
        (local.set $S (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kSpace))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kSpace))) (i32.const 16))))
        (local.set $M (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kMinus))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kMinus))) (i32.const 16))))
        (local.set $P (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kDot))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kDot))) (i32.const 16))))
        ;; `e` or `E`: with bit 0x20 set, `e`
        (local.set $E (i32.or
          (i8x16.bitmask (i8x16.eq (v128.or (local.get $lo) (local.get $kSpace)) (local.get $kE)))
          (i32.shl (i8x16.bitmask (i8x16.eq (v128.or (local.get $hi) (local.get $kSpace)) (local.get $kE))) (i32.const 16))))
        (local.set $L (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kPlus))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kPlus))) (i32.const 16))))
        (local.set $pD (i32.or (i32.shl (local.get $D) (i32.const 1)) (local.get $cD)))
        (local.set $pC (i32.or (i32.shl (local.get $C) (i32.const 1)) (local.get $cC)))
        (local.set $pS (i32.or (i32.shl (local.get $S) (i32.const 1)) (local.get $cS)))
        (local.set $pP (i32.or (i32.shl (local.get $P) (i32.const 1)) (local.get $cP)))
        (local.set $pE (i32.or (i32.shl (local.get $E) (i32.const 1)) (local.get $cE)))
        ;; where an exponent's digits may start after: its `e`, and a sign right after that `e`
        (local.set $X (i32.or (local.get $E) (i32.and (i32.or (local.get $M) (local.get $L)) (local.get $pE))))
        (local.set $pX (i32.or (i32.shl (local.get $X) (i32.const 1)) (local.get $cX)))
        (local.set $ZS (i32.and
          (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kZero))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kZero))) (i32.const 16)))
          (i32.xor (i32.or (i32.or (local.get $pD) (local.get $pP)) (local.get $pX)) (i32.const -1))))
        (local.set $pZS (i32.or (i32.shl (local.get $ZS) (i32.const 1)) (local.get $cZS)))
        ;; from each first digit after a `.` (F) or an exponent's start (G), through the digits, to the byte after them
        (local.set $sumF (i64.add
          (i64.add (i64.extend_i32_u (local.get $D)) (i64.extend_i32_u (i32.and (local.get $pP) (local.get $D))))
          (local.get $cF)))
        (local.set $sumG (i64.add
          (i64.add (i64.extend_i32_u (local.get $D)) (i64.extend_i32_u (i32.and (local.get $pX) (local.get $D))))
          (local.get $cG)))
        (local.set $bad
          (i32.or
            (i32.or
              (i32.or
                ;; a byte of no class of ours
                (i32.xor (i32.or (i32.or (i32.or (local.get $D) (local.get $C)) (i32.or (local.get $S) (local.get $M))) (i32.or (i32.or (local.get $P) (local.get $E)) (local.get $L))) (i32.const -1))
                ;; `,`, `.` and `e` follow a digit; ` ` follows `,`
                (i32.or
                  (i32.and (i32.or (i32.or (local.get $C) (local.get $P)) (local.get $E)) (i32.xor (local.get $pD) (i32.const -1)))
                  (i32.and (local.get $S) (i32.xor (local.get $pC) (i32.const -1)))))
              ;; `-` follows `,`, ` ` or `e`; `+` follows `e`
              (i32.or
                (i32.and (local.get $M) (i32.xor (i32.or (i32.or (local.get $pC) (local.get $pS)) (local.get $pE)) (i32.const -1)))
                (i32.and (local.get $L) (i32.xor (local.get $pE) (i32.const -1)))))
            (i32.or
              ;; no digit after a leading `0`
              (i32.and (local.get $pZS) (local.get $D))
              ;; no `.` right after a fraction's digits; no `.` or `e` right after an exponent's
              (i32.or
                (i32.and (i32.wrap_i64 (local.get $sumF)) (local.get $P))
                (i32.and (i32.wrap_i64 (local.get $sumG)) (i32.or (local.get $P) (local.get $E)))))))
        (if (local.get $bad) (then
          (local.set $p (call $commaBefore (local.get $i) (i32.add (local.get $p) (i32.ctz (local.get $bad)))))
          (local.set $j (call $pairEnd (local.get $p) (local.get $e)))
          (if (i32.lt_s (local.get $j) (i32.const 0)) (then (return (local.get $p))))
          (if (i32.ne (i32.load8_u (local.get $j)) (i32.const 0x2c)) (then (return (local.get $j))))
          (local.set $i (local.get $j))
          (local.set $p (local.get $j))
          (local.set $cD (i32.const 1))
          (local.set $cC (i32.const 0))
          (local.set $cS (i32.const 0))
          (local.set $cP (i32.const 0))
          (local.set $cE (i32.const 0))
          (local.set $cX (i32.const 0))
          (local.set $cZS (i32.const 0))
          (local.set $cF (i64.const 0))
          (local.set $cG (i64.const 0))
          (br $blocks)))
        (local.set $cD (i32.shr_u (local.get $D) (i32.const 31)))
        (local.set $cC (i32.shr_u (local.get $C) (i32.const 31)))
        (local.set $cS (i32.shr_u (local.get $S) (i32.const 31)))
        (local.set $cP (i32.shr_u (local.get $P) (i32.const 31)))
        (local.set $cE (i32.shr_u (local.get $E) (i32.const 31)))
        (local.set $cX (i32.shr_u (local.get $X) (i32.const 31)))
        (local.set $cZS (i32.shr_u (local.get $ZS) (i32.const 31)))
        (local.set $cF (i64.shr_u (local.get $sumF) (i64.const 32)))
        (local.set $cG (i64.shr_u (local.get $sumG) (i64.const 32)))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $blocks)))
    (call $commaBefore (local.get $i) (local.get $p)))

  ;; skipInts(i, e): `skipRun` for `, integer` pairs only (no `-`, no `.`): three byte classes
  ;; instead of five, and no carry of a fraction. `i` is a `,` after a whole number.
  (func $skipInts (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $lo v128) (local $hi v128)
    (local $kZero v128) (local $kDigit v128) (local $kDigits v128) (local $kComma v128) (local $kSpace v128)
    (local $D i32) (local $C i32) (local $S i32) (local $ZS i32)
    (local $pD i32) (local $pC i32) (local $pZS i32)
    (local $cD i32) (local $cC i32) (local $cZS i32) (local $bad i32)
    (local.set $kZero (global.get $kZero))
    (local.set $kDigit (global.get $kDigit))
    (local.set $kDigits (global.get $kDigits))
    (local.set $kComma (global.get $kComma))
    (local.set $kSpace (global.get $kSpace))
    (local.set $p (local.get $i))
    (local.set $cD (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $e)))
        (local.set $lo (v128.load align=1 (local.get $p)))
        (local.set $hi (v128.load offset=16 align=1 (local.get $p)))
        (local.set $D (i32.or
          (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $lo) (local.get $kDigit)) (local.get $kDigits)))
          (i32.shl (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $hi) (local.get $kDigit)) (local.get $kDigits))) (i32.const 16))))
        (local.set $C (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kComma))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kComma))) (i32.const 16))))
        (local.set $S (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kSpace))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kSpace))) (i32.const 16))))
        (local.set $pD (i32.or (i32.shl (local.get $D) (i32.const 1)) (local.get $cD)))
        (local.set $pC (i32.or (i32.shl (local.get $C) (i32.const 1)) (local.get $cC)))
        ;; a `0` after no digit starts a number (after `,` or ` `, the only other classes here)
        (local.set $ZS (i32.and
          (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kZero))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kZero))) (i32.const 16)))
          (i32.xor (local.get $pD) (i32.const -1))))
        (local.set $pZS (i32.or (i32.shl (local.get $ZS) (i32.const 1)) (local.get $cZS)))
        (local.set $bad
          (i32.or
            (i32.or
              ;; a byte of no class of ours
              (i32.xor (i32.or (i32.or (local.get $D) (local.get $C)) (local.get $S)) (i32.const -1))
              ;; `,` follows a digit; ` ` follows `,`
              (i32.or
                (i32.and (local.get $C) (i32.xor (local.get $pD) (i32.const -1)))
                (i32.and (local.get $S) (i32.xor (local.get $pC) (i32.const -1)))))
            ;; no digit after a leading `0`
            (i32.and (local.get $pZS) (local.get $D))))
        (if (local.get $bad) (then (return (call $commaBefore (local.get $i) (i32.add (local.get $p) (i32.ctz (local.get $bad)))))))
        (local.set $cD (i32.shr_u (local.get $D) (i32.const 31)))
        (local.set $cC (i32.shr_u (local.get $C) (i32.const 31)))
        (local.set $cZS (i32.shr_u (local.get $ZS) (i32.const 31)))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $blocks)))
    (call $commaBefore (local.get $i) (local.get $p)))

  ;; pairEnd(q, e): the end of the `, number` pair at the `,` at `q`, as the JS scanner's
  ;; `pairEnd` (jsonSkip.ts) reads it, or -1 where that is not sure from the bytes before `e`
  ;; (no pair of the usual shape, or a number that reaches `e`): the JS scanner then decides.
  (func $pairEnd (param $q i32) (param $e i32) (result i32)
    (local $j i32) (local $c i32)
    (local.set $j (i32.add (local.get $q) (i32.const 1)))
    (local.set $c (i32.load8_u (local.get $j)))
    (if (i32.eq (local.get $c) (i32.const 0x20)) (then
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (local.set $c (i32.load8_u (local.get $j)))))
    (if (i32.eq (local.get $c) (i32.const 0x2d)) (then
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (local.set $c (i32.load8_u (local.get $j)))))
    ;; the integer part: `0` alone, or digits
    (if (i32.eq (local.get $c) (i32.const 0x30))
      (then
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $j)))
        (if (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10)) (then (return (i32.const -1)))))
      (else
        (local.set $j (call $digitsAfter (local.get $j) (local.get $e)))
        (if (i32.lt_s (local.get $j) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $j)))))
    (if (i32.eq (local.get $c) (i32.const 0x2e)) (then
      (local.set $j (call $digitsAfter (i32.add (local.get $j) (i32.const 1)) (local.get $e)))
      (if (i32.lt_s (local.get $j) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $j)))))
    (if (i32.eq (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x65)) (then
      (local.set $j (call $exponentEnd (local.get $j) (local.get $e)))
      (if (i32.lt_s (local.get $j) (i32.const 0)) (then (return (i32.const -1))))))
    ;; (after a `0` the byte read may lie past `e`: the memory keeps SLACK bytes past a buffer)
    (if (i32.ge_u (local.get $j) (local.get $e)) (then (return (i32.const -1))))
    (local.get $j))

  ;; exponentEnd(q, e): the end of the exponent at `q` (`e` or `E`, an optional sign, digits), or -1
  ;; where there is none or its digits reach `e`.
  (func $exponentEnd (param $q i32) (param $e i32) (result i32)
    (local $c i32)
    (local.set $q (i32.add (local.get $q) (i32.const 1)))
    (local.set $c (i32.load8_u (local.get $q)))
    (if (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
      (then (local.set $q (i32.add (local.get $q) (i32.const 1)))))
    (call $digitsAfter (local.get $q) (local.get $e)))

  ;; digitsAfter(j, e): the first non-digit after one or more digits from `j`, or -1 where there
  ;; is no digit at `j` or the digits reach `e`.
  (func $digitsAfter (param $j i32) (param $e i32) (result i32)
    (local $k i32)
    (local.set $k (call $digits (local.get $j) (local.get $e)))
    (if (result i32) (i32.or (i32.eq (local.get $k) (local.get $j)) (i32.ge_u (local.get $k) (local.get $e)))
      (then (i32.const -1))
      (else (local.get $k))))

  ;; The last `,` before `q` and not before `i`, where `i` is one: found backwards, once a call, so
  ;; the loop above carries no last comma from block to block.
  (func $commaBefore (param $i i32) (param $q i32) (result i32)
    (loop $back
      (local.set $q (i32.sub (local.get $q) (i32.const 1)))
      (if (i32.le_u (local.get $q) (local.get $i)) (then (return (local.get $i))))
      (br_if $back (i32.ne (i32.load8_u (local.get $q)) (i32.const 0x2c))))
    (local.get $q))

  ;; skipText(i, e): inside a string body, the offset of the first byte at or after `i` that is
  ;; `"`, `\`, a control character or not ASCII, looked for 16 bytes a step; where fewer than 16
  ;; bytes remain before `e` it returns the start of that rest unread. Either way the JS scanner goes
  ;; on from the returned offset (jsonSkip.ts, `skipString`), so the result is exactly its own.
  (func $skipText (export "skipText") (param $i i32) (param $e i32) (result i32)
    (local $v v128) (local $stop i32) (local $kQuote v128) (local $kBackslash v128) (local $kSpace v128)
    (local.set $kQuote (global.get $kQuote))
    (local.set $kBackslash (global.get $kBackslash))
    (local.set $kSpace (global.get $kSpace))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $e)))
        (local.set $v (v128.load align=1 (local.get $i)))
        (local.set $stop (i8x16.bitmask (v128.or
          (v128.or (i8x16.eq (local.get $v) (local.get $kQuote)) (i8x16.eq (local.get $v) (local.get $kBackslash)))
          ;; below 0x20 or 0x80 and above: both are below 0x20 as signed bytes
          (i8x16.lt_s (local.get $v) (local.get $kSpace)))))
        (if (local.get $stop) (then (return (i32.add (local.get $i) (i32.ctz (local.get $stop))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    (local.get $i))

  ;; The number of `1` items `maskRun` passed.
  (global $ones (export "ones") (mut i32) (i32.const 0))

  ;; maskRun(i, e): `i` at the `,` after a loss mask's `0` or `1` item (the caller has read it).
  ;; Returns the offset of the last `,` up to which every byte forms `, 0` / `, 1` pairs (exactly a
  ;; comma, one space, one digit), 16 bytes a step, and sets `ones` to the number of `1` items of
  ;; those pairs; like `skipRun`, it never decides that a line is invalid: the JS scanner goes on
  ;; from that `,` (with the whole pair). Per block: a `,` follows a digit, a ` ` follows a `,`, a
  ;; digit follows a ` `, and nothing else occurs; a `1` is counted at the `,` that closes it, so
  ;; only whole items count.
  ;;
  ;; First, 48 bytes a step, the pairs exactly as Python writes them: from a `,`, 16 pairs of 3
  ;; bytes, so each byte's place in its pair is known in advance (comma, space, digit) and a block
  ;; is valid when every byte, its digit bit cleared at the digit places, equals the pattern. Where
  ;; a block does not match (the array's end, other spacing, another number) the 16-byte loop below
  ;; goes on from that block's `,`, the last digit still to be closed and counted by it.
  (func (export "maskRun") (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $v v128) (local $Z i32) (local $O i32) (local $C i32) (local $S i32)
    (local $pZ i32) (local $pO i32) (local $pC i32) (local $pS i32)
    (local $cZ i32) (local $cO i32) (local $cC i32) (local $cS i32)
    (local $bad i32) (local $low i32) (local $before i32) (local $first i32) (local $lastComma i32) (local $n i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $ones v128)
    (local $kDigitAt0 v128)
    (local $kDigitAt1 v128)
    (local $kDigitAt2 v128)
    (local $kPairs0 v128)
    (local $kPairs1 v128)
    (local $kPairs2 v128)
    (local $kOne v128) (local $kZero v128) (local $kComma v128) (local $kSpace v128)
    (local.set $kDigitAt0 (global.get $kDigitAt0))
    (local.set $kDigitAt1 (global.get $kDigitAt1))
    (local.set $kDigitAt2 (global.get $kDigitAt2))
    (local.set $kPairs0 (global.get $kPairs0))
    (local.set $kPairs1 (global.get $kPairs1))
    (local.set $kPairs2 (global.get $kPairs2))
    (local.set $kOne (global.get $kOne))
    (local.set $kZero (global.get $kZero))
    (local.set $kComma (global.get $kComma))
    (local.set $kSpace (global.get $kSpace))
    (local.set $p (local.get $i))
    (block $patterned
      (loop $blocks
        (br_if $patterned (i32.gt_u (i32.add (local.get $p) (i32.const 48)) (local.get $e)))
        (local.set $v0 (v128.load align=1 (local.get $p)))
        (local.set $v1 (v128.load offset=16 align=1 (local.get $p)))
        (local.set $v2 (v128.load offset=32 align=1 (local.get $p)))
        (br_if $patterned (i32.eqz (i8x16.all_true (v128.and
          (v128.and
            (i8x16.eq (v128.andnot (local.get $v0) (local.get $kDigitAt0)) (local.get $kPairs0))
            (i8x16.eq (v128.andnot (local.get $v1) (local.get $kDigitAt1)) (local.get $kPairs1)))
          (i8x16.eq (v128.andnot (local.get $v2) (local.get $kDigitAt2)) (local.get $kPairs2))))))
        ;; each lane holds one digit place of the three blocks: its digit bit is its `1`
        (local.set $ones (i32x4.add (local.get $ones) (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
          (i8x16.add
            (i8x16.add (v128.and (local.get $v0) (local.get $kDigitAt0)) (v128.and (local.get $v1) (local.get $kDigitAt1)))
            (v128.and (local.get $v2) (local.get $kDigitAt2)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 48)))
        (br $blocks)))
    (local.set $n (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $ones)) (i32x4.extract_lane 1 (local.get $ones)))
      (i32.add (i32x4.extract_lane 2 (local.get $ones)) (i32x4.extract_lane 3 (local.get $ones)))))
    (local.set $lastComma (local.get $i))
    (if (i32.gt_u (local.get $p) (local.get $i))
      (then
        ;; the last pair's digit is closed (and counted) by the `,` after it, as below
        (local.set $cO (i32.eq (i32.load8_u offset=0 (i32.sub (local.get $p) (i32.const 1))) (i32.const 0x31)))
        (local.set $n (i32.sub (local.get $n) (local.get $cO)))
        (local.set $lastComma (i32.sub (local.get $p) (i32.const 3)))))
    ;; the byte before `p` is a digit: the caller's item or the last block's, counted in `cO`
    (local.set $cZ (i32.const 1))
    (local.set $first (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $e)))
        (local.set $v (v128.load align=1 (local.get $p)))
        (local.set $O (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $kOne))))
        (local.set $Z (i32.or (local.get $O) (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $kZero)))))
        (local.set $C (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $kComma))))
        (local.set $S (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $kSpace))))
        (local.set $pZ (i32.or (i32.shl (local.get $Z) (i32.const 1)) (local.get $cZ)))
        (local.set $pO (i32.or (i32.shl (local.get $O) (i32.const 1)) (local.get $cO)))
        (local.set $pC (i32.or (i32.shl (local.get $C) (i32.const 1)) (local.get $cC)))
        (local.set $pS (i32.or (i32.shl (local.get $S) (i32.const 1)) (local.get $cS)))
        (local.set $bad (i32.and (i32.const 0xffff) (i32.or
          (i32.or
            (i32.xor (i32.or (local.get $Z) (i32.or (local.get $C) (local.get $S))) (i32.const -1))
            (i32.and (local.get $first) (i32.xor (local.get $C) (i32.const 1))))
          (i32.or
            (i32.and (local.get $C) (i32.xor (local.get $pZ) (i32.const -1)))
            (i32.or
              (i32.and (local.get $S) (i32.xor (local.get $pC) (i32.const -1)))
              (i32.and (local.get $Z) (i32.xor (local.get $pS) (i32.const -1))))))))
        (if (local.get $bad)
          (then
            (local.set $low (i32.sub (i32.shl (i32.const 1) (i32.ctz (local.get $bad))) (i32.const 1)))
            (local.set $before (i32.and (local.get $C) (local.get $low)))
            (global.set $ones (i32.add (local.get $n) (i32.popcnt (i32.and (local.get $before) (local.get $pO)))))
            (if (local.get $before)
              (then (return (i32.add (local.get $p) (i32.sub (i32.const 31) (i32.clz (local.get $before)))))))
            (return (local.get $lastComma))))
        (local.set $n (i32.add (local.get $n) (i32.popcnt (i32.and (local.get $C) (local.get $pO)))))
        (if (local.get $C)
          (then (local.set $lastComma (i32.add (local.get $p) (i32.sub (i32.const 31) (i32.clz (local.get $C)))))))
        (local.set $first (i32.const 0))
        (local.set $cZ (i32.shr_u (local.get $Z) (i32.const 15)))
        (local.set $cO (i32.shr_u (local.get $O) (i32.const 15)))
        (local.set $cC (i32.shr_u (local.get $C) (i32.const 15)))
        (local.set $cS (i32.shr_u (local.get $S) (i32.const 15)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (global.set $ones (local.get $n))
    (local.get $lastComma))

  ;; skipValue(i, e): validates the one JSON value at `i` (whitespace allowed before it) as
  ;; jsonSkip.ts' `skipValueJs` does (RFC 8259 plus `NaN`, `Infinity`, `-Infinity`; strings checked as
  ;; UTF-8) and returns the offset after it, or -1 wherever it does not decide alone: any error, a
  ;; byte it does not know, nesting deeper than 64. The JS scanner reads the value again from `i`
  ;; then, and reports the error; so every result other than -1 is exactly its own. One call skips
  ;; a whole member (a `tokens` array, a prompt's messages), with no return to JS per number run.
  (func (export "skipValue") (param $i i32) (param $e i32) (result i32)
    (local $c i32) (local $j i32) (local $depth i32) (local $stack i64) (local $top i32)
    (block $fail
      (loop $value
        (local.set $i (call $ws (local.get $i) (local.get $e)))
        (br_if $fail (i32.ge_u (local.get $i) (local.get $e)))
        (local.set $c (i32.load8_u (local.get $i)))
        (block $after
          ;; `{` or `[`: an empty container, or one more level and its first key / value
          (if (i32.eq (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x7b))
            (then
              (local.set $j (call $ws (i32.add (local.get $i) (i32.const 1)) (local.get $e)))
              (br_if $fail (i32.ge_u (local.get $j) (local.get $e)))
              ;; `}` is `{` + 2, `]` is `[` + 2
              (if (i32.eq (i32.load8_u (local.get $j)) (i32.add (local.get $c) (i32.const 2)))
                (then
                  (local.set $i (i32.add (local.get $j) (i32.const 1)))
                  (br $after)))
              (br_if $fail (i32.eq (local.get $depth) (i32.const 64)))
              (local.set $stack (i64.or (i64.shl (local.get $stack) (i64.const 1)) (i64.extend_i32_u (i32.eq (local.get $c) (i32.const 0x7b)))))
              (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
              (local.set $i (local.get $j))
              (if (i32.eq (local.get $c) (i32.const 0x7b))
                (then
                  (local.set $i (call $keyColon (local.get $j) (local.get $e)))
                  (br_if $fail (i32.lt_s (local.get $i) (i32.const 0)))))
              (br $value)))
          (if (i32.eq (local.get $c) (i32.const 0x22))
            (then
              (local.set $i (call $string (local.get $i) (local.get $e)))
              (br_if $fail (i32.lt_s (local.get $i) (i32.const 0)))
              (br $after)))
          (if (i32.eq (local.get $c) (i32.const 0x74))
            (then
              (br_if $fail (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $e)))
              (br_if $fail (i32.ne (i32.load align=1 (local.get $i)) (i32.const 0x65757274)))
              (local.set $i (i32.add (local.get $i) (i32.const 4)))
              (br $after)))
          (if (i32.eq (local.get $c) (i32.const 0x6e))
            (then
              (br_if $fail (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $e)))
              (br_if $fail (i32.ne (i32.load align=1 (local.get $i)) (i32.const 0x6c6c756e)))
              (local.set $i (i32.add (local.get $i) (i32.const 4)))
              (br $after)))
          (if (i32.eq (local.get $c) (i32.const 0x66))
            (then
              (br_if $fail (i32.gt_u (i32.add (local.get $i) (i32.const 5)) (local.get $e)))
              (br_if $fail (i32.ne (i32.load align=1 (local.get $i)) (i32.const 0x736c6166)))
              (br_if $fail (i32.ne (i32.load8_u offset=4 (local.get $i)) (i32.const 0x65)))
              (local.set $i (i32.add (local.get $i) (i32.const 5)))
              (br $after)))
          ;; anything else is a number or nothing
          (local.set $i (call $number (local.get $i) (local.get $e)))
          (br_if $fail (i32.lt_s (local.get $i) (i32.const 0)))
          ;; the rest of a flat numeric array (where `skipRun` stops at a `,`, the loop below takes it)
          (if (i32.and (i32.ne (local.get $depth) (i32.const 0)) (i32.eqz (i32.wrap_i64 (i64.and (local.get $stack) (i64.const 1)))))
            (then (local.set $i (call $skipRun (local.get $i) (local.get $e))))))
        ;; after a value: close containers, or a `,` and the next member or item
        (loop $close
          (if (i32.eqz (local.get $depth)) (then (return (local.get $i))))
          (local.set $i (call $ws (local.get $i) (local.get $e)))
          (br_if $fail (i32.ge_u (local.get $i) (local.get $e)))
          (local.set $c (i32.load8_u (local.get $i)))
          (local.set $top (i32.wrap_i64 (i64.and (local.get $stack) (i64.const 1))))
          (if (i32.eq (local.get $c) (i32.const 0x2c))
            (then
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (if (local.get $top)
                (then
                  (local.set $i (call $keyColon (local.get $i) (local.get $e)))
                  (br_if $fail (i32.lt_s (local.get $i) (i32.const 0)))))
              (br $value)))
          ;; `]` closes an array, `}` an object
          (br_if $fail (i32.ne (local.get $c) (select (i32.const 0x7d) (i32.const 0x5d) (local.get $top))))
          (local.set $stack (i64.shr_u (local.get $stack) (i64.const 1)))
          (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $close))))
    (i32.const -1))

  ;; The first byte at or after `i` that is not JSON whitespace (or `e`).
  (func $ws (param $i i32) (param $e i32) (result i32)
    (local $c i32)
    (block $end
      (loop $bytes
        (br_if $end (i32.ge_u (local.get $i) (local.get $e)))
        (local.set $c (i32.load8_u (local.get $i)))
        (br_if $end (i32.eqz (i32.or
          (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x0a)))
          (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x09))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.get $i))

  ;; After `{` or `,` in an object: whitespace, a key, whitespace, `:`; the offset after the `:`, or -1.
  (func $keyColon (param $i i32) (param $e i32) (result i32)
    (local.set $i (call $ws (local.get $i) (local.get $e)))
    (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 0x22)) (then (return (i32.const -1))))
    (local.set $i (call $string (local.get $i) (local.get $e)))
    (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
    (local.set $i (call $ws (local.get $i) (local.get $e)))
    (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 0x3a)) (then (return (i32.const -1))))
    (i32.add (local.get $i) (i32.const 1)))

  (func $digit (param $c i32) (result i32)
    (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10)))

  ;; The first offset at or after `i` (at most `e`) that is not a digit.
  (func $digits (param $i i32) (param $e i32) (result i32)
    (block $end
      (loop $bytes
        (br_if $end (i32.ge_u (local.get $i) (local.get $e)))
        (br_if $end (i32.ge_u (i32.sub (i32.load8_u (local.get $i)) (i32.const 0x30)) (i32.const 10)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.get $i))

  ;; A number at `i` as jsonNumber.ts' `skipNumberAt` reads it: the offset after it, or -1.
  (func $number (param $i i32) (param $e i32) (result i32)
    (local $c i32) (local $minus i32)
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 0x2d))
      (then
        (local.set $minus (i32.const 1))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $i)))))
    ;; `Infinity` (after `-` too), `NaN` (not after `-`)
    (if (i32.eq (local.get $c) (i32.const 0x49))
      (then
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $e)) (then (return (i32.const -1))))
        (if (i64.ne (i64.load align=1 (local.get $i)) (i64.const 0x7974696e69666e49)) (then (return (i32.const -1))))
        (return (i32.add (local.get $i) (i32.const 8)))))
    (if (i32.eq (local.get $c) (i32.const 0x4e))
      (then
        (if (local.get $minus) (then (return (i32.const -1))))
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 3)) (local.get $e)) (then (return (i32.const -1))))
        (if (i32.ne (i32.load16_u align=1 (local.get $i)) (i32.const 0x614e)) (then (return (i32.const -1))))
        (if (i32.ne (i32.load8_u offset=2 (local.get $i)) (i32.const 0x4e)) (then (return (i32.const -1))))
        (return (i32.add (local.get $i) (i32.const 3)))))
    ;; a lone `0`, or digits not starting with `0`
    (if (i32.eq (local.get $c) (i32.const 0x30))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.lt_u (local.get $i) (local.get $e))
          (then (if (call $digit (i32.load8_u (local.get $i))) (then (return (i32.const -1)))))))
      (else
        (if (i32.eqz (call $digit (local.get $c))) (then (return (i32.const -1))))
        (local.set $i (call $digits (i32.add (local.get $i) (i32.const 1)) (local.get $e)))))
    (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (local.get $i))))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 0x2e))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
        (if (i32.eqz (call $digit (i32.load8_u (local.get $i)))) (then (return (i32.const -1))))
        (local.set $i (call $digits (i32.add (local.get $i) (i32.const 1)) (local.get $e)))
        (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (local.get $i))))
        (local.set $c (i32.load8_u (local.get $i)))))
    (if (i32.eq (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x65))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (if (i32.ge_u (local.get $i) (local.get $e)) (then (return (i32.const -1))))
            (local.set $c (i32.load8_u (local.get $i)))))
        (if (i32.eqz (call $digit (local.get $c))) (then (return (i32.const -1))))
        (local.set $i (call $digits (i32.add (local.get $i) (i32.const 1)) (local.get $e)))))
    (local.get $i))

  ;; A string at `i` (its opening quote) as jsonSkip.ts' `skipString` reads it: the offset after
  ;; the closing quote, or -1. Plain ASCII runs 16 bytes a step (`skipText`).
  (func $string (param $i i32) (param $e i32) (result i32)
    (local $k i32) (local $c i32) (local $n i32) (local $lo i32) (local $hi i32) (local $x i32)
    (local.set $k (i32.add (local.get $i) (i32.const 1)))
    (loop $run
      (local.set $k (call $skipText16 (local.get $k) (local.get $e)))
      (if (i32.ge_u (local.get $k) (local.get $e)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $k)))
      (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (i32.add (local.get $k) (i32.const 1)))))
      (if (i32.eq (local.get $c) (i32.const 0x5c))
        (then
          (if (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $e)) (then (return (i32.const -1))))
          (local.set $x (i32.load8_u offset=1 (local.get $k)))
          ;; `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`
          (if (i32.or
                (i32.or (i32.or (i32.eq (local.get $x) (i32.const 0x22)) (i32.eq (local.get $x) (i32.const 0x5c)))
                        (i32.or (i32.eq (local.get $x) (i32.const 0x2f)) (i32.eq (local.get $x) (i32.const 0x62))))
                (i32.or (i32.or (i32.eq (local.get $x) (i32.const 0x66)) (i32.eq (local.get $x) (i32.const 0x6e)))
                        (i32.or (i32.eq (local.get $x) (i32.const 0x72)) (i32.eq (local.get $x) (i32.const 0x74)))))
            (then
              (local.set $k (i32.add (local.get $k) (i32.const 2)))
              (br $run)))
          (if (i32.ne (local.get $x) (i32.const 0x75)) (then (return (i32.const -1))))
          (if (i32.ge_u (i32.add (local.get $k) (i32.const 5)) (local.get $e)) (then (return (i32.const -1))))
          (if (i32.eqz (i32.and
                (i32.and (call $hex (i32.load8_u offset=2 (local.get $k))) (call $hex (i32.load8_u offset=3 (local.get $k))))
                (i32.and (call $hex (i32.load8_u offset=4 (local.get $k))) (call $hex (i32.load8_u offset=5 (local.get $k))))))
            (then (return (i32.const -1))))
          (local.set $k (i32.add (local.get $k) (i32.const 6)))
          (br $run)))
      ;; below 0x80 here: a control character
      (if (i32.lt_u (local.get $c) (i32.const 0x80)) (then (return (i32.const -1))))
      ;; a well-formed UTF-8 sequence (RFC 3629), as jsonSkip.ts' `utf8Sequence`
      (local.set $lo (i32.const 0x80))
      (local.set $hi (i32.const 0xbf))
      (if (i32.and (i32.ge_u (local.get $c) (i32.const 0xc2)) (i32.le_u (local.get $c) (i32.const 0xdf)))
        (then (local.set $n (i32.const 2)))
        (else
          (if (i32.and (i32.ge_u (local.get $c) (i32.const 0xe0)) (i32.le_u (local.get $c) (i32.const 0xef)))
            (then
              (local.set $n (i32.const 3))
              (if (i32.eq (local.get $c) (i32.const 0xe0)) (then (local.set $lo (i32.const 0xa0))))
              (if (i32.eq (local.get $c) (i32.const 0xed)) (then (local.set $hi (i32.const 0x9f)))))
            (else
              (if (i32.and (i32.ge_u (local.get $c) (i32.const 0xf0)) (i32.le_u (local.get $c) (i32.const 0xf4)))
                (then
                  (local.set $n (i32.const 4))
                  (if (i32.eq (local.get $c) (i32.const 0xf0)) (then (local.set $lo (i32.const 0x90))))
                  (if (i32.eq (local.get $c) (i32.const 0xf4)) (then (local.set $hi (i32.const 0x8f)))))
                (else (return (i32.const -1))))))))
      (if (i32.gt_u (i32.add (local.get $k) (local.get $n)) (local.get $e)) (then (return (i32.const -1))))
      (local.set $x (i32.load8_u offset=1 (local.get $k)))
      (if (i32.or (i32.lt_u (local.get $x) (local.get $lo)) (i32.gt_u (local.get $x) (local.get $hi))) (then (return (i32.const -1))))
      (if (i32.ge_u (local.get $n) (i32.const 3))
        (then (if (i32.ne (i32.and (i32.load8_u offset=2 (local.get $k)) (i32.const 0xc0)) (i32.const 0x80)) (then (return (i32.const -1))))))
      (if (i32.eq (local.get $n) (i32.const 4))
        (then (if (i32.ne (i32.and (i32.load8_u offset=3 (local.get $k)) (i32.const 0xc0)) (i32.const 0x80)) (then (return (i32.const -1))))))
      (local.set $k (i32.add (local.get $k) (local.get $n)))
      (br $run))
    (i32.const -1))

  (func $hex (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 6))))

  ;; Inside a string body: the first byte at or after `i` that is `"`, `\`, a control character
  ;; or not ASCII, or `e`: 16 bytes a step, then byte by byte.
  (func $skipText16 (param $i i32) (param $e i32) (result i32)
    (local $c i32)
    (local.set $i (call $skipText (local.get $i) (local.get $e)))
    (block $end
      (loop $bytes
        (br_if $end (i32.ge_u (local.get $i) (local.get $e)))
        (local.set $c (i32.load8_u (local.get $i)))
        (br_if $end (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x5c)))
                            (i32.or (i32.lt_u (local.get $c) (i32.const 0x20)) (i32.ge_u (local.get $c) (i32.const 0x80)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.get $i))
)
