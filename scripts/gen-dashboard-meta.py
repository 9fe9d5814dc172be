#!/usr/bin/env python3
"""Writes test/fixtures/real/miles/dashboard-meta/: the `{dump_details}/dashboard/meta.json` that miles
main 31f1ca9's dashboard collector writes at start (`--use-miles-dashboard`), made by miles' own code:
`collector_config_from_args` (miles/dashboard/args.py) takes its `args` snapshot from the run's
arguments (`_SNAPSHOT_KEYS`, which hold `hf_checkpoint`), and `DashboardCollector.__init__`
(collector.py) writes it with `MetricStore.write_meta` (store.py). Rollout Lens reads `hf_checkpoint`
from it to find the run's tokenizer (core/tokenizer/runTokenizer.ts).

The arguments are a stub namespace with the keys miles' parser gives (the values of a small Qwen3 run);
`hf_checkpoint` is the placeholder /models/Qwen3-0.6B (tests copy the file and point it at a checkpoint
folder of their own). `start_ts` is fixed, so the file is the same on every run. Nothing is stubbed but
polars (the store's reader side needs it; writing meta.json does not), which Debian 12 does not package.

Run from the repository root with a Python 3.11 that has numpy (Debian's python3-numpy, or
/tmp/stock-venv/bin/python on the shared machine):
  git -C <miles mirror> archive HEAD miles | tar -x -C /tmp/fx/miles
  $PY scripts/gen-dashboard-meta.py /tmp/fx/miles
"""
import json
import os
import sys
from argparse import Namespace
from unittest import mock

MILES = sys.argv[1]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "fixtures", "real", "miles", "dashboard-meta")
sys.path.insert(0, MILES)
sys.modules["polars"] = mock.MagicMock(name="polars")

from miles.dashboard.args import collector_config_from_args  # noqa: E402
from miles.dashboard.collector import DashboardCollector  # noqa: E402

dump = os.path.join(OUT, "dump")
args = Namespace(
    dump_details=dump,
    wandb_group="qwen3-0.6b-grpo",
    wandb_team=None,
    wandb_project="miles",
    wandb_run_id=None,
    wandb_host=None,
    colocate=True,
    num_gpus_per_node=8,
    actor_num_nodes=1,
    actor_num_gpus_per_node=8,
    rollout_num_gpus=8,
    rollout_num_gpus_per_engine=1,
    rollout_batch_size=32,
    n_samples_per_prompt=8,
    rollout_max_response_len=8192,
    hf_checkpoint="/models/Qwen3-0.6B",
    sglang_max_running_requests=None,
    sglang_mem_fraction_static=0.7,
    sglang_load_balance_method=None,
    use_miles_router=False,
    router_dp_aware=False,
    router_policy=None,
    sglang_router_policy=None,
    router_assignment_mode=None,
    dashboard_sglang_metrics=None,
    dashboard_flush_interval=5.0,
    dashboard_gpu_sample_interval=1.0,
    dashboard_sglang_scrape_interval=2.0,
    dashboard_sglang_scrape_mode="auto",
    dashboard_forward_prometheus=False,
)
config = collector_config_from_args(args, start_ts=1796000000.0)
DashboardCollector(config)  # writes {dump_details}/dashboard/meta.json; its threads start only in start()
path = os.path.join(dump, "dashboard", "meta.json")
with open(path) as f:
    meta = json.load(f)
with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(
        {
            "writer": "miles main 31f1ca9: collector_config_from_args, DashboardCollector.__init__ (MetricStore.write_meta)",
            "file": "dump/dashboard/meta.json",
            "hf_checkpoint": meta["args"]["hf_checkpoint"],
            "args": sorted(meta["args"]),
        },
        f,
        indent=1,
    )
    f.write("\n")
print(f"wrote {path}")
