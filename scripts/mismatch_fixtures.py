"""Train-inference mismatch fixtures (docs/framework-files.md#train-data), miles main 31f1ca9: a
`--dump-details D` folder written by miles' own functions, imported by gen-real-fixtures.py
(`--only-mismatch`), which sets up the miles import path and its stubs first.

Writes test/fixtures/real/miles/mismatch/:
- rollout_data/{3,4}.pt: save_debug_rollout_data of the step's samples;
- train_data/3_{0,1}.pt: step 3 over two data-parallel ranks (cp_size 1), split by miles'
  split_train_data_by_dp_raw and process_rollout_data_shard; train_data/4_{0,1}.pt: step 4 over
  two context-parallel ranks of one data-parallel rank (cp_size 2), each holding its zigzag slice
  (slice_log_prob_with_cp) of every per-token field. Both through save_debug_train_data_for_rank
  with `rollout_data` as the Megatron actor holds it at the dump (get_rollout_data's tensors:
  tokens int64, loss_masks int32, rollout_mask_sums float32, rollout_log_probs float32; then the
  actor's log_probs, ref_log_probs, entropy, advantages and returns from get_grpo_returns);
- metrics.jsonl: what miles logs for each step, as its dashboard's metrics log holds it: the
  `rollout/*` figures of log_rollout_data (each rank's log_dict reduced by miles'
  reduce_gathered_log_dict, as gather_log_data does) and `train/train_rollout_logprob_abs_diff`,
  `train/train_rollout_kl` as policy_loss_function computes them (compute_approx_kl low_var_kl,
  get_sum_of_sample_mean with rollout_mask_sums, get_local_response_loss_masks), summed over
  ranks as the all-reduce does and reduced by aggregate_train_losses and log_train_step;
- expected.json: those figures, and the mismatch per token and per sample computed here with
  numpy from torch.load of the same files (|train - rollout| in float32 where the loss mask is 1).

The samples hold what must not count: tool-output spans outside the loss mask where the trainer's
log-prob is 15 nats off, a sample whose mask is all zeros, a token whose rollout log-prob is -inf
(miles' nan_to_num makes its |diff| 0, its KL 10 through the log-ratio clamp), one 3 nats off
(KL clamped to 10), one 25 nats off, one NaN, and two samples of one rollout (rollout_mask_sums).
"""
import json
import os
from argparse import Namespace
from types import SimpleNamespace

import numpy as np
import torch


def state(cp_rank=0, cp_size=1, dp_size=1):
    return SimpleNamespace(
        tp=SimpleNamespace(rank=0, size=1), cp=SimpleNamespace(rank=cp_rank, size=cp_size),
        intra_dp=SimpleNamespace(size=dp_size), is_pp_last_stage=True,
        effective_dp_cp=SimpleNamespace(groups_inner_to_outer=[], rank=0, size=dp_size * cp_size))


def use_state(s):
    from miles.backends.training_utils import cp_utils, log_utils
    cp_utils.get_parallel_state = lambda: s
    log_utils.get_parallel_state = lambda: s


