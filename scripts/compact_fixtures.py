"""Compact / sub-agent rollouts in miles' eval path, for scripts/gen-real-fixtures.py (`miles_compact`) and
scripts/audit-metrics.py (docs/framework-files.md#compact-rollouts).

miles main (31f1ca9)'s `inference_rollout_eval.eval_rollout_single_dataset` runs the same agentic generation
(`agentic_tool_call.generate`, session server v2) once per attempt, extends its data with every sample an
attempt returns (siblings sharing `rollout_id` and `index`), sorts by `index` and hands the flat rewards to
`log_eval_rollout_data`. Run here as written, with the generation state, the session server and the user's
agent function of gen-real-fixtures.py's `miles_compact_setup`; only the prompt dataset is given (the
function's cache, which it otherwise fills from the dataset file with a tokenizer).
"""
import ast
import asyncio
import json
import os
from types import SimpleNamespace


def real_misc_function(miles_root, name):
    """A function of `miles.utils.misc` (stubbed as a whole: it imports what this machine lacks), its source
    read from the extraction and run as written."""
    path = os.path.join(miles_root, "miles", "utils", "misc.py")
    with open(path) as f:
        src = f.read()
    node = next(n for n in ast.parse(src).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)
    ns = {"asyncio": asyncio}
    exec(ast.get_source_segment(src, node), ns)  # noqa: S102 - miles' own function, run as written
    return ns[name]


def eval_modules(miles_root):
    """miles' eval path with `as_completed_async` (from miles.utils.misc) real and tqdm a stub."""
    import sys
    from unittest import mock

    import miles.utils.misc as misc

    misc.as_completed_async = real_misc_function(miles_root, "as_completed_async")
    sys.modules.setdefault("tqdm", mock.MagicMock(name="tqdm"))
    from miles.rollout.inference_rollout import inference_rollout_eval

    inference_rollout_eval.as_completed_async = misc.as_completed_async
    return inference_rollout_eval


def eval_args(args):
    """The fields eval_rollout_single_dataset reads besides the generation's (miles' defaults)."""
    args.hf_checkpoint, args.apply_chat_template, args.chat_template_path = None, False, None
    args.rollout_stop, args.rollout_stop_token_ids, args.rollout_skip_special_tokens = None, None, False
    args.eval_max_prompt_len, args.multimodal_keys, args.apply_chat_template_kwargs = None, None, {}
    return args


def compact_eval_step(mods, state, server, step, name, n, plans, miles_root):
    """One eval dataset through miles' eval path: `plans` per prompt, n attempts each as (samples, reward)
    (0 samples: no model call, aborted). Returns the dataset's data as eval_rollout_single_dataset gives it
    and what log_eval_rollout_data logged (or raised)."""
    from miles.ray.rollout import metrics as mm
    from miles.utils.eval_config import EvalDatasetConfig
    from miles.utils.types import Sample

    args = eval_args(state.args)
    ev = eval_modules(miles_root)
    cfg = EvalDatasetConfig(name=name, path=f"/data/{name}.jsonl", n_samples_per_eval_prompt=n)
    prompts = []
    for p, attempts in enumerate(plans):
        task = f"eval{step}-{p}"
        server.plans[task] = list(attempts)
        prompts.append(Sample(prompt=f"Fix the failing test in repo {name}-{p}.", label=f"l{p}", metadata={"task_id": task}))
    cache = {cfg.cache_key + (args.hf_checkpoint, args.apply_chat_template, args.chat_template_path): SimpleNamespace(samples=prompts)}
    state.generate_fn_semaphore = asyncio.Semaphore(4)
    data = asyncio.run(ev.eval_rollout_single_dataset(state, cfg, cache))
    args.n_samples_per_eval_prompt, args.log_passrate = n, True
    logged, before = {}, mm.tracking
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    try:
        out = mm.log_eval_rollout_data(step, args, data)
        metrics, crash = {k: v for k, v in out.items() if k != "eval/step"}, None
    except Exception as e:  # noqa: BLE001 - what miles raised is the expected value
        metrics, crash = None, f"{type(e).__name__}: {e}"
    finally:
        mm.tracking = before
    return data, metrics, crash


def miles_compact_eval(out_dir, mods, state, server, write_json, miles_root):
    """eval_120: attempts fan out into 15 samples for 3 prompts × 4 (compute_pass_rate's assertion raises, so
    nothing of the step is logged); eval_121: 8 samples for 3 prompts × 2 with an aborted attempt (pass@k over
    chunks of 2 samples, which are no prompt's attempts)."""
    from miles.ray.rollout import debug_data

    state.args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    cases = {
        120: ("swe-mini", 4, [[(1, 1.0), (2, 0.0), (1, 1.0), (1, 0.0)],
                              [(1, 0.0), (1, 0.0), (3, 1.0), (1, 0.0)],
                              [(1, 1.0), (1, 1.0), (1, 1.0), (1, 0.0)]]),
        121: ("swe-lite", 2, [[(2, 1.0), (1, 0.0)],
                              [(1, 1.0), (0, None)],
                              [(1, 0.0), (2, 1.0)]]),
    }
    for step, (name, n, plans) in cases.items():
        data, metrics, crash = compact_eval_step(mods, state, server, step, name, n, plans, miles_root)
        samples = data[name]["samples"]
        with open(os.path.join(out_dir, "eval", f"eval_{step}.jsonl"), "w") as f:
            for s in samples:
                f.write(json.dumps(s.to_dict()) + "\n")
        debug_data.save_debug_rollout_data(state.args, data, rollout_id=step, evaluation=True)
        with open(os.path.join(out_dir, "eval", f"eval_config_{step}.yaml"), "w") as f:
            f.write(f"# The eval config of eval_{step} (one dataset, its n the global --n-samples-per-eval-prompt).\n"
                    f"eval:\n  datasets:\n    - name: {name}\n      path: /data/{name}.jsonl\n      n_samples_per_eval_prompt: {n}\n")
        write_json(os.path.join(out_dir, "eval", f"eval_{step}.expected.json"), {
            "writer": "miles inference_rollout_eval.eval_rollout_single_dataset with agentic_tool_call.generate (session server v2); "
                      "Sample.to_dict() lines and save_debug_rollout_data (.pt)",
            "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data with --log-passrate, the dataset's n as the global n",
            "settings": {"nSamplesPerEvalPrompt": n},
            "eval_config": f"eval_config_{step}.yaml",
            "samples": len(samples),
            "attempts": sum(len(p) for p in plans),
            "rollout_ids": [s.rollout_id for s in samples],
            "metrics": metrics,
            "crash": crash})
