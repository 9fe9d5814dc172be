"""Compact / sub-agent rollout cases of scripts/audit-metrics.py (docs/framework-files.md#compact-rollouts),
each through the frameworks' own functions:
- miles rollout steps (`miles/compact/case<N>.jsonl`, `.pt` as `miles/rollout_data/<200000+N>.pt`): miles'
  agentic generation (gen-real-fixtures.py `miles_compact_step`) with random fan-out, rewards per rollout or
  per sample (the reward function scoring siblings apart), with or without the zero-std filter; expected are
  the logged figures, pass@k by rollout, and what `log_rollout_data` or `convert_samples_to_train_data` raised;
- miles eval datasets (`miles/compact-eval/eval_<N>.jsonl`, `.pt` as `miles/rollout_data/eval_<300000+N>.pt`):
  miles' eval path (compact_fixtures.py `compact_eval_step`), `log_eval_rollout_data`'s figures or what it raised;
- slime steps (`slime/compact/case<N>.jsonl`, `.pt` as `slime/rollout_data/<200000+N>.pt`): slime's own
  `generate_rollout_async` with a generate function fanning inputs out (gen-real-fixtures.py `slime_fanout_step`),
  slime's `check_reward_nonzero_std` on each group as generated (drops, or what it raised), a group one input
  short through slime's assertion, then slime's `log_rollout_data`;
- slime eval datasets (`slime/compact-eval/eval_<N>.jsonl`, `.pt` as `slime/rollout_data/eval_<300000+N>.pt`):
  samples as slime's TrajectoryManager emits a rollout's siblings (its `index`, `label`, `rollout_id` = the
  input's `rollout_id` else `index`), extended into the dataset, then slime's `log_eval_rollout_data`.
`ctx` carries audit-metrics.py's helpers (OUT, gen, mm, outcome, write_case, save_dump, MILES).
"""
import os
from unittest import mock

_compact = None  # miles' agentic generation path (gen.miles_compact_setup), made once


def _setup(ctx, n):
    global _compact
    if _compact is None:
        _compact = ctx.gen.miles_compact_setup(ctx.gen.miles_compact_args(n))
    return _compact


