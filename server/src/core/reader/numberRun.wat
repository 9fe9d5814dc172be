;; The hot loop of the JSON scanner in WebAssembly SIMD: validates the rest of a flat numeric array
;; (`, 123, -0.5, ...`: token ids, loss masks, log-probs) 32 bytes at a time. Source of
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
    (local.get $lastComma)))
