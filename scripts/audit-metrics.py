#!/usr/bin/env python3
"""Random cases through miles' and verl's own metric and filter functions, for scripts/audit-metrics.mjs
to compare with the engine (docs/framework-files.md, "Random cases against the frameworks' functions").

  /tmp/stock-venv/bin/python scripts/audit-metrics.py <verl extraction> <miles extraction> <out dir> <cases> <seed> [<slime extraction>]

It needs what scripts/gen-real-fixtures.py needs, safetensors included (its docstring). The extractions are
those of gen-real-fixtures.py, whose stubs this script loads (only what
is not a writer or a metric function is stubbed). Per case it writes the file the framework's writer
writes and, beside it (`.json`), what the framework's functions returned or raised:
- miles rollout (`miles/rollout/case<N>.jsonl`): `Sample.to_dict()` lines; `log_rollout_data`'s
  metrics over every sample and over the samples of groups without an aborted member (the engine's
  model: check_no_aborted runs first), and `check_no_aborted` / `check_reward_nonzero_std`'s drops
  (and how many groups the latter raised on: a null reward);
- miles eval (`miles/eval/eval_<N>.jsonl`): `log_eval_rollout_data`'s metrics with the dataset's n;
- both also as miles' own `.pt` dump of the same samples (`save_debug_rollout_data`:
  `miles/rollout_data/<N>.pt`, `eval_<N>.pt`), checked against the same figures;
- verl legacy validation (`verl/validation/<N>.jsonl`): `_dump_generations`' file and
  `_val_metrics_update`'s mean@ / std@ figures with one data source for every row (the dump has none).
- miles stock configurations (`miles/stock-eval/`, `miles/stock-rollout/`): dict (`rm_type dapo`) and bool
  rewards under random reward keys, eval datasets with `metadata_overrides` (the config beside the
  case), rollouts with `--log-passrate` and what `check_reward_nonzero_std` raised per group;
- verl legacy training (`verl/rollout/<N>.jsonl`): the batch reordered by `_balance_batch` and dumped
  by `_log_rollout_data`; `compute_data_metrics`' critic/score/* and response/aborted_ratio, or what
  it raised (a step whose every response is empty).
- slime (with its extraction; `slime/rollout/case<N>.jsonl`, `slime/eval/eval_<N>.jsonl` and slime's own
  `.pt` dumps `slime/rollout_data/`): slime's `log_rollout_data` over every sample (slime has no
  aborted-group filter), `check_reward_nonzero_std`'s drops (1e-6) and `log_eval_rollout_data`.
- compact / sub-agent rollouts (scripts/audit_compact.py): miles steps made by miles' own agentic generation
  (session server v2) with random fan-out (`miles/compact/`: `log_rollout_data`'s figures, pass@k by rollout,
  what `convert_samples_to_train_data` raised), miles eval datasets through miles' eval path
  (`miles/compact-eval/`), and slime steps and eval datasets of fanned-out rollouts (`slime/compact/`,
  `slime/compact-eval/`).
- verl legacy training with responses of only an end token (`verl/rollout-end-token/<N>.jsonl`):
  `compute_data_metrics` on the step, and on the same batch with every empty output aborted.
Rewards, statuses, response lengths, loss masks, weight versions, cache counts and group sizes are
drawn per case from a seeded generator, so a case is reproduced by its seed.
"""
import importlib.util
import json
import logging
import os
import random
import shutil
import sys
import tempfile
from types import SimpleNamespace
from unittest import mock

