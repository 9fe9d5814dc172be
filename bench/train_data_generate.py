"""The train_data benchmark input (bench/trainData.mjs): one step of a miles `--dump-details` run,
written by miles' own save_debug_train_data_for_rank (miles main 31f1ca9) with the real
torch.save, seeded. `ranks` data-parallel ranks, each holding `rollout_data` as the Megatron actor
holds it at the dump: tokens int64, loss_masks int32, rollout_log_probs, log_probs,
ref_log_probs, entropy, advantages and returns float32 (per response token), and the per-sample
lists. About 1 GB for the defaults. Also `load`: torch.load of each file in turn, with the
mismatch numpy computes from them (torch.load's own time and CPU time, not numpy's; the peak RSS
of the process).

    /usr/bin/python3 bench/train_data_generate.py write <miles extraction> <dir> [samples] [ranks] [seed]
    /usr/bin/python3 bench/train_data_generate.py drift <miles extraction> <dir> <steps> <drift_from> [seed]
    /usr/bin/python3 bench/train_data_generate.py load <file.pt>...

`drift`: a run of `steps` steps of one rank, 8 samples of 200-700 response tokens each, whose
samples with mixed weight_versions get 0.5 nats of noise in the trainer's log-probs from step
`drift_from` on (as scripts/mismatch_fixtures.py drift_all, at scale).

<miles extraction>: the folder holding `miles/` (git -C <miles mirror> archive HEAD miles | tar -x
-C <it>). Only miles' parallel-state module is stood in for: it imports torch.distributed.device_mesh,
which Debian's torch 1.13 lacks, and save_debug_train_data_for_rank does not use it.
"""

import json
import os
import resource
import sys
import time
import types
from argparse import Namespace

import torch


def miles_writer(miles_root):
    sys.path.insert(0, miles_root)
    stub = types.ModuleType("miles.backends.training_utils.parallel")
    stub.get_parallel_state = None
    sys.modules["miles.backends.training_utils.parallel"] = stub
    from miles.utils.train_dump_utils import save_debug_train_data_for_rank

    return save_debug_train_data_for_rank


def drift(miles_root, out_dir, steps, drift_from, seed):
    save_debug_train_data_for_rank = miles_writer(miles_root)
    args = Namespace(save_debug_train_data=os.path.join(out_dir, "train_data", "{rollout_id}_{rank}.pt"), qkv_format="thd")
    g = torch.Generator().manual_seed(seed)
    for step in range(steps):
        rd = {k: [] for k in ("tokens", "loss_masks", "rollout_log_probs", "log_probs", "response_lengths", "total_lengths",
                              "sample_indices", "rewards", "weight_versions")}
        for i in range(8):
            r = 200 + int(torch.randint(0, 500, (1,), generator=g))
            mixed = i % 4 in (2, 3)
            rollout = -torch.rand(r, generator=g) * 3
            noise = 0.02 + (0.5 if mixed and step >= drift_from else 0.0)
            rd["tokens"].append(torch.randint(3, 151000, (r + 50,), generator=g, dtype=torch.long))
            rd["loss_masks"].append(torch.ones(r, dtype=torch.int))
            rd["rollout_log_probs"].append(rollout)
            rd["log_probs"].append(rollout + torch.randn(r, generator=g) * noise)
            rd["response_lengths"].append(r)
            rd["total_lengths"].append(r + 50)
            rd["sample_indices"].append(step * 100 + i)
            rd["rewards"].append(float(i % 2))
            rd["weight_versions"].append([str(step - 1), str(step)] if mixed else [str(step)])
        save_debug_train_data_for_rank(args, rollout_id=step, rollout_data=rd, rank=0)


def write(miles_root, out_dir, samples, ranks, seed):
    save_debug_train_data_for_rank = miles_writer(miles_root)
    args = Namespace(save_debug_train_data=os.path.join(out_dir, "train_data", "{rollout_id}_{rank}.pt"), qkv_format="thd")
    g = torch.Generator().manual_seed(seed)
    per_rank = samples // ranks
    for rank in range(ranks):
        rd = {k: [] for k in ("tokens", "loss_masks", "rollout_log_probs", "log_probs", "ref_log_probs", "entropy", "advantages", "returns")}
        rd.update(response_lengths=[], total_lengths=[], sample_indices=[], rewards=[], raw_reward=[], truncated=[])
        for i in range(per_rank):
            index = rank * per_rank + i
            p = 200 + int(torch.randint(0, 800, (1,), generator=g))
            r = 2000 + int(torch.randint(0, 12000, (1,), generator=g))
            rd["tokens"].append(torch.randint(3, 151000, (p + r,), generator=g, dtype=torch.long))
            mask = torch.ones(r, dtype=torch.int)
            for start in range(r // 4, r, r // 3):  # tool outputs inside the response: outside the loss
                mask[start : start + r // 16] = 0
            rd["loss_masks"].append(mask)
            rollout = -torch.rand(r, generator=g) * 4
            rd["rollout_log_probs"].append(rollout)
            rd["log_probs"].append(rollout + torch.randn(r, generator=g) * 0.01)
            rd["ref_log_probs"].append(rollout + torch.randn(r, generator=g) * 0.05)
            rd["entropy"].append(torch.rand(r, generator=g) * 2)
            reward = float(index % 2)
            rd["advantages"].append(torch.full((r,), reward - 0.5))
            rd["returns"].append(torch.full((r,), reward - 0.5))
            rd["response_lengths"].append(r)
            rd["total_lengths"].append(p + r)
            rd["sample_indices"].append(index)
            rd["rewards"].append(reward)
            rd["raw_reward"].append(reward)
            rd["truncated"].append(0)
        save_debug_train_data_for_rank(args, rollout_id=0, rollout_data=rd, rank=rank)


def load(paths):
    import numpy as np

    seconds = cpu = 0.0
    total, n = 0.0, 0
    for path in paths:
        t, c = time.perf_counter(), time.process_time()
        pack = torch.load(path, map_location="cpu")
        seconds, cpu = seconds + time.perf_counter() - t, cpu + time.process_time() - c
        rd = pack["rollout_data"]
        for mask, a, b in zip(rd["loss_masks"], rd["log_probs"], rd["rollout_log_probs"]):
            d = np.abs((a - b).numpy()).astype(np.float64)[mask.numpy() == 1]
            total += float(d.sum())
            n += d.size
        del pack, rd
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "tokens": n, "mean": total / max(n, 1), "torch": torch.__version__}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 4096, int(sys.argv[5]) if len(sys.argv) > 5 else 4,
              int(sys.argv[6]) if len(sys.argv) > 6 else 47)
    elif sys.argv[1] == "drift":
        drift(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]) if len(sys.argv) > 6 else 47)
    else:
        load(sys.argv[2:])
