;; The hot loops of the JSON scanner in WebAssembly SIMD: `skipRun` validates the rest of a flat
;; numeric array (`, 123, -0.5, ...`: token ids, loss masks, log-probs) 32 bytes at a time;
;; `skipText` finds the end of a plain run in a long string and `maskRun` sums a 0/1 loss mask,
;; 16 bytes a step (below). Source of
;; `numberRunWasm.ts` (`npm run build:wasm`); `jsonScan.ts` calls it where a line's bytes live in
;; this module's memory (`scanBytes.ts`), and its own JS loop everywhere else.
;;
;; skipRun(i, e): `i` is just after a number inside an array, `e` the end of the line. Returns the
;; offset of the last `,` up to which every byte forms `, number` pairs of the common shape:
;; `,` + at most one space + optional `-` + digits without a leading zero + optional `.digits`.
;; It never decides that a line is invalid: anything else (exponents, other whitespace, `]`,
;; errors, the last 31 bytes of the line) is left to the JS scanner, which goes on from the
;; returned `,` (with the whole pair), so the result is exactly the JS scanner's.
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

  (func (export "skipRun") (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $lo v128) (local $hi v128)
    (local $k0 v128) (local $k10 v128) (local $kComma v128) (local $kSpace v128) (local $kMinus v128) (local $kDot v128)
    (local $D i32) (local $C i32) (local $S i32) (local $M i32) (local $P i32) (local $ZS i32)
    ;; the previous byte's class, for each byte of the block
    (local $pD i32) (local $pC i32) (local $pS i32) (local $pM i32) (local $pP i32) (local $pZS i32)
    ;; carried from the previous block: its last byte's class, and whether its last byte was a digit after a `.`
    (local $cD i32) (local $cC i32) (local $cS i32) (local $cM i32) (local $cP i32) (local $cZS i32) (local $cF i64)
    (local $sum i64) (local $bad i32) (local $first i32) (local $lastComma i32) (local $before i32)
    (local.set $k0 (i8x16.splat (i32.const 0x30)))
    (local.set $k10 (i8x16.splat (i32.const 10)))
    (local.set $kComma (i8x16.splat (i32.const 0x2c)))
    (local.set $kSpace (i8x16.splat (i32.const 0x20)))
    (local.set $kMinus (i8x16.splat (i32.const 0x2d)))
    (local.set $kDot (i8x16.splat (i32.const 0x2e)))
    (local.set $p (local.get $i))
    (local.set $lastComma (local.get $i))
    ;; the caller has just read a whole number: the byte before `i` counts as a digit
    (local.set $cD (i32.const 1))
    ;; and it stopped at a byte that is not a digit: only a `,` goes on from there
    (local.set $first (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $e)))
        (local.set $lo (v128.load align=1 (local.get $p)))
        (local.set $hi (v128.load offset=16 align=1 (local.get $p)))
        (local.set $D (i32.or
          (i8x16.bitmask (i8x16.lt_u (i8x16.sub (local.get $lo) (local.get $k0)) (local.get $k10)))
          (i32.shl (i8x16.bitmask (i8x16.lt_u (i8x16.sub (local.get $hi) (local.get $k0)) (local.get $k10))) (i32.const 16))))
        (local.set $C (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kComma))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kComma))) (i32.const 16))))
        (local.set $S (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kSpace))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kSpace))) (i32.const 16))))
        (local.set $M (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kMinus))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kMinus))) (i32.const 16))))
        (local.set $P (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $kDot))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $kDot))) (i32.const 16))))
        (local.set $pD (i32.or (i32.shl (local.get $D) (i32.const 1)) (local.get $cD)))
        (local.set $pC (i32.or (i32.shl (local.get $C) (i32.const 1)) (local.get $cC)))
        (local.set $pS (i32.or (i32.shl (local.get $S) (i32.const 1)) (local.get $cS)))
        (local.set $pM (i32.or (i32.shl (local.get $M) (i32.const 1)) (local.get $cM)))
        (local.set $pP (i32.or (i32.shl (local.get $P) (i32.const 1)) (local.get $cP)))
        ;; a `0` that starts a number's digits (after `,`, ` ` or `-`)
        (local.set $ZS (i32.and
          (i32.or (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $k0))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $k0))) (i32.const 16)))
          (i32.or (local.get $pC) (i32.or (local.get $pS) (local.get $pM)))))
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
              ;; the first byte is a `,`
              (i32.and (local.get $first) (i32.xor (local.get $C) (i32.const 1)))
              (i32.or
                ;; no digit after a leading `0`
                (i32.and (local.get $pZS) (local.get $D))
                ;; no `.` right after the digits that follow a `.`
                (i32.and (i32.wrap_i64 (local.get $sum)) (local.get $P))))))
        (if (local.get $bad)
          (then
            ;; the last `,` before the first bad byte (all before it is valid), else the last one before this block
            (local.set $before (i32.and (local.get $C) (i32.sub (i32.shl (i32.const 1) (i32.ctz (local.get $bad))) (i32.const 1))))
            (if (local.get $before)
              (then (return (i32.add (local.get $p) (i32.sub (i32.const 31) (i32.clz (local.get $before)))))))
            (return (local.get $lastComma))))
        (if (local.get $C)
          (then (local.set $lastComma (i32.add (local.get $p) (i32.sub (i32.const 31) (i32.clz (local.get $C)))))))
        (local.set $first (i32.const 0))
        (local.set $cD (i32.shr_u (local.get $D) (i32.const 31)))
        (local.set $cC (i32.shr_u (local.get $C) (i32.const 31)))
        (local.set $cS (i32.shr_u (local.get $S) (i32.const 31)))
        (local.set $cM (i32.shr_u (local.get $M) (i32.const 31)))
        (local.set $cP (i32.shr_u (local.get $P) (i32.const 31)))
        (local.set $cZS (i32.shr_u (local.get $ZS) (i32.const 31)))
        (local.set $cF (i64.shr_u (local.get $sum) (i64.const 32)))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $blocks)))
    (local.get $lastComma))

  ;; skipText(i, e): inside a string body, the offset of the first byte at or after `i` that is
  ;; `"`, `\`, a control character or not ASCII, looked for 16 bytes a step; where fewer than 16
  ;; bytes remain before `e` it returns the start of that rest unread. Either way the JS scanner goes
  ;; on from the returned offset (jsonSkip.ts, `skipString`), so the result is exactly its own.
  (func (export "skipText") (param $i i32) (param $e i32) (result i32)
    (local $v v128) (local $stop i32)
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $e)))
        (local.set $v (v128.load align=1 (local.get $i)))
        (local.set $stop (i8x16.bitmask (v128.or
          (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
          ;; below 0x20 (unsigned) or 0x80 and above (negative as signed bytes)
          (v128.or (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20))) (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 0)))))))
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
  (func (export "maskRun") (param $i i32) (param $e i32) (result i32)
    (local $p i32) (local $v v128) (local $Z i32) (local $O i32) (local $C i32) (local $S i32)
    (local $pZ i32) (local $pO i32) (local $pC i32) (local $pS i32)
    (local $cZ i32) (local $cO i32) (local $cC i32) (local $cS i32)
    (local $bad i32) (local $low i32) (local $before i32) (local $first i32) (local $lastComma i32) (local $n i32)
    (local.set $p (local.get $i))
    (local.set $lastComma (local.get $i))
    ;; the byte before `i` is the item the caller read: a digit, not counted here
    (local.set $cZ (i32.const 1))
    (local.set $first (i32.const 1))
    (block $end
      (loop $blocks
        (br_if $end (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $e)))
        (local.set $v (v128.load align=1 (local.get $p)))
        (local.set $O (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x31)))))
        (local.set $Z (i32.or (local.get $O) (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x30))))))
        (local.set $C (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x2c)))))
        (local.set $S (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x20)))))
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
    (local.get $lastComma)))