VERL, MILES, OUT, CASES, SEED = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
SLIME = sys.argv[6] if len(sys.argv) > 6 else None
# gen-real-fixtures.py reads its own arguments when it is loaded: the two extractions.
sys.argv = [sys.argv[0], VERL, MILES]
_spec = importlib.util.spec_from_file_location("gen", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-real-fixtures.py"))
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

import numpy as np  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import audit_compact  # noqa: E402
from miles.ray.rollout import debug_data, metrics as mm  # noqa: E402
from miles.rollout.filter_hub.dynamic_sampling_filters import check_no_aborted, check_reward_nonzero_std  # noqa: E402
from miles.utils.types import Sample  # noqa: E402
import torch  # noqa: E402
from verl.trainer.ppo import metric_utils  # noqa: E402

logging.disable(logging.CRITICAL)  # miles warns about null rewards on every such case

MILES_REWARDS = [0.0, 1.0, 0.0, 1.0, 1, 0, 0.5, 0.25, None, -1.0, 0.1, 0.3, 0.7, 2.0, 0.05, 0.15, 0.95,
                 float("nan"), float("inf"), 1e-9, -0.0]
VERSIONS = [["3"], ["3"], ["3", "4"], [], [3], ["x"], ["3", 3], ["10", "9"], ["007"]]
VERL_REWARDS = [0.0, 1.0, 1.0, 0.0, 0.5, -1.0, 0.25, 0.1, 0.3, 2.0, 1e-9, 0.7]

args = gen.miles_args()
slime_logged = None  # what slime's tracking was handed (gen.slime_capture), with a slime extraction
logged = {}
mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))


def miles_sample(rng, i, group, prompt, palette):
    status = rng.choices(["completed", "truncated", "aborted"], [70, 15, 15])[0]
    reward = None if (status == "aborted" and rng.random() < 0.7) else rng.choice(palette)
    response = "".join(rng.choice("abcxyz ") for _ in range(rng.randint(0, 30)))
    s = Sample(group_index=group, index=i, prompt=prompt, response=response, response_length=len(response), label="x",
               reward=reward, status=Sample.Status(status), weight_versions=list(rng.choice(VERSIONS)))
    s.tokens = list(range(4 + len(response)))
    m = rng.random()
    s.loss_mask = None if m < 0.1 else ([1] * len(response) if m < 0.6 else [rng.randint(0, 1) for _ in response])
    cached = rng.randint(0, 9)
    s.prefix_cache_info.cached_tokens, s.prefix_cache_info.total_prompt_tokens = cached, cached + rng.randint(0, 9)
    return s


def outcome(call):
    """What a logging call logged (its return value, or what it handed to tracking), or what it raised."""
    logged.clear()
    try:
        out = call()
        return {"metrics": out if out is not None else dict(logged), "crash": None}
    except Exception as e:  # noqa: BLE001 - the framework's own exception is the expected value
        return {"metrics": None, "crash": f"{type(e).__name__}: {e}"}


def write_case(name, samples, expected):
    os.makedirs(os.path.join(OUT, os.path.dirname(name)), exist_ok=True)
    with open(os.path.join(OUT, f"{name}.jsonl"), "w") as f:
        for s in samples:
            f.write(json.dumps(s.to_dict()) + "\n")
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(expected, f, allow_nan=True)


def save_dump(data, case, evaluation):
    """The same samples as miles' own `.pt` dump: `miles/rollout_data/<case>.pt`, `eval_<case>.pt`."""
    args.save_debug_rollout_data = os.path.join(OUT, "miles", "rollout_data", "{rollout_id}.pt")
    with mock.patch("builtins.print"):
        debug_data.save_debug_rollout_data(args, data, rollout_id=case, evaluation=evaluation)