def samples_of(step, n, special):
    """miles Samples with per-token log-probs: (sample, trainer log_probs, ref log_probs, entropy)."""
    from miles.utils.types import Sample
    g = torch.Generator().manual_seed(step)
    out = []
    for i in range(n):
        p, r = 4 + (i * 3) % 5, 7 + (i * 5) % 9
        tokens = torch.randint(3, 150000, (p + r,), generator=g).tolist()
        mask = [1] * r
        for k in range(r // 3, r // 3 + 2):  # a tool output: outside the loss
            mask[k] = 0
        rollout = (-torch.rand(r, generator=g) * 3).to(torch.float32)
        train = (rollout + torch.randn(r, generator=g) * 0.02 * (1 + i)).to(torch.float32)
        for k in range(r):
            if mask[k] == 0:
                train[k] = rollout[k] - 15.0
        ref = (rollout + torch.randn(r, generator=g) * 0.05).to(torch.float32)
        entropy = (torch.rand(r, generator=g) * 2).to(torch.float32)
        special(i, mask, rollout, train)
        index = step * 100 + i
        versions = [str(step)] if i % 3 else [str(step - 1), str(step)]
        s = Sample(group_index=step * 100 + i // 2, index=index, prompt=f"problem {step * 100 + i // 2}", tokens=tokens,
                   response=f"answer {index}", response_length=r, reward=float(i % 2), loss_mask=mask,
                   rollout_log_probs=rollout.tolist(), weight_versions=versions, status=Sample.Status.COMPLETED)
        out.append((s, train, ref, entropy))
    return out


def special_3(i, mask, rollout, train):
    if i == 0:
        train[1] = rollout[1] + 3.0  # KL 16.1: clamped to 10
    if i == 1:
        rollout[0] = float("-inf")  # |diff| inf → 0; log-ratio +inf → 20 → KL 10
    if i == 2:
        train[0] = rollout[0] + 25.0  # log-ratio clamped to 20, KL to 10
    if i == 4:
        train[1] = float("nan")
    if i == 5:
        mask[:] = [0] * len(mask)


def special_4(i, mask, rollout, train):
    if i == 1:
        train[len(mask) - 1] = rollout[len(mask) - 1] - 2.5


def train_side(args, triples, rollout_ids):
    """What convert_samples_to_train_data hands the actor (the fields this run has)."""
    from miles.ray.rollout.train_data_conversion import _compute_rollout_mask_sums
    samples = [t[0] for t in triples]
    data = {
        "tokens": [s.tokens for s in samples],
        "response_lengths": [s.response_length for s in samples],
        "rewards": [s.reward for s in samples],
        "raw_reward": [s.reward for s in samples],
        "truncated": [0 for _ in samples],
        "sample_indices": [s.index for s in samples],
        "rollout_ids": rollout_ids,
        "loss_masks": [s.loss_mask for s in samples],
        "rollout_log_probs": [s.rollout_log_probs for s in samples],
        "weight_versions": [s.weight_versions for s in samples],
    }
    data["rollout_mask_sums"] = _compute_rollout_mask_sums(rollout_ids, data["loss_masks"])
    return data


def actor_view(shard, by_index, cp_rank, cp_size):
    """get_rollout_data's tensors for one rank, then the actor's forward results (its CP slice)."""
    from miles.backends.training_utils.cp_utils import slice_log_prob_with_cp
    from miles.backends.training_utils.loss_hub.math_utils import get_grpo_returns
    use_state(state(cp_rank, cp_size))
    rd = dict(shard)
    rd["tokens"] = [torch.tensor(t, dtype=torch.long) for t in rd["tokens"]]
    rd["loss_masks"] = [torch.tensor(t, dtype=torch.int) for t in rd["loss_masks"]]
    rd["rollout_mask_sums"] = torch.tensor(rd["rollout_mask_sums"], dtype=torch.float32)
    lengths = list(zip(rd["total_lengths"], rd["response_lengths"]))

    def sliced(values):
        return [torch.as_tensor(slice_log_prob_with_cp(v, t, r, "thd", None), dtype=torch.float32) for v, (t, r) in zip(values, lengths)]

    rd["rollout_log_probs"] = sliced(rd["rollout_log_probs"])
    rd["log_probs"] = sliced([by_index[i][1] for i in rd["sample_indices"]])
    rd["ref_log_probs"] = sliced([by_index[i][2] for i in rd["sample_indices"]])
    rd["entropy"] = sliced([by_index[i][3] for i in rd["sample_indices"]])
    kl = [lp - ref for lp, ref in zip(rd["log_probs"], rd["ref_log_probs"])]
    rd["advantages"] = get_grpo_returns(torch.tensor(rd["rewards"]), kl)
    rd["returns"] = get_grpo_returns(torch.tensor(rd["rewards"]), kl)
    return rd


def logged_rollout(args, step, ranks):
    """log_rollout_data on each rank, gathered and reduced as gather_log_data does."""
    from miles.backends.training_utils import log_utils
    gathered = []
    before = log_utils.gather_log_data
    log_utils.gather_log_data = lambda name, a, rid, d, reduction_by_key=None: gathered.append(d)
    try:
        for rd, s in ranks:
            use_state(s)
            log_utils.log_rollout_data(step, args, rd)
    finally:
        log_utils.gather_log_data = before
    reduced = log_utils.reduce_gathered_log_dict(gathered, len(gathered))
    return {f"rollout/{k}": v for k, v in reduced.items()}


def logged_train(args, step, ranks, num_rollouts):
    """policy_loss_function's two mismatch figures per rank, all-reduced, aggregated and named by miles."""
    from miles.backends.training_utils import cp_utils, log_utils
    from miles.backends.training_utils.loss_hub import math_utils
    approx_kl = getattr(math_utils.compute_approx_kl, "_torchdynamo_orig_callable", None) or math_utils.compute_approx_kl.__wrapped__
    total = None
    for rd, s in ranks:
        use_state(s)
        tl, rl, masks = rd["total_lengths"], rd["response_lengths"], rd["loss_masks"]
        ssm = cp_utils.get_sum_of_sample_mean(tl, rl, masks, False, "thd", None, denominators=rd["rollout_mask_sums"])
        active = torch.cat(cp_utils.get_local_response_loss_masks(tl, rl, masks, "thd", None), dim=0).bool()
        train, rollout = torch.cat(rd["log_probs"]), torch.cat(rd["rollout_log_probs"])
        abs_diff = (train - rollout).abs()
        abs_diff = torch.where(active, torch.nan_to_num(abs_diff, nan=0.0, posinf=0.0, neginf=0.0), abs_diff.new_zeros(()))
        kl = approx_kl(rollout, train, kl_loss_type="low_var_kl")
        kl = torch.where(active, torch.nan_to_num(kl, nan=0.0, posinf=0.0, neginf=0.0), kl.new_zeros(()))
        values = torch.tensor([len(rl), ssm(abs_diff).item(), ssm(kl).item()], dtype=torch.float32)
        total = values if total is None else total + values  # the all-reduce (SUM)
    use_state(state(0, ranks[0][1].cp.size))
    loss = log_utils.aggregate_train_losses([{"keys": ["train_rollout_logprob_abs_diff", "train_rollout_kl"], "values": total}], num_rollouts)
    logged = log_utils.log_train_step(args, loss, 0.0, step, 0, 1, should_log=False)
    return {k: v for k, v in logged.items() if k in ("train/train_rollout_logprob_abs_diff", "train/train_rollout_kl")}


def mismatch_expected(files):
    """|train - rollout| per token where the loss mask is 1, from torch.load of the step's files."""
    from miles.backends.training_utils.cp_utils import get_logits_and_tokens_offset_with_cp
    per_sample, tokens, seen = {}, [], set()
    non_finite = 0
    for path in files:
        pack = torch.load(path, map_location="cpu", weights_only=True)
        rd, cp_rank, cp_size = pack["rollout_data"], pack["cp_rank"], pack["cp_size"]
        for row, index in enumerate(rd["sample_indices"]):
            if (index, cp_rank) in seen:
                continue
            seen.add((index, cp_rank))
            t, r = rd["total_lengths"][row], rd["response_lengths"][row]
            if cp_size == 1:
                positions = list(range(r))
            else:
                _, _, logits, _ = get_logits_and_tokens_offset_with_cp(t, r, "thd", None, cp_rank=cp_rank, cp_size=cp_size)
                positions = [k - (t - r - 1) for lo, hi in logits for k in range(lo, hi)]
            mask = rd["loss_masks"][row].numpy()
            diff = np.abs((rd["log_probs"][row] - rd["rollout_log_probs"][row]).numpy()).astype(np.float64)
            acc = per_sample.setdefault(int(index), [0.0, int(mask.sum()), 0.0])
            for k, pos in enumerate(positions):
                if mask[pos] != 1:
                    continue
                if not np.isfinite(diff[k]):
                    non_finite += 1
                    continue
                acc[0] += diff[k]
                acc[2] = max(acc[2], diff[k])
                tokens.append((float(diff[k]), int(index), pos, int(rd["tokens"][row][t - r + pos]),
                               float(rd["rollout_log_probs"][row][k]), float(rd["log_probs"][row][k])))
    values = np.array([x[0] for x in tokens], dtype=np.float64)
    samples = sorted(((s / max(n, 1), i, n, m) for i, (s, n, m) in per_sample.items()), key=lambda x: (-x[0], x[1]))
    worst_tokens = sorted(tokens, key=lambda x: (-x[0], x[1], x[2]))[:5]
    return {
        "tokens": len(tokens), "nonFinite": non_finite, "mean": float(values.mean()),
        "p50": float(np.percentile(values, 50)), "p99": float(np.percentile(values, 99)), "max": float(values.max()),
        "worstSamples": [{"sample": i, "mean": m, "tokens": n, "max": mx} for m, i, n, mx in samples[:5]],
        "worstTokens": [{"sample": i, "position": p, "token": tok, "rolloutLogProb": a, "trainLogProb": b, "absDiff": d}
                        for d, i, p, tok, a, b in worst_tokens],
    }


def drift_all(out_dir, steps=9, drift_from=6, n=4, expected=True):
    """A run of `steps` steps (one rank each) whose mismatch drifts from step `drift_from` on (None:
    never), only in the samples with mixed weight versions: the trainer's log-probs of those are 0.5
    nats noisier. Sample 1 of each step is one version behind but not mixed (it does not drift).
    Every draw is made whatever drift_from is, so two runs differ only in that noise."""
    from miles.ray.rollout import debug_data
    from miles.ray.rollout.train_data_conversion import process_rollout_data_shard, split_train_data_by_dp_raw
    from miles.utils.types import Sample
    from miles.utils.train_dump_utils import save_debug_train_data_for_rank

    args = Namespace(
        save_debug_rollout_data=os.path.join(out_dir, "rollout_data", "{rollout_id}.pt"), save_debug_trajectory_data=None,
        save_debug_train_data=os.path.join(out_dir, "train_data", "{rollout_id}_{rank}.pt"), qkv_format="thd", balance_data=False)
    g = torch.Generator().manual_seed(7)
    for step in range(steps):
        triples = []
        for i in range(n):
            r = 8 + (i * 3) % 5
            mask = [1] * r
            rollout = (-torch.rand(r, generator=g) * 3).to(torch.float32)
            mixed = i % 4 in (2, 3)
            noise = 0.02 + (0.5 if mixed and drift_from is not None and step >= drift_from else 0.0)
            train = (rollout + torch.randn(r, generator=g) * noise).to(torch.float32)
            versions = [str(step - 1), str(step)] if mixed else [str(step - 1)] if i % 4 == 1 else [str(step)]
            index = step * 100 + i
            s = Sample(group_index=step * 100 + i // 2, index=index, prompt=f"problem {step * 100 + i // 2}",
                       tokens=torch.randint(3, 150000, (4 + r,), generator=g).tolist(), response=f"answer {index}",
                       response_length=r, reward=float(i % 2), loss_mask=mask, rollout_log_probs=rollout.tolist(),
                       weight_versions=versions, status=Sample.Status.COMPLETED)
            triples.append((s, train, rollout.clone(), torch.zeros(r)))
        by_index = {t[0].index: t for t in triples}
        debug_data.save_debug_rollout_data(args, [t[0] for t in triples], rollout_id=step, evaluation=False)
        data = train_side(args, triples, [t[0].index for t in triples])
        shard = process_rollout_data_shard(args, split_train_data_by_dp_raw(args, data, dp_size=1)[0])
        rd = actor_view(shard, by_index, 0, 1)
        save_debug_train_data_for_rank(args, rollout_id=step, rollout_data=rd, rank=0)
    if not expected:
        return
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump({"writer": "miles main 31f1ca9: save_debug_rollout_data, save_debug_train_data_for_rank (scripts/mismatch_fixtures.py drift_all)",
                   "steps": steps, "drift_from": drift_from, "drifting": "samples with mixed weight_versions"}, f, indent=1, sort_keys=True)
        f.write("\n")


def gate_pair(out_dir, steps=3, drift_from=2):
    """Two runs for `diff --gate` (docs/compare.md#gate): baseline/ and candidate/ are drift_all's
    run of `steps` steps with the same draws; the candidate's mixed-version samples drift from step
    `drift_from` on, the baseline's never. expected.json: each side's per-step mismatch (mean, p99)
    from torch.load of its train_data."""
    figures = {}
    for side, start in (("baseline", None), ("candidate", drift_from)):
        d = os.path.join(out_dir, side)
        drift_all(d, steps=steps, drift_from=start, expected=False)
        figures[side] = {}
        for step in range(steps):
            m = mismatch_expected([os.path.join(d, "train_data", f"{step}_0.pt")])
            figures[side][str(step)] = {"mean": m["mean"], "p99": m["p99"], "tokens": m["tokens"],
                                        "worstSample": m["worstSamples"][0]["sample"]}
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump({"writer": "miles main 31f1ca9: save_debug_rollout_data, save_debug_train_data_for_rank (scripts/mismatch_fixtures.py gate_pair)",
                   "steps": steps, "drift_from": drift_from, "drifting": "the candidate's samples with mixed weight_versions",
                   "mismatch": figures}, f, indent=1, sort_keys=True)
        f.write("\n")


def strict(v):
    """Strict JSON for expected.json: NaN and the infinities as Python's repr, in a string."""
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    if isinstance(v, dict):
        return {k: strict(x) for k, x in v.items()}
    if isinstance(v, list):
        return [strict(x) for x in v]
    return v


def mismatch_all(out_dir):
    from miles.backends.training_utils.cp_utils import get_logits_and_tokens_offset_with_cp  # noqa: F401
    from miles.ray.rollout import debug_data
    from miles.ray.rollout.train_data_conversion import process_rollout_data_shard, split_train_data_by_dp_raw
    from miles.utils.train_dump_utils import save_debug_train_data_for_rank

    args = Namespace(
        save_debug_rollout_data=os.path.join(out_dir, "rollout_data", "{rollout_id}.pt"),
        save_debug_trajectory_data=None,
        save_debug_train_data=os.path.join(out_dir, "train_data", "{rollout_id}_{rank}.pt"),
        qkv_format="thd", balance_data=False, ci_test=False, log_multi_turn=False, log_correct_samples=False,
        wandb_always_use_train_step=False)
    expected, records = {}, []
    for step, n, special, dp, cp in ((3, 6, special_3, 2, 1), (4, 4, special_4, 1, 2)):
        triples = samples_of(step, n, special)
        by_index = {t[0].index: t for t in triples}
        debug_data.save_debug_rollout_data(args, [t[0] for t in triples], rollout_id=step, evaluation=False)
        rollout_ids = [t[0].index for t in triples]
        if step == 3:
            rollout_ids[3] = rollout_ids[2]  # two samples of one rollout (compact): rollout_mask_sums
        data = train_side(args, triples, rollout_ids)
        shards = [process_rollout_data_shard(args, s) for s in split_train_data_by_dp_raw(args, data, dp_size=dp)]
        ranks, files = [], []
        for dp_rank, shard in enumerate(shards):
            for cp_rank in range(cp):
                rank = dp_rank * cp + cp_rank
                rd = actor_view(shard, by_index, cp_rank, cp)
                save_debug_train_data_for_rank(args, rollout_id=step, rollout_data=rd, rank=rank, cp_rank=cp_rank, cp_size=cp)
                ranks.append((rd, state(cp_rank, cp, dp)))
                files.append(os.path.join(out_dir, "train_data", f"{step}_{rank}.pt"))
        rollout = logged_rollout(args, step, ranks)
        train = logged_train(args, step, ranks, num_rollouts=len(set(rollout_ids)))
        records.append({"ts": 1764460000.0 + step, "step_key": "rollout/step", "step": step, "metrics": rollout})
        records.append({"ts": 1764460000.5 + step, "step_key": "train/step", "step": step, "metrics": train})
        expected[str(step)] = {"metrics": {**rollout, **train}, "mismatch": mismatch_expected(files), "dp": dp, "cp": cp}
    with open(os.path.join(out_dir, "metrics.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump(strict({"writer": "miles main 31f1ca9: save_debug_rollout_data, save_debug_train_data_for_rank; figures by "
                             "log_rollout_data, policy_loss_function's lines, aggregate_train_losses (scripts/mismatch_fixtures.py)",
                   "steps": expected}), f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
