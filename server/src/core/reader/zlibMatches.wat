;; The match finding of zlib's level-9 deflate (its `deflate_slow` with `longest_match`), in
;; WebAssembly, for `zlibLength.ts`: miles' `has_repetition` needs the exact length of
;; `zlib.compress(tail, 9)` for every response over 10 000 characters, and the matches are where
;; that length is decided and where the time goes (BENCHMARKS.md, "Design measurements"). The
;; blocks' sizes are counted from the tokens written here by `zlibBlocks.ts`.
;;
;; The rules are zlib's, each of which changes the output (docs/semantics.md#miles-sample-metrics):
;; - every position with 3 bytes left is put on the chain of its 3-byte hash
;;   `((b0 << 10) ^ (b1 << 5) ^ b2) & 0x7fff` (15 hash bits, shift 5), newest first; position 0
;;   stands for "no position" and is never a match;
;; - lazy evaluation: a match found at a position is kept only if the next position finds no longer
;;   one; every position is searched unless the previous match is already 258 long;
;; - a search walks at most 4096 chain entries (1024 when the previous match is 32 or longer),
;;   no farther back than 32 506 bytes (the window less 262), and stops at a match of 258 or of all
;;   the bytes left; the first entry reaching the longest length wins (so the nearest);
;; - bytes past the end read as zeros (zlib's window is zeroed there), so lengths past the end
;;   count, and the result is cut to the bytes left;
;; - a 3-byte match more than 4096 bytes back is not worth it: it counts as no match.
;;
;; The whole input is in memory at once and is at most 40 000 bytes, so zlib's window never slides
;; and its hash chains are exactly the per-position chains built here first.
;;
;; Memory (10 pages): the input at 0 (zeros after it, written by the caller); the chain link of
;; position p at 40960 + 4p; the hash table at 204800, 8 bytes a hash value: the call stamp that
;; wrote it and the newest position; the tokens from 466944, 4 bytes each: distance << 8 | (length
;; - 3) for a match, the byte for a literal, bit 30 set on a literal written after the last position
;; (zlib tallies it without checking whether the block is full).
(module
  (memory (export "memory") 10)
  (global $matchStart (mut i32) (i32.const 0))

  ;; Links every position to the previous one of the same hash. `stamp` differs at each call, so
  ;; the table needs no clearing: an entry of another call reads as empty.
  (func $chains (param $n i32) (param $stamp i32)
    (local $p i32) (local $slot i32)
    (block $done
      (loop $next
        (br_if $done (i32.gt_u (i32.add (local.get $p) (i32.const 3)) (local.get $n)))
        (local.set $slot
          (i32.add (i32.const 204800)
            (i32.shl
              (i32.and
                (i32.xor
                  (i32.xor
                    (i32.shl (i32.load8_u (local.get $p)) (i32.const 10))
                    (i32.shl (i32.load8_u offset=1 (local.get $p)) (i32.const 5)))
                  (i32.load8_u offset=2 (local.get $p)))
                (i32.const 0x7fff))
              (i32.const 3))))
        (if (i32.ne (i32.load (local.get $slot)) (local.get $stamp))
          (then
            (i32.store (local.get $slot) (local.get $stamp))
            (i32.store offset=4 (local.get $slot) (i32.const 0))))
        (i32.store offset=40960 (i32.shl (local.get $p) (i32.const 2)) (i32.load offset=4 (local.get $slot)))
        (i32.store offset=4 (local.get $slot) (local.get $p))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))

  ;; zlib's `longest_match` from chain entry `q`: the longest match over `prevLen` at `p`, cut to
  ;; `lookahead`; `prevLen` when none is longer. Sets $matchStart when it finds a longer one.
  (func $longest (param $p i32) (param $q i32) (param $prevLen i32) (param $lookahead i32) (result i32)
    (local $chain i32) (local $nice i32) (local $limit i32) (local $best i32) (local $k i32) (local $x i64)
    (local $start i32) (local $end i32)
    (local.set $chain (select (i32.const 1024) (i32.const 4096) (i32.ge_u (local.get $prevLen) (i32.const 32))))
    (local.set $nice (select (local.get $lookahead) (i32.const 258) (i32.lt_u (local.get $lookahead) (i32.const 258))))
    (local.set $limit (select (i32.sub (local.get $p) (i32.const 32506)) (i32.const 0) (i32.gt_u (local.get $p) (i32.const 32506))))
    (local.set $best (local.get $prevLen))
    ;; The two bytes at best - 1 and best, and the first two, read once (zlib's scan_end and
    ;; scan_start); $end is read again whenever best grows.
    (local.set $start (i32.load16_u (local.get $p)))
    (local.set $end (i32.load16_u (i32.sub (i32.add (local.get $p) (local.get $best)) (i32.const 1))))
    (block $out
      (loop $entry
        (block $shorter
          ;; Cannot be longer unless the bytes at best and best - 1 and the first two agree (the
          ;; third agrees whenever those two do: same hash).
          (br_if $shorter (i32.ne (i32.load16_u (i32.sub (i32.add (local.get $q) (local.get $best)) (i32.const 1))) (local.get $end)))
          (br_if $shorter (i32.ne (i32.load16_u (local.get $q)) (local.get $start)))
          ;; The length: 8 bytes a step from the fourth; the first differing byte is the lowest
          ;; set byte of the difference (little-endian).
          (local.set $k (i32.const 3))
          (block $differs
            (loop $compare
              (local.set $x (i64.xor (i64.load (i32.add (local.get $p) (local.get $k)))
                                     (i64.load (i32.add (local.get $q) (local.get $k)))))
              (if (i64.ne (local.get $x) (i64.const 0))
                (then
                  (local.set $k (i32.add (local.get $k) (i32.shr_u (i32.wrap_i64 (i64.ctz (local.get $x))) (i32.const 3))))
                  (br $differs)))
              (local.set $k (i32.add (local.get $k) (i32.const 8)))
              (br_if $compare (i32.lt_u (local.get $k) (i32.const 258)))))
          (if (i32.gt_u (local.get $k) (i32.const 258)) (then (local.set $k (i32.const 258))))
          (if (i32.gt_u (local.get $k) (local.get $best))
            (then
              (global.set $matchStart (local.get $q))
              (local.set $best (local.get $k))
              (br_if $out (i32.ge_u (local.get $k) (local.get $nice)))
              (local.set $end (i32.load16_u (i32.sub (i32.add (local.get $p) (local.get $best)) (i32.const 1)))))))
        (local.set $q (i32.load offset=40960 (i32.shl (local.get $q) (i32.const 2))))
        (br_if $out (i32.le_u (local.get $q) (local.get $limit)))
        (local.set $chain (i32.sub (local.get $chain) (i32.const 1)))
        (br_if $entry (local.get $chain))))
    (select (local.get $best) (local.get $lookahead) (i32.le_u (local.get $best) (local.get $lookahead))))

  ;; zlib's `deflate_slow` over the `n` bytes at 0: writes the tokens, returns how many.
  (func (export "parse") (param $n i32) (param $stamp i32) (result i32)
    (local $pos i32) (local $lookahead i32) (local $matchLength i32) (local $prevLength i32) (local $prevMatch i32)
    (local $pending i32) (local $head i32) (local $count i32)
    (call $chains (local.get $n) (local.get $stamp))
    (local.set $lookahead (local.get $n))
    (local.set $matchLength (i32.const 2))
    (global.set $matchStart (i32.const 0))
    (block $end
      (loop $step
        (br_if $end (i32.eqz (local.get $lookahead)))
        (local.set $head
          (select (i32.load offset=40960 (i32.shl (local.get $pos) (i32.const 2))) (i32.const 0)
                  (i32.ge_u (local.get $lookahead) (i32.const 3))))
        (local.set $prevLength (local.get $matchLength))
        (local.set $prevMatch (global.get $matchStart))
        (local.set $matchLength (i32.const 2))
        (if (i32.and
              (i32.and (i32.ne (local.get $head) (i32.const 0)) (i32.lt_u (local.get $prevLength) (i32.const 258)))
              (i32.le_u (i32.sub (local.get $pos) (local.get $head)) (i32.const 32506)))
          (then
            (local.set $matchLength (call $longest (local.get $pos) (local.get $head) (local.get $prevLength) (local.get $lookahead)))
            (if (i32.and (i32.eq (local.get $matchLength) (i32.const 3))
                         (i32.gt_u (i32.sub (local.get $pos) (global.get $matchStart)) (i32.const 4096)))
              (then (local.set $matchLength (i32.const 2))))))
        (if (i32.and (i32.ge_u (local.get $prevLength) (i32.const 3)) (i32.le_u (local.get $matchLength) (local.get $prevLength)))
          (then
            ;; The previous position's match stands: it starts at pos - 1.
            (i32.store offset=466944 (i32.shl (local.get $count) (i32.const 2))
              (i32.or (i32.shl (i32.sub (i32.sub (local.get $pos) (i32.const 1)) (local.get $prevMatch)) (i32.const 8))
                      (i32.sub (local.get $prevLength) (i32.const 3))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $lookahead (i32.sub (local.get $lookahead) (i32.sub (local.get $prevLength) (i32.const 1))))
            (local.set $pos (i32.add (local.get $pos) (i32.sub (local.get $prevLength) (i32.const 1))))
            (local.set $pending (i32.const 0))
            (local.set $matchLength (i32.const 2)))
          (else
            ;; The byte before, held back a step in case this position matched longer, is a literal.
            (if (local.get $pending)
              (then
                (i32.store offset=466944 (i32.shl (local.get $count) (i32.const 2))
                  (i32.load8_u (i32.sub (local.get $pos) (i32.const 1))))
                (local.set $count (i32.add (local.get $count) (i32.const 1))))
              (else (local.set $pending (i32.const 1))))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $lookahead (i32.sub (local.get $lookahead) (i32.const 1)))))
        (br $step)))
    (if (local.get $pending)
      (then
        (i32.store offset=466944 (i32.shl (local.get $count) (i32.const 2))
          (i32.or (i32.load8_u (i32.sub (local.get $pos) (i32.const 1))) (i32.const 0x40000000)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))))
    (local.get $count))
)