def miles_case(case, rng):
    palette = rng.sample(MILES_REWARDS, rng.randint(1, 6))
    if rng.random() < 0.2:
        # Rewards a hair apart: standard deviations on both sides of check_reward_nonzero_std's 1e-8.
        base, step = rng.choice([0.0, 0.3, 1.0]), rng.choice([3e-9, 7e-9, 1.2e-8, 3e-8])
        palette = [base + k * step for k in range(rng.randint(2, 3))]
    kind = rng.choice(["rollout", "eval"])
    n = rng.randint(1, rng.choice([3, 6, 16]))
    groups = rng.randint(1, rng.choice([3, 8, 40]))
    samples = []
    for g in range(groups):
        # Eval groups are whole (the engine is told no n, and infers it from them); some rollout groups are not.
        size = n if kind == "eval" or rng.random() < 0.85 else rng.randint(1, 6)
        for _ in range(size):
            samples.append(miles_sample(rng, len(samples), g if kind == "rollout" else None, f"prompt {case} {g}", palette))
    if kind == "eval":
        args.log_passrate, args.n_samples_per_eval_prompt = True, n
        truncated = [s.status == Sample.Status.TRUNCATED for s in samples]
        data = {f"eval_{case}": {"rewards": [s.reward for s in samples], "truncated": truncated, "samples": samples}}
        expected = outcome(lambda: mm.log_eval_rollout_data(100, args, data))
        write_case(f"miles/eval/eval_{case}", samples, {"kind": "eval", "n": n, **expected})
        save_dump(data, case, evaluation=True)
        return
    drops, filter_crashes = {}, 0
    for g in range(groups):
        members = [s for s in samples if s.group_index == g]
        for check in (check_no_aborted, check_reward_nonzero_std):
            try:
                o = check(args, members)
            except TypeError:
                # torch.tensor([..., None]) in check_reward_nonzero_std: the engine keeps such a
                # group ("a group holding a null reward is never zero-std", rollout/filters.ts).
                filter_crashes += 1
                break
            if not o.keep:
                drops[o.reason] = drops.get(o.reason, 0) + 1
                break
    args.log_passrate = False
    expected = outcome(lambda: mm.log_rollout_data(1, args, samples, {}, 10.0))
    aborted = {s.group_index for s in samples if s.status == Sample.Status.ABORTED}
    kept = [s for s in samples if s.group_index not in aborted]
    without_aborted = outcome(lambda: mm.log_rollout_data(1, args, kept, {}, 10.0))["crash"] if kept else None
    save_dump(samples, case, evaluation=False)
    write_case(f"miles/rollout/case{case}", samples,
               {"kind": "rollout", "n": n, **expected, "drops": drops, "filter_crashes": filter_crashes,
                "crash_without_aborted_groups": without_aborted})


def stock_reward(rng, kind, status):
    """A reward as a stock miles configuration gives it: `rm_type dapo`'s dict, a bare bool, or a
    number or None (the earlier kinds' palette)."""
    if kind == "dict":
        acc = rng.random() < 0.5
        return {"score": 1.0 if acc else -1.0, "acc": acc, "pred": rng.choice(["1", "2"])}
    if kind == "bool":
        return None if (status == "completed" and rng.random() < 0.05) else rng.random() < 0.5
    return rng.choice([True, False, 1.0, 0.0, 1, 0.5, None])


