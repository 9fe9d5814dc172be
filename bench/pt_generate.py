"""Writes the .pt benchmark input with the real torch.save: a miles train dump of 4 000 samples
(Sample.to_dict() fields, token ids and log-prob lists: about 250 MB), seeded. Also prints
torch.load's view of what the analysis reads, with torch.load's time and peak RSS.

With `text_kb` > 0 the dump is text-heavy: each response is `text_kb` KB of its own text, and a
group's samples share one prompt string object of `text_kb / 4` KB, as miles' deepcopy of a
prompt sample does (so the pickle writes it once and refers back to it from its memo).

`write-short` writes many short samples (the shape of bench/scale.mjs's short JSON Lines file: an
arithmetic prompt, a short boxed answer, label, reward, status, exit status; groups of 8, 2% of
samples aborted), each a whole `Sample.to_dict()` with short token, loss-mask and log-prob lists.
A group's samples share their prompt and label str objects and copy the prompt's token ids, as
miles' deepcopy of a prompt sample does.

    /usr/bin/python3 bench/pt_generate.py write <out.pt> [samples] [text_kb]
    /usr/bin/python3 bench/pt_generate.py write-short <out.pt> <samples> <seed>
    /usr/bin/python3 bench/pt_generate.py load <file.pt> <expected.json>
    /usr/bin/python3 bench/pt_generate.py load-many <file.pt>...   (times torch.load of each in turn)
"""

import json
import random
import resource
import sys
import time


WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "théta", "λ", "∑", "\n"]


def text(rng, kb):
    out, size = [], 0
    while size < kb * 1024:
        w = rng.choice(WORDS)
        out.append(w)
        size += len(w.encode()) + 1
    return " ".join(out)


PROMPTS = {}


# The fields of miles' `Sample.to_dict()` in its order, with the values these dumps leave as they are.
SAMPLE_FIELDS = dict(
    group_index=None,
    index=None,
    rollout_id=None,
    prompt=None,
    tokens=None,
    multimodal_inputs=None,
    multimodal_train_inputs=None,
    response=None,
    response_length=None,
    label=None,
    reward=None,
    loss_mask=None,
    weight_versions=None,
    rollout_log_probs=None,
    rollout_routed_experts=None,
    rollout_indexer_topk=None,
    remove_sample=False,
    teacher_log_probs=None,
    opd_reverse_kl=None,
    status=None,
    metadata=None,
    generate_function_path=None,
    train_metadata=None,
    adapter=None,
    reward_spec=None,
    routing_key=None,
    non_generation_time=0.0,
    spec_info=None,
    prefix_cache_info=None,
)


def sample_dict(**fields):
    """A `Sample.to_dict()`: `fields` over SAMPLE_FIELDS, in miles' key order, with dicts of its own
    for spec_info and prefix_cache_info (shared ones would be pickled once and referred back to)."""
    out = dict(SAMPLE_FIELDS)
    out.update(fields)
    out["spec_info"] = {"spec_accept_token_num": 0, "spec_draft_token_num": 0, "spec_verify_ct": 0, "completion_token_num": 0}
    out["prefix_cache_info"] = {"cached_tokens": 0, "total_prompt_tokens": 0}
    return out


def sample(rng, i, n, text_kb=0):
    group = i // n
    aborted = group % 7 == 3 and i % n == 1
    prompt_len, response_len = 500, 3700
    cause = ["ServerUnreachable", "SandboxUnavailable", "TimeLimitExceeded"][group % 3]
    return sample_dict(
        group_index=group,
        index=i,
        prompt=(PROMPTS.setdefault(group, f"Solve problem {group}: " + text(rng, text_kb // 4 or 1)) if text_kb else f"Solve problem {group}: " + "x" * 200),
        tokens=[rng.randrange(0, 151000) for _ in range(prompt_len + response_len)],
        response=text(rng, text_kb) if text_kb else "answer " * 40,
        response_length=response_len,
        label=str(group),
        reward=None if aborted else float(rng.random() < 0.5),
        loss_mask=[1] * response_len,
        weight_versions=["7"],
        rollout_log_probs=[-rng.random() * 4 for _ in range(response_len)],
        status="aborted" if aborted else "completed",
        metadata={"exit_status": cause} if aborted else {},
    )


CAUSES = ["SandboxUnavailable", "ServerUnreachable", "AgentSetupFailed", "TimeLimitExceeded"]


def short_samples(count, seed):
    import numpy

    rng = random.Random(seed)
    # Token ids and log-probs drawn in bulk (seeded): drawing them one by one is most of the time.
    draws = numpy.random.default_rng(seed)
    ids = iter(draws.integers(0, 151000, size=count * 48).tolist())
    probs = iter((draws.random(size=count * 32) * -4).tolist())
    out = []
    for g in range((count + 7) // 8):
        a, b = rng.randrange(2, 1000), rng.randrange(2, 1000)
        op = rng.choice("+-*")
        answer = a + b if op == "+" else a - b if op == "-" else a * b
        prompt, label = f"What is {a} {op} {b}?", str(answer)
        prompt_tokens = [next(ids) for _ in range(8 + rng.randrange(6))]
        for i in range(g * 8, min(count, g * 8 + 8)):
            aborted = rng.random() < 0.02
            right = rng.random() < 0.55
            said = answer if right else answer + 1 + rng.randrange(9)
            n = 0 if aborted else rng.randrange(12, 32)
            s = sample_dict(
                group_index=g,
                index=i,
                prompt=prompt,
                tokens=prompt_tokens + [next(ids) for _ in range(n)],
                response="" if aborted else "\\boxed{%d}" % said,
                response_length=n,
                label=label,
                reward=None if aborted else float(right),
                loss_mask=None if aborted else [1] * n,
                weight_versions=["7"],
                rollout_log_probs=None if aborted else [next(probs) for _ in range(n)],
                status="aborted" if aborted else "completed",
                metadata={"exit_status": rng.choice(CAUSES) if aborted else "Submitted"},
            )
            out.append(s)
    return out


def main():
    import torch

    if sys.argv[1] == "write-short":
        out, count, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        torch.save(dict(rollout_id=seed, metadata={}, samples=short_samples(count, seed)), out)
        return
    if sys.argv[1] == "write":
        out, count = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 4000
        text_kb = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        rng = random.Random(42)
        samples = [sample(rng, i, 8, text_kb) for i in range(count)]
        torch.save(dict(rollout_id=7, metadata={}, samples=samples), out)
        return
    if sys.argv[1] == "load-many":
        t, c, n = time.perf_counter(), time.process_time(), 0
        for path in sys.argv[2:]:
            data = torch.load(path)
            n += len(data["samples"])
            del data
        seconds, cpu = time.perf_counter() - t, time.process_time() - c
        print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "samples": n}))
        return
    path, expected = sys.argv[2], sys.argv[3]
    t, c = time.perf_counter(), time.process_time()
    data = torch.load(path)
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    rows = [
        [s["index"], s["group_index"], s["status"], s["reward"], (s["metadata"] or {}).get("exit_status"), s["response_length"], len(s["tokens"]), None if s["rollout_log_probs"] is None else len(s["rollout_log_probs"])]
        for s in data["samples"]
    ]
    with open(expected, "w") as f:
        json.dump(rows, f)
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