def miles_compact_case(ctx, case, rng):
    """A step of miles' agentic generation with random fan-out (0 samples: no model call, aborted), a fifth of the
    steps with a group's last rollout then lost (written short); a third without the zero-std filter, where a
    rollout may be left unscored (None). A step whose every group was dropped is not written."""
    gen, mm = ctx.gen, ctx.mm
    n = rng.randint(2, 6)  # one sample per prompt has no spread: check_reward_nonzero_std drops every group
    mods, state, server = _setup(ctx, n)
    cargs = state.args
    cargs.n_samples_per_prompt = n
    step = 200000 + case
    cargs.save_debug_rollout_data = os.path.join(ctx.OUT, "miles", "rollout_data", "{rollout_id}.pt")
    zero_std = rng.random() < 0.67
    # A quarter of the steps score with a bool reward function (True/False, as fixture rollout_24's).
    palette = [True, False] if rng.random() < 0.25 else rng.sample([0.0, 1.0, 1, 0, 0.5, -1.0, 0.25], rng.randint(2, 4))
    plan = []
    for _ in range(rng.randint(1, 6)):
        rollouts = []
        for _ in range(n):
            turns = rng.choices([0, 1, 2, 3], [3, 60, 25, 12])[0]
            # "judge": the server assigns none, miles' reward function scores each sample on its own.
            reward = rng.choices([rng.choice(palette), "judge", "unscored"], [85, 12, 0 if zero_std else 3])[0]
            rollouts.append((turns, reward))
        plan.append(("x", rollouts))
    short = rng.random() < 0.2 and n > 1
    with mock.patch("builtins.print"):
        try:
            out = gen.miles_compact_step(mods, cargs, step, plan, state, server, zero_std=zero_std)
        except IndexError:  # every group dropped: postprocess_rollout_data reads data[0]
            return
    flat, by_group, metrics, by_rollouts = out.flat, out.rollouts_by_group, out.logged, out.by_rollouts
    crash, train_crash = out.crash, out.train_crash
    cut = None
    if short:
        # The last rollout of the first group lost while writing: that group has n - 1 rollouts.
        cut = str(flat[0].group_index)
        kept_ids = list(by_group[cut])[:-1]
        flat = [s for s, rid in zip(flat, out.rollout_ids) if str(s.group_index) != cut or rid in kept_ids]
        by_group[cut] = {r: by_group[cut][r] for r in kept_ids}
        logged = ctx.outcome(lambda: mm.log_rollout_data(step, cargs, flat, out.drops, 10.0))
        metrics, crash = logged["metrics"], logged["crash"]
        train_crash = None
        if crash is None:
            # The step miles would convert had it generated the groups so: the cut file's groups through its
            # filters (a group cut to one reward is now zero-std), then convert_samples_to_train_data.
            from miles.ray.rollout.train_data_conversion import convert_samples_to_train_data
            from miles.rollout.filter_hub.base_types import call_dynamic_filter
            from miles.rollout.filter_hub.dynamic_sampling_filters import check_no_aborted, check_reward_nonzero_std

            kept = []
            for g in dict.fromkeys(s.group_index for s in flat):
                group = [s for s in flat if s.group_index == g]
                filters = (check_no_aborted, check_reward_nonzero_std) if zero_std else (check_no_aborted,)
                if all(call_dynamic_filter(f, cargs, group).keep for f in filters):
                    kept.extend(group)
            try:
                if kept:
                    convert_samples_to_train_data(cargs, kept, {}, None, None)
            except (ValueError, TypeError) as e:
                train_crash = f"{type(e).__name__}: {e}"
        ctx.save_dump(flat, step, evaluation=False)
        from miles.utils.metric_utils import compute_pass_rate

        by_rollouts = gen.rollout_pass_rate(compute_pass_rate, by_group, n)
    samples_by_group = {}
    for s in flat:
        samples_by_group[str(s.group_index)] = samples_by_group.get(str(s.group_index), 0) + 1
    # A None reward makes pass@k by rollouts count it as not 1, as compute_pass_rate's `== 1` does.
    ctx.write_case(f"miles/compact/case{case}", flat, {
        "kind": "compact",
        "settings": {"nSamplesPerPrompt": n, "dynamicFilter": "check_reward_nonzero_std" if zero_std else "none"},
        "metrics": None if crash else {k: v for k, v in metrics.items() if k.startswith(("rollout/", "passrate/"))
                                       and k not in ("rollout/step", "rollout/rollout_time") and not k.startswith("rollout/dynamic_filter/")},
        "crash": crash,
        "train_crash": train_crash,
        "fanned_out": sum(samples_by_group[g] > len(r) for g, r in by_group.items()),
        "short_group": cut,
        "rollouts_by_group": {g: len(r) for g, r in by_group.items()},
        "pass_at_k_by_rollouts": by_rollouts})


def miles_compact_eval_case(ctx, case, rng):
    """One eval dataset of random prompts × n attempts through miles' eval path, attempts fanning out (0: aborted)."""
    import compact_fixtures as cf

    n = rng.randint(1, 5)
    mods, state, server = _setup(ctx, max(n, 2))
    rewards = [True, False] if rng.random() < 0.25 else [0.0, 1.0, 1, 0.5]  # a quarter scored by a bool reward function
    plans = [[(rng.choices([0, 1, 2, 3], [4, 60, 24, 12])[0], rng.choice(rewards)) for _ in range(n)]
             for _ in range(rng.randint(1, 5))]
    name = f"swe{case}"
    with mock.patch("builtins.print"):
        data, metrics, crash = cf.compact_eval_step(mods, state, server, 300000 + case, name, n, plans, ctx.MILES)
    folder = os.path.join(ctx.OUT, "miles", "compact-eval")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"eval_config_{case}.yaml"), "w") as f:
        f.write(f"eval:\n  datasets:\n    - name: {name}\n      path: x\n      n_samples_per_eval_prompt: {n}\n")
    samples = data[name]["samples"]
    state.args.save_debug_rollout_data = os.path.join(ctx.OUT, "miles", "rollout_data", "{rollout_id}.pt")
    ctx.save_dump(data, 300000 + case, evaluation=True)
    ctx.write_case(f"miles/compact-eval/eval_{case}", samples, {
        "kind": "eval", "settings": {"nSamplesPerEvalPrompt": n}, "eval_config": f"eval_config_{case}.yaml",
        "metrics": metrics, "crash": crash,
        "fanned_out": sum(1 for k, s in enumerate(samples) if s.rollout_id is not None and (k == 0 or samples[k - 1].index != s.index))})