def miles_stock_case(case, rng):
    """Stock configurations (docs/framework-files.md, "Stock configurations"): dict (`rm_type dapo`)
    and bool rewards under random --reward-key / --eval-reward-key; eval datasets with
    metadata_overrides (the config written beside the case); rollouts with --log-passrate and the
    zero-std filter (what it raised per group, a null reward among them)."""
    from miles.utils.eval_config import EvalDatasetConfig

    sargs = gen.miles_args()  # its own: the earlier kinds' `args` keep their keys

    kind = rng.choice(["dict", "bool", "mixed"])
    if rng.random() < 0.5:
        samples, specs, data, expected_metrics = [], [], {}, {}
        reward_key = rng.choice([None, "score", "acc"]) if kind == "dict" else None
        eval_key = rng.choice(["acc", "score"]) if kind == "dict" else None
        sargs.reward_key, sargs.eval_reward_key, sargs.log_passrate = reward_key, eval_key, True
        crash = None
        for d in range(rng.randint(1, 3)):
            n = rng.randint(1, 5)
            overrides = {"dataset": f"recorded {d}"} if rng.random() < 0.6 else {}
            cfg = EvalDatasetConfig(name=f"ds{case}_{d}", path="/data/x.jsonl", n_samples_per_eval_prompt=n, metadata_overrides=overrides)
            specs.append(cfg)
            part = []
            for p in range(rng.randint(1, 5)):
                for _ in range(n):
                    status = rng.choices(["completed", "truncated", "aborted"], [80, 10, 10] if kind != "dict" else [85, 15, 0])[0]
                    s = miles_sample(rng, len(part), None, f"prompt {case} {d} {p}", [0.0])
                    s.status, s.reward = Sample.Status(status), stock_reward(rng, kind, status)
                    s.metadata = cfg.inject_metadata(s.metadata)
                    part.append(s)
            key = eval_key or reward_key
            data[cfg.name] = {"rewards": [s.reward if not key else s.reward[key] for s in part],
                              "truncated": [s.status == Sample.Status.TRUNCATED for s in part], "samples": part}
            sargs.n_samples_per_eval_prompt = n
            o = outcome(lambda: mm.log_eval_rollout_data(100, sargs, {cfg.name: data[cfg.name]}))
            crash = crash or o["crash"]
            if o["metrics"] is not None:
                expected_metrics.update({k: v for k, v in o["metrics"].items() if k != "eval/step"})
            samples.extend(part)
        folder = os.path.join(OUT, "miles", "stock-eval")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"eval_config_{case}.yaml"), "w") as f:
            f.write("eval:\n  datasets:\n")
            for cfg in specs:
                f.write(f"    - name: {json.dumps(cfg.name)}\n      path: x\n      n_samples_per_eval_prompt: {cfg.n_samples_per_eval_prompt}\n")
                if cfg.metadata_overrides:
                    f.write(f"      metadata_overrides: {json.dumps(cfg.metadata_overrides)}\n")
        write_case(f"miles/stock-eval/eval_{case}", samples,
                   {"kind": "eval", "settings": {"rewardKey": reward_key, "evalRewardKey": eval_key},
                    "eval_config": f"eval_config_{case}.yaml", "metrics": None if crash else expected_metrics, "crash": crash})
        save_dump(data, 100000 + case, evaluation=True)  # beside miles_case's eval_<case>.pt
        return
    reward_key = rng.choice(["score", "acc"]) if kind == "dict" else None
    n = rng.randint(1, 6)
    sargs.reward_key, sargs.log_passrate, sargs.n_samples_per_prompt = reward_key, True, n
    samples = []
    for g in range(rng.randint(1, 8)):
        for _ in range(n if rng.random() < 0.85 else rng.randint(1, 6)):
            status = rng.choices(["completed", "truncated", "aborted"], [80, 15, 5] if kind != "dict" else [85, 15, 0])[0]
            s = miles_sample(rng, len(samples), g, f"prompt {case} {g}", [0.0])
            s.status, s.reward = Sample.Status(status), stock_reward(rng, kind, status)
            samples.append(s)
    drops, raised = {}, {}
    for g in sorted({s.group_index for s in samples}):
        members = [s for s in samples if s.group_index == g]
        for check in (check_no_aborted, check_reward_nonzero_std):
            try:
                o = check(sargs, members)
            except TypeError as e:
                raised[str(g)] = f"TypeError: {e}"
                break
            if not o.keep:
                drops[o.reason] = drops.get(o.reason, 0) + 1
                break
    expected = outcome(lambda: mm.log_rollout_data(1, sargs, samples, {}, 10.0))
    save_dump(samples, 100000 + case, evaluation=False)
    write_case(f"miles/stock-rollout/case{case}", samples,
               {"kind": "rollout", "n": n, "settings": {"rewardKey": reward_key, "nSamplesPerPrompt": n,
                                                        "dynamicFilter": "check_reward_nonzero_std"},
                **expected, "drops": drops, "filter_raised_by_group": raised})


