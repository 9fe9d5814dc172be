;; The paired bootstrap's draws (bootstrap.ts, `drawNumerators`) in WebAssembly SIMD: mulberry32
;; four draws at a time. Source of `bootstrapDrawsWasm.ts` (`npm run build:wasm`). In JS the
;; generator's ~12 integer operations a draw took ~6 ns (43.6 M draws in a diff of two 1 000-step
;; runs: ~0.27 s of CPU); here the four lanes share them.
;;
;; numerators(m, resamples, state, bDen, cDen, scale): memory holds at 0 the m items' numerators
;; as f64 pairs (baseline, candidate), at m × 16 the resamples' deltas (f64, written), then m + 4
;; i32 indices of scratch. Each resample draws m items: the item of a draw u (mulberry32's output,
;; u32) is trunc(f64(u) × scale), scale = m × 2^-32 as bootstrap.ts computes it, the same f64
;; multiplication; the numerators are summed in draw order (f64.add, as JS adds), and the delta is
;; cn / cd − bn / bd with cd = m × cDen, bd = m × bDen given. The same bits as the JS loop. Returns
;; the generator's state after the last draw.
(module
  (memory (export "memory") 1)
  (func (export "numerators") (param $m i32) (param $resamples i32) (param $state i32) (param $bd f64) (param $cd f64) (param $scale f64) (result i32)
    (local $r i32) (local $j i32) (local $deltas i32) (local $idx i32) (local $end i32) (local $at i32)
    (local $s v128) (local $t v128) (local $step v128) (local $scaleV v128) (local $lo v128) (local $hi v128)
    (local $bn f64) (local $cn f64)
    (local.set $deltas (i32.shl (local.get $m) (i32.const 4)))
    (local.set $idx (i32.add (local.get $deltas) (i32.shl (local.get $resamples) (i32.const 3))))
    (local.set $end (i32.add (local.get $idx) (i32.shl (local.get $m) (i32.const 2))))
    (local.set $step (i32x4.splat (i32.const 0xb4ade7d4))) ;; 4 × 0x6d2b79f5 mod 2^32
    (local.set $scaleV (f64x2.splat (local.get $scale)))
    (block $done
      (loop $resample
        (br_if $done (i32.ge_u (local.get $r) (local.get $resamples)))
        ;; the next four states: state + 1..4 × 0x6d2b79f5
        (local.set $s
          (i32x4.add (i32x4.splat (local.get $state)) (v128.const i32x4 0x6d2b79f5 0xda56f3ea 0x47826ddf 0xb4ade7d4)))
        ;; m indices (rounded up to four) into the scratch
        (local.set $at (local.get $idx))
        (block $drawn
          (loop $draw
            (br_if $drawn (i32.ge_u (local.get $at) (local.get $end)))
            ;; t = imul(s ^ (s >>> 15), s | 1)
            (local.set $t
              (i32x4.mul
                (v128.xor (local.get $s) (i32x4.shr_u (local.get $s) (i32.const 15)))
                (v128.or (local.get $s) (i32x4.splat (i32.const 1)))))
            ;; t ^= t + imul(t ^ (t >>> 7), t | 61)
            (local.set $t
              (v128.xor (local.get $t)
                (i32x4.add (local.get $t)
                  (i32x4.mul
                    (v128.xor (local.get $t) (i32x4.shr_u (local.get $t) (i32.const 7)))
                    (v128.or (local.get $t) (i32x4.splat (i32.const 61)))))))
            ;; u = t ^ (t >>> 14), as f64 times scale, truncated
            (local.set $t (v128.xor (local.get $t) (i32x4.shr_u (local.get $t) (i32.const 14))))
            (local.set $lo (i32x4.trunc_sat_f64x2_u_zero (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $t)) (local.get $scaleV))))
            (local.set $hi
              (i32x4.trunc_sat_f64x2_u_zero
                (f64x2.mul
                  (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $t) (local.get $t)))
                  (local.get $scaleV))))
            (v128.store (local.get $at)
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $lo) (local.get $hi)))
            (local.set $s (i32x4.add (local.get $s) (local.get $step)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $draw)))
        (local.set $state (i32.add (local.get $state) (i32.mul (local.get $m) (i32.const 0x6d2b79f5))))
        ;; the sums, in draw order
        (local.set $bn (f64.const 0))
        (local.set $cn (f64.const 0))
        (local.set $at (local.get $idx))
        (block $summed
          (loop $sum
            (br_if $summed (i32.ge_u (local.get $at) (local.get $end)))
            (local.set $j (i32.shl (i32.load (local.get $at)) (i32.const 4)))
            (local.set $bn (f64.add (local.get $bn) (f64.load (local.get $j))))
            (local.set $cn (f64.add (local.get $cn) (f64.load offset=8 (local.get $j))))
            (local.set $at (i32.add (local.get $at) (i32.const 4)))
            (br $sum)))
        (f64.store
          (i32.add (local.get $deltas) (i32.shl (local.get $r) (i32.const 3)))
          (f64.sub (f64.div (local.get $cn) (local.get $cd)) (f64.div (local.get $bn) (local.get $bd))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $resample)))
    (local.get $state))
)