def slime_compact_case(ctx, case, rng, sl):
    """A slime step (slime_compact_step_case) or eval dataset of rollouts fanning out into siblings (slime's
    agent/trajectory.py `TrajectoryManager` fields), flattened as slime's eval path flattens them, then
    slime's `log_eval_rollout_data`."""
    gen = ctx.gen
    kind = rng.choice(["rollout", "eval"])
    n = rng.randint(1, 5)
    if kind == "rollout":
        return slime_compact_step_case(ctx, case, rng, sl, n, os.path.join(ctx.OUT, "slime", "rollout_data", "{rollout_id}.pt"))
    sargs = gen.slime_args()
    samples = []
    palette = [True, False] if rng.random() < 0.25 else [0.0, 1.0, 1, 0.5]  # a quarter: a bool reward function
    for g in range(rng.randint(1, 5)):
        for _ in range(n):
            index = len({s.index for s in samples})
            turns = rng.choices([1, 2, 3], [60, 25, 15])[0]
            reward = rng.choices([rng.choice(palette), None], [95, 5])[0]
            for t in range(turns):
                resp = f"turn {t}" if t < turns - 1 else "done"
                s = sl.Sample(group_index=g if kind == "rollout" else None, index=index, prompt=f"task {case} {g}",
                              response=resp, response_length=len(resp), label="x", reward=reward,
                              status=sl.Sample.Status.COMPLETED, weight_versions=["3"])
                s.rollout_id = index if turns > 1 else None
                s.tokens, s.loss_mask = list(range(4 + len(resp))), [1] * len(resp)
                samples.append(s)
    template = os.path.join(ctx.OUT, "slime", "rollout_data", "{rollout_id}.pt")
    if kind == "eval":
        sargs.n_samples_per_eval_prompt = n
        name = f"ds{case}"  # named by the eval config beside the case, for the JSON lines and the .pt alike
        data = {name: {"rewards": [s.reward for s in samples],
                       "truncated": [s.status == sl.Sample.Status.TRUNCATED for s in samples], "samples": samples}}
        expected = gen.slime_outcome(ctx.slime_logged, lambda: sl.metrics.log_eval_rollout_data(100, sargs, data))
        folder = os.path.join(ctx.OUT, "slime", "compact-eval")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"eval_config_{case}.yaml"), "w") as f:
            f.write(f"eval:\n  datasets:\n    - name: {name}\n      path: x\n      n_samples_per_eval_prompt: {n}\n")
        ctx.write_case(f"slime/compact-eval/eval_{case}", samples, {"kind": "eval", "n": n, "settings": {"nSamplesPerEvalPrompt": n},
                                                                    "eval_config": f"eval_config_{case}.yaml", **expected})
        sl.data.save_debug_rollout_data(template, data, rollout_id=300000 + case, evaluation=True)


_turns = {}  # the number of samples each input of a slime step fans out into, by index (slime_agent_generate)


async def slime_agent_generate(args, sample, sampling_params):
    """--custom-generate-function-path of the slime steps (user code, as an agent's would be): slime's own
    model call, then the list of the rollout's turns, each a copy of the answered sample with rollout_id =
    its index (slime's compact contract) and its own response. A list for one turn too: slime's
    RolloutManager flattens a step only when every rollout has one shape (a Sample among lists raises)."""
    import copy

    from slime.rollout.sglang_rollout import generate

    done = await generate(args, sample, sampling_params)
    turns = _turns[sample.index]
    out = []
    for t in range(turns):
        s = copy.deepcopy(done)
        s.response = f"turn {t}" if t < turns - 1 else done.response
        s.response_length = len(s.response)
        s.tokens, s.loss_mask = list(range(4 + s.response_length)), [1] * s.response_length
        s.rollout_id = sample.index
        out.append(s)
    return out