def verl_case(case, rng, ns, trainer):
    palette = rng.sample(VERL_REWARDS, rng.randint(1, 5))
    n, prompts = rng.randint(1, 8), rng.randint(1, 12)
    inputs, outputs, gts, uids, rewards, accs, preds = [], [], [], [], [], [], []
    for p in range(prompts):
        # Mostly whole prompts; some with fewer or more samples (val-aux mean@k, the complete ones in val-core).
        for _ in range(n if rng.random() < 0.8 else rng.randint(1, 8)):
            inputs.append(f"case {case} prompt {p}")
            uids.append(f"u{p}")
            outputs.append("" if rng.random() < 0.1 else "".join(rng.choice("abc") for _ in range(rng.randint(1, 6))))
            gts.append("a")
            r = rng.choice(palette)
            rewards.append(r)
            accs.append(rng.choice([True, False]) if rng.random() < 0.5 else float(r > 0.5))
            preds.append(rng.choice(["a", "b", "c"]))
    infos = {"reward": list(rewards)}
    if rng.random() < 0.6:
        infos["acc"] = accs
    if rng.random() < 0.5:
        infos["pred"] = preds
    trainer.global_steps = case
    folder = os.path.join(OUT, "verl", "validation")
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        with mock.patch("builtins.print"):
            ns["_dump_generations"](trainer, inputs, outputs, gts, rewards, infos, d)
        shutil.copy(os.path.join(d, f"{case}.jsonl"), os.path.join(folder, f"{case}.jsonl"))
    combined = ns["_val_metrics_update"](trainer, np.array([gen.COMBINED] * len(uids)), uids, infos, [])
    # mean@ and std@ only: best@ / maj@ are numpy bootstrap estimates the engine does not recompute.
    with open(os.path.join(folder, f"{case}.json"), "w") as f:
        json.dump({"metrics": {k: float(v) for k, v in combined.items() if "/mean@" in k or "/std@" in k}}, f, allow_nan=True)