def slime_compact_step_case(ctx, case, rng, sl, n, template):
    """A slime training step through slime's own generate_rollout_async (gen.slime_fanout_step) with
    `slime_agent_generate`: inputs fanning out into 1-3 samples. Half the steps run with
    check_reward_nonzero_std: slime's own filter on each group as the generation returned it (its
    drops, or what it raised: AttributeError on a group with a list entry). A fifth have the last rollout
    of their first group lost while writing; slime's own run of a group handed out one input short
    raises (its assertion). The figures are slime's log_rollout_data over the samples written."""
    import sys
    import types

    gen = ctx.gen
    sys.modules.setdefault("audit_slime_agents", types.ModuleType("audit_slime_agents")).generate = slime_agent_generate
    groups = rng.randint(1, 4)
    rewards = {}
    palette = [True, False] if rng.random() < 0.25 else [0.0, 1.0, 1, 0.5]  # a quarter: a bool reward function
    for i in range(groups * n):
        _turns[i] = rng.choices([1, 2, 3], [60, 25, 15])[0]
        rewards[i] = rng.choice(palette)
    filtered = rng.random() < 0.5
    samples, _, nested = gen.slime_fanout_step(sl, n, [n] * groups, rewards, None, "audit_slime_agents.generate")
    sargs = gen.slime_args()
    sargs.log_passrate, sargs.n_samples_per_prompt = False, n
    raised, gatherer = {}, sl.base.MetricGatherer()
    if filtered:
        for group in nested:
            first = group[0][0]
            try:
                out = sl.base.call_dynamic_filter(sl.filters.check_reward_nonzero_std, sargs, group)
            except Exception as e:  # noqa: BLE001 - slime's own exception is the expected value
                raised[str(first.group_index)] = f"{type(e).__name__}: {e}"
                continue
            if sl.base.should_drop_dynamic_filter_output(out, remaining_batch_size=10**9, target_data_size=1):
                gatherer.on_dynamic_filter_drop(reason=out.reason)
    short, short_crash = None, None
    if n > 1 and rng.random() < 0.2:
        # The first group's last rollout lost while writing; slime's own run of that group one input short:
        try:
            gen.slime_fanout_step(sl, n, [n - 1] + [n] * (groups - 1), rewards, None, "audit_slime_agents.generate")
        except AssertionError as e:
            short_crash = f"AssertionError: {e}"
        last = n - 1  # the first group's inputs are indexes 0 .. n - 1
        samples = [s for s in samples if s.index != last]
        short = "0"
    expected = gen.slime_outcome(ctx.slime_logged, lambda: sl.metrics.log_rollout_data(1, sargs, samples, {}, 10.0))
    sl.data.save_debug_rollout_data(template, samples, rollout_id=200000 + case, evaluation=False)
    # A step whose rollouts are all one sample does not show that its generate function returned lists (which
    # slime's filter raises on): the engine names the crash only where a rollout fans out; counted apart here.
    unseen = {}
    if filtered and not any(_turns[s.index] > 1 for s in samples):
        # What slime's filter gives the same groups from a generate function returning plain Samples (the
        # groups as written: without the rollout a short group lost).
        raised, unseen, gatherer = {}, raised, sl.base.MetricGatherer()
        written = {id(s) for s in samples}
        for group in nested:
            out = sl.base.call_dynamic_filter(sl.filters.check_reward_nonzero_std, sargs, [e[0] for e in group if id(e[0]) in written])
            if sl.base.should_drop_dynamic_filter_output(out, remaining_batch_size=10**9, target_data_size=1):
                gatherer.on_dynamic_filter_drop(reason=out.reason)
    settings = {"nSamplesPerPrompt": n, "dynamicFilter": "check_reward_nonzero_std" if filtered else "none"}
    ctx.write_case(f"slime/compact/case{case}", samples,
                   {"kind": "rollout", "n": n, "settings": settings, **expected,
                    "drops": {k.removeprefix("rollout/dynamic_filter/drop_"): v for k, v in gatherer.collect().items()} if filtered else {}, "filter_raised_by_group": raised,
                    "filter_raised_unseen": len(unseen),
                    "incomplete_groups": [short] if short is not None else [], "short_group_crash": short_crash})