def letters(k):
    """Two letters for group k: a prompt the stub tokenizer encodes and decodes (a-z only)."""
    return chr(ord("a") + k // 26 % 26) + chr(ord("a") + k % 26)


def verl_rollout_case(case, rng, ns, trainer):
    """A training step as verl's legacy trainer logs it: the batch reordered by `_balance_batch`,
    dumped by `_log_rollout_data`, its metrics from `compute_data_metrics` (float32, as verl). The
    reward of a row sits on its last response token (an empty response: the last column, where the
    reward manager's index -1 puts it). No row of only an end token: it dumps as "" like an aborted
    one, which the engine cannot tell apart (docs/framework-files.md, "Empty output")."""
    n, prompts = rng.randint(1, 6), rng.randint(1, 8)
    rows = []
    for p in range(prompts):
        for _ in range(n if rng.random() < 0.8 else rng.randint(1, 6)):
            aborted = rng.random() < 0.12
            resp = [] if aborted else gen.encode("".join(rng.choice("xyz") for _ in range(rng.randint(1, 6)))) + [gen.EOS]
            rows.append((letters(p), resp, "x", "math", f"uid-{p}"))
    if len(rows) % 2:  # _balance_batch splits the batch evenly over its 2 data-parallel ranks
        rows.append(rows[-1])
    batch = gen.make_batch(rows)
    palette = rng.sample([0.0, 1.0, -1.0, 0.5, 0.25, 0.1, 2.0, -0.5], rng.randint(1, 4))
    scores = torch.zeros(batch.batch["responses"].shape, dtype=torch.float32)
    for i, (_, resp, *_) in enumerate(rows):
        scores[i, len(resp) - 1] = rng.choice(palette)
    batch.batch["token_level_scores"] = scores
    batch.batch["token_level_rewards"] = scores.clone()
    batch.batch["advantages"] = torch.zeros_like(scores)
    batch.batch["returns"] = torch.zeros_like(scores)
    ns["_balance_batch"](trainer, batch, {})
    trainer.global_steps = case
    folder = os.path.join(OUT, "verl", "rollout")
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        with mock.patch("builtins.print"):
            ns["_log_rollout_data"](trainer, batch, {}, {}, d)
        shutil.copy(os.path.join(d, f"{case}.jsonl"), os.path.join(folder, f"{case}.jsonl"))
    keep = ("critic/score/", "response/aborted_ratio")  # what a dump holds the data of
    try:
        m = metric_utils.compute_data_metrics(batch, use_critic=False)
        expected = {"metrics": {k: float(v) for k, v in m.items() if k.startswith(keep)}, "crash": None}
    except RuntimeError as e:  # every response empty: torch.max of no score
        expected = {"metrics": None, "crash": f"{type(e).__name__}: {e}"}
    with open(os.path.join(folder, f"{case}.json"), "w") as f:
        json.dump(expected, f, allow_nan=True)


def slime_case(case, rng, sl):
    """A slime rollout step or eval dataset through slime's own functions (gen.slime_all's), written as
    slime's `.pt` dump and as Sample.to_dict() lines. Rewards a hair apart straddle slime's 1e-6."""
    palette = rng.sample(MILES_REWARDS, rng.randint(1, 6))
    if rng.random() < 0.25:
        base, step = rng.choice([0.0, 0.3, 1.0]), rng.choice([3e-7, 7e-7, 1.2e-6, 3e-6, 5e-9])
        palette = [base + k * step for k in range(rng.randint(2, 3))]
    kind = rng.choice(["rollout", "eval"])
    n, groups = rng.randint(1, rng.choice([3, 6, 16])), rng.randint(1, rng.choice([3, 8, 40]))
    samples = []
    for g in range(groups):
        size = n if kind == "eval" or rng.random() < 0.85 else rng.randint(1, 6)
        for _ in range(size):
            m = miles_sample(rng, len(samples), g if kind == "rollout" else None, f"prompt {case} {g}", palette)
            s = sl.Sample(group_index=m.group_index, index=m.index, prompt=m.prompt, response=m.response,
                          response_length=m.response_length, label="x", reward=m.reward,
                          status=sl.Sample.Status(m.status.value), weight_versions=m.weight_versions)
            s.tokens, s.loss_mask, s.session_id = m.tokens, m.loss_mask, f"s{len(samples)}"
            s.prefix_cache_info.cached_tokens = m.prefix_cache_info.cached_tokens
            s.prefix_cache_info.total_prompt_tokens = m.prefix_cache_info.total_prompt_tokens
            samples.append(s)
    template = os.path.join(OUT, "slime", "rollout_data", "{rollout_id}.pt")
    sargs = gen.slime_args()
    if kind == "eval":
        sargs.n_samples_per_eval_prompt = n
        data = {f"eval_{case}": {"rewards": [s.reward for s in samples],
                                 "truncated": [s.status == sl.Sample.Status.TRUNCATED for s in samples], "samples": samples}}
        expected = gen.slime_outcome(slime_logged, lambda: sl.metrics.log_eval_rollout_data(100, sargs, data))
        write_case(f"slime/eval/eval_{case}", samples, {"kind": "eval", "n": n, **expected})
        sl.data.save_debug_rollout_data(template, data, rollout_id=case, evaluation=True)
        return
    drops, filter_crashes = {}, 0
    for g in range(groups):
        try:
            o = sl.filters.check_reward_nonzero_std(sargs, [s for s in samples if s.group_index == g])
        except TypeError:  # a None reward: torch.tensor raises; the engine keeps the group
            filter_crashes += 1
            continue
        if not o.keep:
            drops[o.reason] = drops.get(o.reason, 0) + 1
    sargs.log_passrate = False
    expected = gen.slime_outcome(slime_logged, lambda: sl.metrics.log_rollout_data(1, sargs, samples, {}, 10.0))
    sl.data.save_debug_rollout_data(template, samples, rollout_id=case, evaluation=False)
    write_case(f"slime/rollout/case{case}", samples,
               {"kind": "rollout", "n": n, **expected, "drops": drops, "filter_crashes": filter_crashes})
def verl_end_token_case(case, rng, ns, trainer):
    """A legacy training step with responses of only an end token beside aborted (empty) ones: both
    dump as "" (docs/framework-files.md, "Empty output"). Written like `verl_rollout_case`; expected
    are what `compute_data_metrics` logged for the step (`metrics`) and what it logs for the same
    batch with every empty output aborted (`all_empty_aborted`, or what it raised): the engine's
    figures are the latter, and the ranges its denominator finding states must hold the former."""
    n, prompts = rng.randint(1, 6), rng.randint(1, 8)
    rows = []
    for p in range(prompts):
        for _ in range(n if rng.random() < 0.8 else rng.randint(1, 6)):
            kind = rng.choices(["text", "aborted", "end"], [60, 20, 20])[0]
            if kind == "text":
                resp = gen.encode("".join(rng.choice("xyz") for _ in range(rng.randint(1, 6)))) + [gen.EOS]
            else:
                resp = [] if kind == "aborted" else [gen.EOS]
            rows.append((letters(p), resp, "x", "math", f"uid-{p}"))
    if not any(r[1] == [gen.EOS] for r in rows):
        rows[rng.randrange(len(rows))] = rows[0][:1] + ([gen.EOS],) + rows[0][2:]
    if len(rows) % 2:  # _balance_batch splits the batch evenly over its 2 data-parallel ranks
        rows.append(rows[-1])
    palette = rng.sample([0.0, 1.0, -1.0, 0.5, 0.25, 0.1, 2.0, -0.5], rng.randint(1, 4))
    picked = [rng.choice(palette) for _ in rows]

    def batch_of(rs):
        batch = gen.make_batch(rs)
        scores = torch.zeros(batch.batch["responses"].shape, dtype=torch.float32)
        for i, (_, resp, *_) in enumerate(rs):
            scores[i, len(resp) - 1] = picked[i]
        batch.batch["token_level_scores"] = scores
        batch.batch["token_level_rewards"] = scores.clone()
        batch.batch["advantages"] = torch.zeros_like(scores)
        batch.batch["returns"] = torch.zeros_like(scores)
        return batch

    keep = ("critic/score/", "response/aborted_ratio")

    def logged(batch):
        try:
            m = metric_utils.compute_data_metrics(batch, use_critic=False)
            return {k: float(v) for k, v in m.items() if k.startswith(keep)}, None
        except RuntimeError as e:  # every response empty: torch.max of no score
            return None, f"{type(e).__name__}: {e}"

    batch = batch_of(rows)
    ns["_balance_batch"](trainer, batch, {})
    trainer.global_steps = case
    folder = os.path.join(OUT, "verl", "rollout-end-token")
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        with mock.patch("builtins.print"):
            ns["_log_rollout_data"](trainer, batch, {}, {}, d)
        shutil.copy(os.path.join(d, f"{case}.jsonl"), os.path.join(folder, f"{case}.jsonl"))
    metrics, crash = logged(batch)
    aborted_view, aborted_crash = logged(batch_of([r[:1] + ([] if r[1] == [gen.EOS] else r[1],) + r[2:] for r in rows]))
    with open(os.path.join(folder, f"{case}.json"), "w") as f:
        json.dump({"metrics": metrics, "crash": crash, "end_token_rows": sum(r[1] == [gen.EOS] for r in rows),
                   "all_empty_aborted": aborted_view, "all_empty_aborted_crash": aborted_crash}, f, allow_nan=True)


def main():
    # verl's trainer methods cannot be imported without a cluster: their source is run as written.
    ns, trainer = gen.verl_legacy_trainer(0)
    global slime_logged
    sl = gen.slime_modules(SLIME) if SLIME else None
    slime_logged = gen.slime_capture(sl) if sl else None
    ctx = SimpleNamespace(OUT=OUT, gen=gen, mm=mm, outcome=outcome, write_case=write_case, save_dump=save_dump,
                          MILES=MILES, slime_logged=slime_logged)
    for case in range(CASES):
        rng = random.Random(SEED * 100003 + case)
        miles_case(case, rng)
        verl_case(case, rng, ns, trainer)
        verl_rollout_case(case, rng, ns, trainer)
        miles_stock_case(case, random.Random(SEED * 100003 + case + 7))
        verl_end_token_case(case, random.Random(f"end-token {SEED} {case}"), ns, trainer)
        audit_compact.miles_compact_case(ctx, case, random.Random(f"compact {SEED} {case}"))
        audit_compact.miles_compact_eval_case(ctx, case, random.Random(f"compact eval {SEED} {case}"))
        if sl is not None:
            slime_case(case, rng, sl)
            audit_compact.slime_compact_case(ctx, case, random.Random(f"slime compact {SEED} {case}"), sl)
    print(f"{CASES} miles, {CASES} verl validation, {CASES} verl rollout, {CASES} verl end-token, {CASES} miles stock-configuration,"
          f" {CASES} miles compact-rollout, {CASES} miles compact eval"
          f"{f' and {CASES} slime' if SLIME else ''} cases in {OUT} (seed {SEED})")


if __name__ == "__main__":
    main()
