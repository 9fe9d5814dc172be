#!/usr/bin/env python3
"""Writes test/fixtures/real/: files produced by verl's and miles' own writer code, and the metrics
their own metric functions compute on the same data (expected.json beside each file).

What it needs: Python 3.11 with torch, numpy and omegaconf (verl's trainer imports it). On Debian 12
these are the packages python3-torch, python3-numpy and python3-omegaconf; /usr/bin/python3 on the
shared machine has the first two only, so run it with a Python that has all three (there:
/tmp/stock-venv/bin/python, a venv with torch 2.13.0+cpu, numpy 2.4.6, omegaconf 2.3.1, safetensors
0.8.0; Debian's torch 1.13.1 and numpy 1.24.2 with omegaconf 2.3.1 write the same files byte for
byte). Two modes need more: --only-compact (and main(), which ends with it) imports miles'
session codec, which needs safetensors (not packaged by Debian 12: install it into the venv), and
--only-tensors needs the real sympy (python3-sympy), which the other modes stub. Nothing else is
installed: every other package the extractions import is stubbed below.

Run from the repository root (docs/framework-files.md has the whole recipe); PY is that Python:
  git -C <verl mirror> archive HEAD verl | tar -x -C /tmp/fx/verl
  git -C <miles mirror> archive HEAD miles | tar -x -C /tmp/fx/miles
  $PY scripts/gen-real-fixtures.py /tmp/fx/verl /tmp/fx/miles
  (append --only-repetition to write only miles' rollout_5 / rollout_6 files and their .pt dumps,
  --only-lengths only rollout_71 / eval_171 and theirs: long loss masks, --only-tensors only
  miles/tensors/: tensors of every dtype and miles' train_data dump, scripts/tensor_fixtures.py,
  --only-compact only rollout_20 / rollout_21 and theirs: compact / sub-agent rollouts, and eval_120 /
  eval_121: compact rollouts in an eval step, --only-stock the stock configurations, --only-span-versions
  the span-dict weight_versions, --only-mismatch only miles/mismatch/: a dump folder whose train_data
  holds the trainer's and the rollout's log-probs, with what miles logs from them, miles/drift/ and
  miles/mismatch-gate/: a drifting run, and two runs whose mismatch differs, scripts/mismatch_fixtures.py)
  git -C <verl-project verl mirror, 1dda039> archive HEAD verl | tar -x -C /tmp/fx/verl1
  $PY scripts/gen-real-fixtures.py --verl-v1 /tmp/fx/verl1
  git -C <THUDM/slime mirror, 624b824> archive HEAD slime | tar -x -C /tmp/fx/slime
  $PY scripts/gen-real-fixtures.py --slime /tmp/fx/slime
The files are written to test/fixtures/real/ beside this script, whatever the working directory.

Nothing here is framework code: the frameworks' functions are imported from the extraction (or, for
verl trainer methods that cannot be imported without a cluster, their source is read from
ray_trainer.py and executed as is). Only what is not a writer is stubbed: ray, tracking, tokenizers,
and the packages the extraction's imports name but this machine lacks (tensordict, transformers, ...);
DataProto is replaced by a small stand-in with the same batch / non_tensor_batch / reorder behaviour.
"""
import ast
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import sys
import tempfile
import textwrap
from types import SimpleNamespace
from unittest import mock

# `--verl-v1 <extraction>`: only the v1 trainer fixture, from a verl that has verl/trainer/ppo/v1
# (the legacy mirror has none); it runs in its own process so the two verl trees never mix.
V1_MODE = sys.argv[1] == "--verl-v1"
VERL, MILES = (sys.argv[2], "") if V1_MODE else (sys.argv[1], sys.argv[2])
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "fixtures", "real")
STUB = ("ray", "tensordict", "transformers", "wandb", "swanlab", "codetiming", "torchdata", "datasets", "peft",
        "hydra", "pyarrow", "packaging", "accelerate", "mlflow", "tensorboard", "vllm", "sglang", "liger_kernel", "flash_attn",
        "miles.utils.misc", "miles.utils.tracking_utils", "miles.utils.processing_utils", "miles.utils.data",
        "miles.utils.audit_utils", "huggingface_hub", "pydantic", "pybase64", "aiohttp", "httpx", "uvicorn", "fastapi", "requests", "sglang_router", "megatron", "pylatexenc", "sympy")

if "--only-tensors" in sys.argv or "--only-mismatch" in sys.argv:  # miles' loss math imports torch.fx, which needs the real sympy
    STUB = tuple(s for s in STUB if s != "sympy")
if "--only-mismatch" in sys.argv:  # miles' training log utilities import psutil for memory figures
    STUB += ("psutil",)

if V1_MODE:  # the newer metric_utils imports model helpers that subclass transformers' classes
    STUB += ("verl.utils.model",)


class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if any(name == s or name.startswith(s + ".") for s in STUB):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        m = mock.MagicMock(name=spec.name)
        m.__path__, m.__spec__, m.__name__ = [], spec, spec.name
        return m

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Stubs())
sys.path[:0] = [VERL] if V1_MODE else [VERL, MILES]

import numpy as np  # noqa: E402
import torch  # noqa: E402


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1, sort_keys=True, allow_nan=True)
        f.write("\n")


def method_source(path, cls_method_names):
    """Source of the named methods of ray_trainer.py, dedented, to exec as plain functions."""
    src = open(path).read()
    tree = ast.parse(src)
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in cls_method_names and node.name not in out:
            out[node.name] = textwrap.dedent(ast.get_source_segment(src, node))
    return out


# ---------------------------------------------------------------- verl
PAD, EOS = 0, 2  # token ids; EOS is a special token the decoder skips


class Tok:
    """Stub tokenizer: token t > 2 decodes to chr(ord('a') + t - 3); PAD and EOS are special."""
    eos_token = "</s>"
    eos_token_id = EOS
    pad_token_id = PAD

    def decode(self, ids, skip_special_tokens=True):
        ids = ids.tolist() if hasattr(ids, "tolist") else list(ids)
        return "".join(chr(ord("a") + t - 3) for t in ids if not (skip_special_tokens and t in (PAD, EOS)))

    def batch_decode(self, rows, skip_special_tokens=True):
        return [self.decode(r, skip_special_tokens) for r in rows]


class Item:
    def __init__(self, batch, non_tensor_batch):
        self.batch, self.non_tensor_batch = batch, non_tensor_batch


class Proto:
    """Stand-in for verl's DataProto: the fields and reorder() the writer path uses."""

    def __init__(self, batch, non_tensor_batch, meta_info=None):
        self.batch, self.non_tensor_batch, self.meta_info = batch, non_tensor_batch, meta_info or {}

    def select_idxs(self, mask):  # DataProto.select_idxs with a boolean mask
        m = torch.as_tensor(mask)
        return Proto({k: v[m] for k, v in self.batch.items()},
                     {k: v[np.asarray(mask)] for k, v in self.non_tensor_batch.items()}, self.meta_info)

    def __len__(self):
        return next(iter(self.batch.values())).shape[0]

    def __getitem__(self, i):
        return Item({k: v[i] for k, v in self.batch.items()}, {k: v[i] for k, v in self.non_tensor_batch.items()})

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def reorder(self, indices):  # DataProto.reorder: tensors and non-tensors alike
        idx = indices.numpy()
        self.batch = {k: v[indices] for k, v in self.batch.items()}
        self.non_tensor_batch = {k: v[idx] for k, v in self.non_tensor_batch.items()}


def encode(text):
    return [ord(c) - ord("a") + 3 for c in text]


def make_batch(rows, prompt_len=6, resp_len=8):
    """rows: (prompt text, response token ids, ground truth, data source, uid)."""
    prompts, responses, masks = [], [], []
    for prompt, resp, *_ in rows:
        p = encode(prompt)
        prompts.append([PAD] * (prompt_len - len(p)) + p)
        responses.append(resp + [PAD] * (resp_len - len(resp)))
        masks.append([0] * (prompt_len - len(p)) + [1] * len(p) + [1] * len(resp) + [0] * (resp_len - len(resp)))
    t = lambda x, dt=torch.long: torch.tensor(x, dtype=dt)  # noqa: E731
    batch = {
        "prompts": t(prompts),
        "responses": t(responses),
        "attention_mask": t(masks),
        "input_ids": torch.cat([t(prompts), t(responses)], dim=1),
    }
    batch["response_mask"] = batch["attention_mask"][:, prompt_len:]
    nt = {
        "reward_model": np.array([{"ground_truth": gt, "style": "rule"} for _, _, gt, _, _ in rows], dtype=object),
        "data_source": np.array([ds for *_, ds, _ in rows], dtype=object),
        "uid": np.array([uid for *_, uid in rows], dtype=object),
        "extra_info": np.array([{} for _ in rows], dtype=object),
    }
    return Proto(batch, nt)


def dapo_score(data_source, solution_str, ground_truth, extra_info=None):
    """A DAPO-style compute_score: returns its own `score` (the raw correctness, ±1) with acc and pred."""
    acc = solution_str.startswith(ground_truth) and solution_str != ""
    return {"score": 1.0 if acc else -1.0, "acc": acc, "pred": solution_str[:2]}


def dapo_manager():
    """verl's DAPORewardManager class, its source executed as is. Importing verl.workers pulls in
    transformers; the base class is reduced to the one hook the class calls (no rm_scores here)."""
    path = os.path.join(VERL, "verl/workers/reward_manager/dapo.py")
    src = open(path).read()
    node = next(n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "DAPORewardManager")
    base = type("AbstractRewardManager", (), {"_extract_reward_from_rm_scores": lambda self, data, rd: None})
    ns = {"torch": torch, "defaultdict": __import__("collections").defaultdict, "DataProto": Proto,
          "AbstractRewardManager": base, "register": lambda name: (lambda c: c), "default_compute_score": None}
    exec(ast.get_source_segment(src, node).replace("@register(\"dapo\")\n", ""), ns)  # noqa: S102
    return ns["DAPORewardManager"]


def verl_legacy_trainer(global_steps):
    """verl's legacy trainer methods the writers run (their source executed as written, in `ns`) and
    a trainer for them: two data-parallel ranks, the stub tokenizer (also scripts/audit-metrics.py's)."""
    from verl.trainer.ppo import metric_utils
    from verl.utils import seqlen_balancing

    srcs = method_source(os.path.join(VERL, "verl/trainer/ppo/ray_trainer.py"),
                         {"_dump_generations", "_balance_batch", "_log_rollout_data", "_val_metrics_update"})
    ns = {"os": os, "json": json, "torch": torch, "np": np, "DataProto": Proto,
          "marked_timer": __import__("contextlib").contextmanager(lambda *a, **k: (yield)),
          "calculate_workload": seqlen_balancing.calculate_workload,
          "get_seqlen_balanced_partitions": seqlen_balancing.get_seqlen_balanced_partitions,
          "log_seqlen_unbalance": seqlen_balancing.log_seqlen_unbalance,
          "process_validation_metrics": metric_utils.process_validation_metrics}
    for s in srcs.values():
        exec(s, ns)  # noqa: S102 - verl's own method bodies, run as written
    cfg = SimpleNamespace(actor_rollout_ref=SimpleNamespace(actor={"ppo_mini_batch_size": 8}))
    trainer = SimpleNamespace(tokenizer=Tok(), global_steps=global_steps, config=cfg, use_prefix_grouper=False,
                              _get_dp_size=lambda wg, role: 2, actor_rollout_wg=None)
    for name in ("_dump_generations",):
        setattr(trainer, name, ns[name].__get__(trainer))
    return ns, trainer


def verl_legacy(out_dir):
    from verl.trainer.ppo import metric_utils
    DAPORewardManager = dapo_manager()

    ns, trainer = verl_legacy_trainer(12)

    # ---- training step: 4 prompts x 4, rows reordered by _balance_batch before they are written.
    # Prompt "ab" answers "x"; prompt "cd" answers "y"; ... Response token lists: a correct answer
    # starts with the ground truth. [] is an empty (aborted) response; [EOS] decodes to "" too.
    X = encode("x")
    rows = []
    plan = {
        "ab": ("x", [X + encode("q") + [EOS], encode("zz") + [EOS], X + [EOS], encode("zzzzzzz")]),
        "cd": ("y", [[], encode("y") + [EOS], [EOS], encode("yyyyyy") + [EOS]]),
        "ef": ("x", [X + [EOS], X + encode("xx") + [EOS], encode("q") + [EOS], X + encode("xxxxxx")]),
        "gh": ("z", [encode("z") + [EOS], [], encode("zzzzzzz") + [EOS], encode("z") + [EOS]]),
    }
    for p, (gt, resps) in plan.items():
        for r in resps:
            rows.append((p, r, gt, "math_dapo", f"uid-{p}"))
    batch = make_batch(rows)
    metrics = {}
    ns["_balance_batch"](trainer, batch, metrics)
    order = [str(u) for u in batch.non_tensor_batch["uid"]]
    cfg_overlong = SimpleNamespace(enable=True, len=4, penalty_factor=1.0, log=True)
    rm = DAPORewardManager(tokenizer=Tok(), num_examine=0, compute_score=dapo_score, max_resp_len=8,
                           overlong_buffer_cfg=cfg_overlong)
    with mock.patch("builtins.print"):
        res = rm(batch, return_dict=True)
    extra = {k: [v.item() if torch.is_tensor(v) else v for v in vs] for k, vs in res["reward_extra_info"].items()}
    batch.batch["token_level_scores"] = res["reward_tensor"]
    batch.batch["token_level_rewards"] = res["reward_tensor"]
    batch.batch["advantages"] = torch.zeros_like(res["reward_tensor"])
    batch.batch["returns"] = torch.zeros_like(res["reward_tensor"])
    with tempfile.TemporaryDirectory() as d:
        with mock.patch("builtins.print"):
            ns["_log_rollout_data"](trainer, batch, extra, {}, d)
        shutil.copy(os.path.join(d, "12.jsonl"), os.path.join(out_dir, "rollout", "12.jsonl"))
    m = metric_utils.compute_data_metrics(batch, use_critic=False)
    keep = ("critic/score/", "critic/rewards/", "response/aborted_ratio", "response_length/")
    write_json(os.path.join(out_dir, "rollout", "12.expected.json"), {
        "writer": "verl ray_trainer._balance_batch + DAPORewardManager + _log_rollout_data/_dump_generations",
        "metrics_by": "verl.trainer.ppo.metric_utils.compute_data_metrics",
        "row_uids_in_file_order": order,
        "metrics": {k: v for k, v in m.items() if k.startswith(keep)},
    })

    # ---- validation step: rows as _validate collects them (repeat interleave, no reordering), dumped
    # by _dump_generations; the dump has no uid and no data_source, the metrics had both.
    vrows, sources = [], []
    vplan = [("ab", "x", "gsm8k", [X, X, encode("q"), X]), ("cd", "y", "gsm8k", [encode("y"), [], encode("q"), encode("q")]),
             ("ef", "x", "aime", [encode("q"), encode("q"), encode("q"), X]), ("gh", "z", "aime", [encode("z")] * 4)]
    for p, gt, ds, resps in vplan:
        for r in resps:
            vrows.append((p, r + [EOS] if r else r, gt, ds, f"v-{p}"))
    vb = make_batch(vrows)
    with mock.patch("builtins.print"):
        vres = DAPORewardManager(tokenizer=Tok(), num_examine=0, compute_score=dapo_score, max_resp_len=8,
                                 overlong_buffer_cfg=SimpleNamespace(enable=False, len=4))(vb, return_dict=True)
    scores = vres["reward_tensor"].sum(-1).cpu().tolist()
    infos = {"reward": list(scores)}
    for k, vs in vres["reward_extra_info"].items():
        infos[k] = list(vs)
    inputs = Tok().batch_decode(vb.batch["prompts"])
    outputs = [Tok().decode(ids) for ids in vb.batch["responses"]]
    gts = [it.non_tensor_batch["reward_model"]["ground_truth"] for it in vb]
    trainer.global_steps = 20
    with tempfile.TemporaryDirectory() as d:
        with mock.patch("builtins.print"):
            trainer._dump_generations(inputs, outputs, gts, scores, infos, d)
        shutil.copy(os.path.join(d, "20.jsonl"), os.path.join(out_dir, "validation", "20.jsonl"))
    uids = list(vb.non_tensor_batch["uid"])
    per_source = ns["_val_metrics_update"](trainer, np.array(vb.non_tensor_batch["data_source"]), uids, infos, [])
    combined = ns["_val_metrics_update"](trainer, np.array([COMBINED] * len(uids)), uids, infos, [])
    write_json(os.path.join(out_dir, "validation", "20.expected.json"), {
        "writer": "verl ray_trainer._dump_generations with the lists _validate collects",
        "metrics_by": "verl ray_trainer._val_metrics_update (process_validation_metrics)",
        "run_time_metrics_per_data_source": {k: v for k, v in per_source.items() if "/mean@" in k or "/std@" in k},
        "combined_metrics": {k: v for k, v in combined.items() if "/mean@" in k or "/std@" in k},
    })
    return ns, trainer


COMBINED = "(all data sources)"


def verl_v1(out_dir):
    """v1 trainer validation dump, written by verl's own v1/trainer_base.py (verl-project/verl 1dda039):
    _validate, _dump_generations/_write_generations and _val_metrics_update run as written (their
    source executed as plain functions, like ray_trainer.py's above). Stubbed: the TransferQueue
    client (an in-memory store holding the rows built here), the agent loop (puts those rows), the
    replay buffer (hands back the keys in completion order), the tokenizer, and uuid4 (fixed ids so
    the fixture is reproducible)."""
    import uuid as uuid_mod
    from collections import defaultdict
    from concurrent.futures import ThreadPoolExecutor
    from omegaconf import OmegaConf
    from verl.trainer.ppo.metric_utils import process_validation_metrics

    path = os.path.join(VERL, "verl/trainer/ppo/v1/trainer_base.py")
    names = ("_validate", "_maybe_log_val_generations", "_write_generations", "_dump_generations",
             "_init_dump_executor", "_shutdown_dump_executor", "_val_metrics_update")
    srcs = method_source(path, names)
    srcs["_write_generations"] = srcs["_write_generations"].replace("@staticmethod\n", "")

    RESP = 8

    class Nested:  # a nested (ragged) tensor field as TransferQueue returns it
        def __init__(self, rows):
            self.rows = rows

        def to_padded_tensor(self, padding):
            return torch.tensor([r + [padding] * (RESP - len(r)) for r in self.rows], dtype=torch.long)

    class Store:
        """In-memory TransferQueue: key -> fields, per partition."""

        def __init__(self):
            self.rows, self.puts, self.cleared = {}, [], []

        def kv_batch_put(self, keys, partition_id, tags=None, fields=None):
            self.puts.append((list(keys), partition_id))
            for k, f in zip(keys, fields or [None] * len(keys)):
                if f is not None:  # tensors (verl's padding rows) kept as lists, like the rows built here
                    self.rows[(partition_id, k)] = {n: v.tolist() if torch.is_tensor(v) else v for n, v in f.items()}

        def kv_batch_get(self, keys, partition_id, select_fields=None):
            got = [self.rows[(partition_id, k)] for k in keys]
            if select_fields is None:  # one sample's fields, as padding_utils reads its template
                return [{n: torch.tensor(v) if n in ("prompts", "responses", "rm_scores") else v for n, v in g.items()}
                        for g in got]
            if "response_mask" in select_fields:  # _compute_metrics' read: a TensorDict of nested fields
                return MetricData(got, select_fields)
            out = {}
            for f in select_fields:
                vals = [g.get(f) for g in got]
                if f in ("prompts", "responses"):
                    out[f] = Nested(vals)
                elif f == "rm_scores":
                    out[f] = torch.tensor([v + [0.0] * (RESP - len(v)) for v in vals], dtype=torch.float32)
                else:
                    out[f] = np.array(vals + [None], dtype=object)[:-1]  # object array, dicts kept whole
            return out

        def kv_clear(self, keys, partition_id):
            self.cleared.extend(keys)
            for k in keys:
                self.rows.pop((partition_id, k), None)

    class Ragged:
        """A nested (jagged) tensor field: offsets() as torch's jagged layout gives them."""

        def __init__(self, rows):
            self.rows = rows

        def offsets(self):
            return torch.tensor([0] + list(np.cumsum([len(r) for r in self.rows])), dtype=torch.long)

        def tolist(self):
            return list(self.rows)

    class MetricData(dict):
        """What TransferQueue gives _compute_metrics: per-token fields nested (one row per sample),
        padded to the widest row by to_padded_tensor(). Per-token fields the trainer would have written
        (response_mask, advantages, returns) are derived here: a 1 per response token (verl's padding
        rows keep their own mask), zero advantages and returns. Fields no stage wrote are absent (no
        critic: no values; no KL in the reward: no token_level_rewards)."""

        def __init__(self, got, select_fields):
            super().__init__()
            for f in select_fields:
                if f == "num_turns":
                    self[f] = Ragged([g["num_turns"] for g in got])
                elif f in ("prompts", "responses", "rm_scores"):
                    self[f] = Ragged([g[f] for g in got])
                elif f == "response_mask":
                    self[f] = Ragged([g.get("response_mask", [1] * len(g["responses"])) for g in got])
                elif f in ("advantages", "returns"):
                    self[f] = Ragged([[0.0] * len(g["responses"]) for g in got])

        def to_padded_tensor(self):
            width = max(RESP, *(len(r) for r in self["responses"].rows))
            out = {}
            for f, v in self.items():
                fill = PAD if f in ("prompts", "responses") else 0
                wide = width if f != "prompts" else max(len(r) for r in v.rows)
                dt = torch.long if f in ("prompts", "responses", "response_mask") else torch.float32
                out[f] = torch.tensor([list(r) + [fill] * (wide - len(r)) for r in v.rows], dtype=dt)
            return out

    store = Store()

    # Two validation batches. prompt -> (ground truth, {session: [output texts]}); a session with
    # several outputs (multi-output agent loop) is scored per output, verl keeps the last.
    # None = an aborted output (no response tokens); "<eos>" = a response of only the end token.
    batches = [
        [("pa", "x", {0: ["x"], 1: ["q", "x"], 2: ["q"], 3: ["x"]}),
         ("pb", "y", {0: ["q"], 1: ["q"], 2: ["y"], 3: ["q", "q", "y"]})],
        [("pc", "x", {0: ["x"], 1: [None], 3: ["x"]}),  # lost session 2; session 1 aborted
         ("pd", "z", {0: ["z"], 1: ["<eos>"], 2: ["z"], 3: ["z"]})],
    ]
    counter = iter(range(1, 1000))
    fixed_uuid = SimpleNamespace(uuid4=lambda: uuid_mod.UUID(int=next(counter) * 0x1000100010001))
    pending = {}

    class AgentLoop:
        def generate_sequences(self, batch):
            keys, fields = [], []
            for uid, prompt in zip(batch["uid"], batch["raw_prompt"]):
                gt, sessions = plan[prompt]
                for s, outs in sessions.items():
                    for i, o in enumerate(outs):
                        resp = [] if o is None else ([EOS] if o == "<eos>" else encode(o) + [EOS])
                        text = "" if o in (None, "<eos>") else o
                        sc = dapo_score("gsm8k", text, gt)
                        rm = [0.0] * RESP
                        rm[max(len(resp) - 1, 0)] = sc["score"]
                        keys.append(f"{uid}_{s}_{i}")
                        fields.append({"uid": uid, "prompts": encode(prompt), "responses": resp, "rm_scores": rm,
                                       "num_turns": 2 * (i + 1), "reward_model": {"ground_truth": gt, "style": "rule"},
                                       "data_source": "gsm8k",
                                       "extra_fields": {"reward_extra_info": {"acc": sc["acc"], "pred": sc["pred"]}}})
            store.kv_batch_put(keys, "val", fields=fields)
            # sessions finish out of order: the replay buffer hands keys back in completion order
            pending["keys"] = keys[1::2] + keys[0::2]

    class Replay:
        def sample(self, global_steps, partition_id, batch_size):
            return SimpleNamespace(keys=pending.pop("keys"), partition_id=partition_id), None

    class TD:  # what tu.get_tensordict gives _validate: len() is the number of prompts
        def __init__(self, d):
            self.d = d

        def __len__(self):
            return len(self.d["raw_prompt"])

        def __getitem__(self, k):
            return self.d[k]

    plan = {p: (gt, sess) for b in batches for p, gt, sess in b}
    dump_dir = tempfile.mkdtemp()
    ns = {"np": np, "torch": torch, "defaultdict": defaultdict, "json": json, "os": os, "uuid": fixed_uuid,
          "tq": store, "tu": SimpleNamespace(get_tensordict=TD, assign_non_tensor_data=lambda b, k, v: None),
          "process_validation_metrics": process_validation_metrics, "ThreadPoolExecutor": ThreadPoolExecutor,
          "Any": object, "Optional": object}
    for s in srcs.values():
        exec(s, ns)  # noqa: S102 - verl's own method bodies, run as written
    cfg = OmegaConf.create({"trainer": {"validation_data_dir": dump_dir, "log_val_generations": 0}})
    trainer = SimpleNamespace(
        tokenizer=Tok(), global_steps=30, config=cfg,
        val_dataloader=[{"raw_prompt": np.array([p for p, _, _ in b], dtype=object)} for b in batches],
        agent_loop_manager=AgentLoop(), replay_buffer=Replay(),
        reward_loop_manager=SimpleNamespace(reward_loop_worker_handles=["reward worker"]))
    for name in names:
        setattr(trainer, name, ns[name].__get__(trainer))
    trainer._write_generations = ns["_write_generations"]
    trainer._init_dump_executor()
    with mock.patch("builtins.print"):
        run_time = trainer._validate()
        trainer._shutdown_dump_executor()
    assert not store.rows, "every key cleared"
    os.makedirs(os.path.join(out_dir, "validation-v1"), exist_ok=True)
    shutil.copy(os.path.join(dump_dir, "30.jsonl"), os.path.join(out_dir, "validation-v1", "30.jsonl"))
    shutil.rmtree(dump_dir)
    run_time = {k: float(v) if isinstance(v, (np.floating, np.integer)) else v for k, v in run_time.items()}
    # One data source in this run, so the combined figure the engine reports is verl's own under
    # the combined name.
    combined = {k.replace("/gsm8k/", f"/{COMBINED}/"): v for k, v in run_time.items()
                if "/mean@" in k or "/std@" in k}
    write_json(os.path.join(out_dir, "validation-v1", "30.expected.json"), {
        "writer": "verl-project/verl 1dda039 verl/trainer/ppo/v1/trainer_base.py _validate + _dump_generations/_write_generations",
        "metrics_by": "the same _validate's return value (_val_metrics_update, process_validation_metrics)",
        "n": 4,
        "run_time_metrics": run_time,
        "combined_metrics": combined,
    })

    # ---- v1 training rollout dump: _log_rollout_data fetches the step's keys from TransferQueue and
    # writes them sorted by (prompt uid, session, output), each row with its own output's score.
    import contextlib
    rsrc = method_source(path, ("_log_rollout_data",))["_log_rollout_data"]
    ns["marked_timer"] = lambda name, timing, color=None: contextlib.nullcontext()
    ns["KVBatchMeta"] = object
    exec(rsrc, ns)  # noqa: S102 - verl's own method body, run as written
    trainer._log_rollout_data = ns["_log_rollout_data"].__get__(trainer)
    # The step as fit() runs it: _balance_batch (verl's upsample_batch_to_divisible_size adds padding
    # rows, `pad<hex>_<i>_0`, so the batch divides by the mini-batch multiple, then reorders), then
    # _compute_metrics (compute_data_metrics over the rows that are not padding), then
    # _log_rollout_data over the same batch (padding rows included).
    from verl.trainer.ppo import padding_utils
    from verl.trainer.ppo.metric_utils import compute_data_metrics, compute_moe_lb_metrics, \
        get_metric_data_with_optional_routed_experts
    from verl.utils import seqlen_balancing

    class KVBatchMeta:
        def __init__(self, keys, tags, partition_id, fields=None, extra_info=None):
            self.keys, self.tags, self.partition_id, self.fields, self.extra_info = keys, tags, partition_id, fields, extra_info

        def __len__(self):
            return len(self.keys)

        def reorder(self, indices):
            self.keys = [self.keys[i] for i in indices]
            self.tags = [self.tags[i] for i in indices]

    padding_utils.tq = store
    padding_utils.KVBatchMeta = KVBatchMeta
    padding_utils.list_of_dict_to_tensordict = list
    padding_utils.uuid = fixed_uuid
    msrc = method_source(path, ("_balance_batch", "_get_required_batch_multiple", "_compute_metrics"))
    ns.update({"upsample_batch_to_divisible_size": padding_utils.upsample_batch_to_divisible_size,
               "calculate_workload": seqlen_balancing.calculate_workload,
               "get_seqlen_balanced_partitions": seqlen_balancing.get_seqlen_balanced_partitions,
               "log_seqlen_unbalance": seqlen_balancing.log_seqlen_unbalance, "math": __import__("math"),
               "get_metric_data_with_optional_routed_experts": get_metric_data_with_optional_routed_experts,
               "compute_moe_lb_metrics": compute_moe_lb_metrics, "compute_data_metrics": compute_data_metrics,
               "DataProto": lambda batch, meta_info: Proto(batch, {}, meta_info),
               # timings, throughput and the gradient's variance proxy: not data of the dump
               "compute_timing_metrics": lambda batch, timing_raw: {},
               "compute_throughout_metrics": lambda batch, timing_raw, n_gpus: {},
               "compute_variance_proxy_metrics": lambda batch, gradient_norm: {},
               "compute_spec_decode_metrics": lambda *a: {}})
    for s_ in msrc.values():
        exec(s_, ns)  # noqa: S102 - verl's own method bodies, run as written
    trainer.config = OmegaConf.create({"trainer": {"critic_warmup": 0},
                                       "actor_rollout_ref": {"actor": {"ppo_mini_batch_size": 1}, "rollout": {"n": 4},
                                                             "model": {}}})
    trainer.use_critic = False
    trainer.actor_rollout_wg = SimpleNamespace(_dispatch_info={"actor": [0, 1]})  # 2 data-parallel ranks
    trainer._rollout_moe_lb_metrics_accumulator = None
    trainer._get_n_gpus_for_throughput = lambda: 2
    for name in ("_balance_batch", "_get_required_batch_multiple", "_compute_metrics"):
        setattr(trainer, name, ns[name].__get__(trainer))
    recomputable = ("critic/score/", "response/aborted_ratio")
    not_recomputable = sorted(k for k in compute_data_metrics(
        Proto({"token_level_scores": torch.zeros(1, 1), "token_level_rewards": torch.zeros(1, 1),
               "advantages": torch.zeros(1, 1), "returns": torch.zeros(1, 1), "prompts": torch.zeros(1, 1),
               "responses": torch.zeros(1, 1), "response_mask": torch.ones(1, 1),
               "prompt_length": torch.ones(1), "response_length": torch.ones(1)}, {}), use_critic=False)
        if not k.startswith(recomputable))

    # Step 40: a session with two outputs, an aborted output and an end-token-only one (both dump as
    # ""). Step 41: no end-token-only output, so the dump alone gives verl's figures.
    steps = {
        40: [("pa", "x", {0: ["x"], 1: ["q", "x"], 2: ["q"], 3: ["x"]}),
             ("pc", "x", {0: ["x"], 1: [None], 2: ["<eos>"], 3: ["q", "x"]})],
        41: [("pe", "y", {0: ["y"], 1: ["q", "q", "y"], 2: [None], 3: ["yy"]}),
             ("pf", "z", {0: ["q"], 1: ["z"], 2: ["q", "z"], 3: ["zq"]}),
             ("pg", "x", {0: ["x"], 1: ["x"], 2: ["x"], 3: ["q"]})],
    }
    for step, step_plan in steps.items():
        trainer.global_steps = step
        plan = {p: (gt, sess) for p, gt, sess in step_plan}
        AgentLoop().generate_sequences(TD({"uid": [str(fixed_uuid.uuid4()) for _ in step_plan],
                                           "raw_prompt": [p for p, _, _ in step_plan]}))
        keys = pending.pop("keys")
        tags = []
        for k in keys:
            row = store.rows[("val", k)]
            pl, rl = len(row["prompts"]), len(row["responses"])
            tags.append({"status": "success", "prompt_len": pl, "response_len": rl, "seq_len": pl + rl,
                         "global_steps": step, "min_global_steps": step - 1, "max_global_steps": step})
        batch = KVBatchMeta(keys=list(keys), tags=tags, partition_id="val", fields=None, extra_info={})
        step_metrics = {}
        batch = trainer._balance_batch(batch, metrics=step_metrics)
        trainer._compute_metrics(batch, step_metrics, {}, global_steps=step, epoch=0)
        logged = {k: float(v) if isinstance(v, (np.floating, np.integer)) else v for k, v in step_metrics.items()}

        dump_dir = tempfile.mkdtemp()
        trainer._init_dump_executor()
        with mock.patch("builtins.print"):
            trainer._log_rollout_data(batch, {}, dump_dir)
            trainer._shutdown_dump_executor()
        os.makedirs(os.path.join(out_dir, "rollout-v1"), exist_ok=True)
        shutil.copy(os.path.join(dump_dir, f"{step}.jsonl"), os.path.join(out_dir, "rollout-v1", f"{step}.jsonl"))
        shutil.rmtree(dump_dir)
        write_json(os.path.join(out_dir, "rollout-v1", f"{step}.expected.json"), {
            "writer": "verl-project/verl 1dda039 verl/trainer/ppo/v1/trainer_base.py _balance_batch (padding), "
                      "_log_rollout_data + _write_generations",
            "metrics_by": "the same commit's _compute_metrics (compute_data_metrics over the rows that are not padding)",
            "keys_in_completion_order": keys,
            "padding_keys": [k for k, t in zip(batch.keys, batch.tags) if t.get("is_padding")],
            "n": 4,
            "metrics": {k: v for k, v in logged.items() if k.startswith(recomputable)},
            "compute_data_metrics_not_recomputable": not_recomputable,
            "logged_by_compute_metrics": logged,
        })

# ---------------------------------------------------------------- miles
def miles_args():
    """The arguments miles' logging and filter functions read, as a GRPO run without custom hooks sets
    them (also scripts/audit-metrics.py's)."""
    return SimpleNamespace(custom_eval_rollout_log_function_path=None, custom_rollout_log_function_path=None,
                           log_passrate=True, n_samples_per_eval_prompt=1, n_samples_per_prompt=4,
                           advantage_estimator="grpo", sglang_speculative_algorithm=None, log_reward_category=None,
                           reward_key=None, eval_reward_key=None, use_session_server=None, ci_test=False,
                           wandb_always_use_train_step=False, load_debug_rollout_data=None,
                           save_debug_trajectory_data=None, rollout_num_gpus=None)


def miles_all(out_dir):
    from miles.ray.rollout import debug_data, metrics as mm
    from miles.rollout.filter_hub.dynamic_sampling_filters import check_no_aborted, check_reward_nonzero_std
    from miles.utils.types import Sample

    args = miles_args()
    logged = {}
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))

    def sample(i, prompt, resp, reward, status="completed", gi=None, wv=("3",), cache=(0, 0), loss_mask=True):
        s = Sample(group_index=gi, index=i, prompt=prompt, response=resp, response_length=len(resp), label="x",
                   reward=reward, status=Sample.Status(status), weight_versions=list(wv))
        s.tokens = list(range(4 + len(resp)))
        s.loss_mask = [1] * len(resp) if loss_mask else None
        s.prefix_cache_info.cached_tokens, s.prefix_cache_info.total_prompt_tokens = cache
        return s

    # ---- eval: two unnamed datasets back to back (index restarts), each dataset's own n.
    ds1 = []  # 3 prompts x 2
    for p in range(3):
        for j in range(2):
            i = p * 2 + j
            rew = [1, 0, 0, 0, 1, 1][i]
            ds1.append(sample(i, f"ds1 prompt {p}", "r" * (3 + i), float(rew), "truncated" if i == 3 else "completed",
                              wv=("3", "4") if i == 1 else ("4",), cache=(2, 10)))
    ds2 = []  # 2 prompts x 3, one aborted attempt (reward None)
    for p in range(2):
        for j in range(3):
            i = p * 3 + j
            rew = [1.0, 1.0, 1.0, None, 0.0, 1.0][i]
            ds2.append(sample(i, f"ds2 prompt {p}", "" if rew is None else "s" * (2 + i), rew,
                              "aborted" if rew is None else "completed", wv=() if rew is None else ("5",),
                              cache=(0, 0) if rew is None else (1, 4)))
    data = {name: {"rewards": [s.reward for s in d], "truncated": [s.status == Sample.Status.TRUNCATED for s in d],
                   "samples": d} for name, d in (("dataset 1", ds1), ("dataset 2", ds2))}
    args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    expected = {}
    for name, n in (("dataset 1", 2), ("dataset 2", 3)):
        args.n_samples_per_eval_prompt = n
        logged.clear()
        out = mm.log_eval_rollout_data(100, args, {name: data[name]})
        expected.update({k: v for k, v in out.items() if k != "eval/step"})
    debug_data.save_debug_rollout_data(args, data, rollout_id=100, evaluation=True)
    with open(os.path.join(out_dir, "eval", "eval_100.jsonl"), "w") as f:
        for d in (ds1, ds2):
            for s in d:
                f.write(json.dumps(s.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "eval", "eval_100.expected.json"), {
        "writer": "miles save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data, one call per dataset with its own n",
        "metrics": expected,
    })

    # ---- eval where every attempt aborted: miles main raises in its zero-std code.
    dead = [sample(i, "dead prompt", "", None, "aborted", wv=()) for i in range(2)]
    try:
        mm.log_eval_rollout_data(101, args, {"dead": {"rewards": [None, None], "truncated": [False, False],
                                                      "samples": dead}})
        crash = None
    except TypeError as e:
        crash = f"TypeError: {e}"
    with open(os.path.join(out_dir, "eval", "eval_101.jsonl"), "w") as f:
        for s in dead:
            f.write(json.dumps(s.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "eval", "eval_101.expected.json"), {
        "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data", "crash": crash})

    # ---- rollout: 5 groups of 4 (int and float rewards), filters and logged sample metrics.
    groups = {0: [1.0, 1.0, 1.0, 1.0], 1: [0.0, 0.0, 0.0, 0.0], 2: [1, 1, 1, 1], 3: [0.0, 1.0, 0.0, 1.0],
              4: [0.25, 0.25, 0.25, 0.25], 5: [0.0, 0.0, 0.0, 0.0]}
    train = []
    for g, rs in groups.items():
        for j, r in enumerate(rs):
            i = g * 4 + j
            st = "aborted" if (g == 5 and j == 2) else ("truncated" if i % 7 == 0 else "completed")
            train.append(sample(i, f"train prompt {g}", "t" * (1 + i % 5), r, st, gi=g,
                                wv=("7", "8") if i % 6 == 0 else ("8",), cache=(i % 3, 6)))
    drops = {}
    for g in groups:
        members = [s for s in train if s.group_index == g]
        for f in (check_no_aborted, check_reward_nonzero_std):
            o = f(args, members)
            if not o.keep:
                drops[f"rollout/dynamic_filter/drop_{o.reason}"] = drops.get(f"rollout/dynamic_filter/drop_{o.reason}", 0) + 1
                break
    logged.clear()
    args.log_passrate = False
    mm.log_rollout_data(1, args, train, drops, 10.0)
    debug_data.save_debug_rollout_data(args, train, rollout_id=1, evaluation=False)
    with open(os.path.join(out_dir, "rollout", "rollout_1.jsonl"), "w") as f:
        for s in train:
            f.write(json.dumps(s.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "rollout", "rollout_1.expected.json"), {
        "writer": "miles save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "miles check_no_aborted then check_reward_nonzero_std per group; miles.ray.rollout.metrics.log_rollout_data",
        "metrics": {k: v for k, v in logged.items() if k.startswith("rollout/")},
    })


def miles_edges(out_dir):
    """Python semantics the engine must copy: NaN never equals itself, int 1 equals 1.0 but rounds to
    "1", one-sample groups are zero-std, odd medians, mixed "3"/3 versions, a None loss_mask, a long
    repetitive response (zlib decides), and a completed group whose rewards are all None."""
    from miles.ray.rollout import metrics as mm
    from miles.utils.types import Sample

    args = SimpleNamespace(custom_rollout_log_function_path=None, load_debug_rollout_data=None, log_passrate=False,
                           advantage_estimator="grpo", sglang_speculative_algorithm=None, log_reward_category=None,
                           reward_key=None, use_session_server=None, ci_test=False, wandb_always_use_train_step=False,
                           rollout_num_gpus=None)
    logged = {}
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    plan = [(0, [float("nan"), float("nan")]), (1, [float("inf"), float("inf")]), (2, [0.25, 0.25, 0.25]),
            (3, [1, 1.0]), (4, [0.5, 0.0, 0.0]), (5, [0.7])]
    versions = [["3", 3], ["x", "5"], [], [2]]
    samples, i = [], 0
    for g, rs in plan:
        for r in rs:
            resp = "ab" * (3 + i)
            s = Sample(group_index=g, index=i, prompt=f"edge {g}", response=resp, response_length=len(resp),
                       reward=r, status=Sample.Status.COMPLETED, weight_versions=list(versions[i % 4]))
            s.loss_mask = None if i == 1 else ([1, 0, 1] if i == 2 else [1] * len(resp))
            s.prefix_cache_info.cached_tokens, s.prefix_cache_info.total_prompt_tokens = (i, 3 * i)
            samples.append(s)
            i += 1
    long_samples = samples + [Sample(group_index=9, index=i, prompt="long", response="abc" * 4000, response_length=12000,
                                     reward=0.0, status=Sample.Status.COMPLETED, weight_versions=["4"])]
    results = {}
    for name, batch in (("rollout_2", samples), ("rollout_4", long_samples)):
        logged.clear()
        mm.log_rollout_data(2, args, batch, {}, 10.0)
        results[name] = {k: v for k, v in logged.items() if k.startswith("rollout/") and k != "rollout/step"}
        with open(os.path.join(out_dir, "rollout", f"{name}.jsonl"), "w") as f:
            for x in batch:
                f.write(json.dumps(x.to_dict()) + "\n")
        write_json(os.path.join(out_dir, "rollout", f"{name}.expected.json"), {
            "writer": "Sample.to_dict() as JSON lines", "metrics_by": "miles.ray.rollout.metrics.log_rollout_data",
            "metrics": results[name]})
    dead = [Sample(group_index=0, index=k, prompt="p", response="r", response_length=1, reward=None,
                   status=Sample.Status.COMPLETED) for k in range(2)]
    try:
        mm.log_rollout_data(3, args, dead, {}, 10.0)
        crash = None
    except TypeError as e:
        crash = f"TypeError: {e}"
    with open(os.path.join(out_dir, "rollout", "rollout_3.jsonl"), "w") as f:
        for x in dead:
            f.write(json.dumps(x.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "rollout", "rollout_3.expected.json"), {
        "metrics_by": "miles.ray.rollout.metrics.log_rollout_data", "crash": crash})


def miles_span_versions(out_dir):
    """weight_versions as lists of span dicts (as a miles refactor branch writes them): miles' own
    Sample and save_debug_rollout_data; the engine names the field and its shape (field-shape)."""
    from miles.ray.rollout import debug_data
    from miles.utils.types import Sample
    samples = []
    for i in range(4):
        s = Sample(group_index=i // 2, index=i, prompt=f"span prompt {i // 2}", response="ab", response_length=2,
                   reward=float(i % 2), status=Sample.Status.COMPLETED, weight_versions=["3"])
        if i > 0:
            s.weight_versions = [{"version": "3", "start": 0, "end": 2}]
        samples.append(s)
    args = SimpleNamespace(save_debug_rollout_data=os.path.join(out_dir, "rollout_data", "{rollout_id}.pt"),
                           save_debug_trajectory_data=None)
    debug_data.save_debug_rollout_data(args, samples, rollout_id=7, evaluation=False)
    with open(os.path.join(out_dir, "rollout", "rollout_7.jsonl"), "w") as f:
        for s in samples:
            f.write(json.dumps(s.to_dict()) + "\n")


# ---------------------------------------------------------------- slime
# PIL and tqdm: imported by slime's rollout generation (slime_fanout_step), which uses neither here.
SLIME_STUB = ("slime.observability.logging_utils", "httpx", "sglang", "sglang_router", "PIL", "tqdm")


def slime_modules(slime_root):
    """slime's writer, metric and filter modules from its extraction (`--slime <extraction>`); only
    tracking (logging_utils: wandb & co.) and the HTTP / server packages its imports name are stubbed."""
    global STUB
    STUB += SLIME_STUB
    sys.path.insert(0, slime_root)
    from slime.observability import rollout_data_utils, rollout_metrics
    from slime.rollout.filter_hub import base_types, dynamic_sampling_filters
    from slime.utils.types import Sample
    return SimpleNamespace(data=rollout_data_utils, metrics=rollout_metrics, filters=dynamic_sampling_filters,
                           base=base_types, Sample=Sample)


def slime_args():
    """The arguments slime's logging and filter functions read, as a GRPO run without custom hooks sets them."""
    return SimpleNamespace(custom_eval_rollout_log_function_path=None, custom_rollout_log_function_path=None,
                           log_passrate=True, n_samples_per_eval_prompt=1, n_samples_per_prompt=4,
                           advantage_estimator="grpo", sglang_speculative_algorithm=None, log_reward_category=None,
                           reward_key=None, eval_reward_key=None, wandb_always_use_train_step=False,
                           load_debug_rollout_data=None, rollout_num_gpus=None)


def slime_sample(sl, i, prompt, resp, reward, status="completed", gi=None, wv=("3",), cache=(0, 0)):
    s = sl.Sample(group_index=gi, index=i, prompt=prompt, response=resp, response_length=len(resp), label="x",
                  reward=reward, status=sl.Sample.Status(status), weight_versions=list(wv))
    s.tokens = list(range(4 + len(resp)))
    s.loss_mask = [1] * len(resp)
    s.session_id = f"session-{i}"
    s.prefix_cache_info.cached_tokens, s.prefix_cache_info.total_prompt_tokens = cache
    return s


def slime_capture(sl):
    logged = {}
    sl.metrics.logging_utils = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    return logged


def slime_outcome(logged, call):
    logged.clear()
    try:
        out = call()
        return {"metrics": {k: v for k, v in (out if out is not None else logged).items() if not k.endswith("/step")},
                "crash": None}
    except Exception as e:  # noqa: BLE001 - slime's own exception is the expected value
        return {"metrics": None, "crash": f"{type(e).__name__}: {e}"}


def slime_drops(sl, args, samples):
    """slime's dynamic filter per group as generate_rollout_async runs it (call_dynamic_filter,
    should_drop_dynamic_filter_output, MetricGatherer); no check_no_aborted: slime has none."""
    gatherer = sl.base.MetricGatherer()
    for g in sorted({s.group_index for s in samples}):
        out = sl.base.call_dynamic_filter(sl.filters.check_reward_nonzero_std, args,
                                          [s for s in samples if s.group_index == g])
        if sl.base.should_drop_dynamic_filter_output(out, remaining_batch_size=10**9, target_data_size=1):
            gatherer.on_dynamic_filter_drop(reason=out.reason)
    return gatherer.collect()


def slime_all(out_dir, slime_root):
    """slime 624b824: its own .pt dumps (save_debug_rollout_data: {rollout_id, samples}, no metadata) and
    the same samples as Sample.to_dict() JSON lines; expected values from its log_rollout_data,
    log_eval_rollout_data and check_reward_nonzero_std (threshold 1e-6, no aborted-group filter)."""
    sl = slime_modules(slime_root)
    args = slime_args()
    logged = slime_capture(sl)
    for d in ("rollout", "eval", "rollout_data"):
        os.makedirs(os.path.join(out_dir, d), exist_ok=True)
    template = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")

    def write(rel, samples, expected):
        with open(os.path.join(out_dir, f"{rel}.jsonl"), "w") as f:
            for s in samples:
                f.write(json.dumps(s.to_dict()) + "\n")
        write_json(os.path.join(out_dir, f"{rel}.expected.json"), expected)

    # ---- rollout 1: rewards 4e-7 apart (std between miles' 1e-8 and slime's 1e-6: slime drops it),
    # an aborted sample that kept a reward (slime keeps its group), int and float rewards.
    groups = {0: [1.0, 1.0, 1.0, 1.0], 1: [0.0, 0.0, 0.0, 0.0], 2: [1, 1, 1, 1], 3: [0.0, 1.0, 0.0, 1.0],
              4: [0.5, 0.5 + 4e-7, 0.5, 0.5 + 4e-7], 5: [0.0, 1.0, 0.0, 0.0]}
    train = []
    for g, rs in groups.items():
        for j, r in enumerate(rs):
            i = g * 4 + j
            st = "aborted" if (g == 5 and j == 2) else ("truncated" if i % 7 == 0 else "completed")
            train.append(slime_sample(sl, i, f"train prompt {g}", "t" * (1 + i % 5), r, st, gi=g,
                                      wv=("7", "8") if i % 6 == 0 else ("8",), cache=(i % 3, 6)))
    drops = slime_drops(sl, args, train)
    args.log_passrate = False
    got = slime_outcome(logged, lambda: sl.metrics.log_rollout_data(1, args, train, drops, 10.0))
    sl.data.save_debug_rollout_data(template, train, rollout_id=1, evaluation=False)
    write("rollout/rollout_1", train, {
        "writer": "slime save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "slime check_reward_nonzero_std per group (MetricGatherer); slime log_rollout_data",
        "metrics": {k: v for k, v in got["metrics"].items() if k.startswith("rollout/")}})

    # ---- rollout 2: a group whose samples all aborted (reward None): slime keeps it, and its
    # zero-std count raises on round(None).
    dead = [slime_sample(sl, k, "p", "r", 1.0, gi=0) for k in range(2)] + \
           [slime_sample(sl, 2 + k, "q", "", None, "aborted", gi=1, wv=()) for k in range(2)]
    got = slime_outcome(logged, lambda: sl.metrics.log_rollout_data(2, args, dead, {}, 10.0))
    sl.data.save_debug_rollout_data(template, dead, rollout_id=2, evaluation=False)
    write("rollout/rollout_2", dead, {"metrics_by": "slime log_rollout_data", "crash": got["crash"]})

    # ---- eval 100: two datasets back to back, each with its own n.
    ds1 = [slime_sample(sl, i, f"ds1 prompt {i // 2}", "r" * (3 + i), float([1, 0, 0, 0, 1, 1][i]),
                        "truncated" if i == 3 else "completed", cache=(2, 10)) for i in range(6)]
    ds2 = [slime_sample(sl, i, f"ds2 prompt {i // 3}", "s" * (2 + i), [1.0, 1, 1.0, 0.0, 0.0, 1.0][i],
                        cache=(1, 4)) for i in range(6)]
    data = {name: {"rewards": [s.reward for s in d], "truncated": [s.status == sl.Sample.Status.TRUNCATED for s in d],
                   "samples": d} for name, d in (("dataset 1", ds1), ("dataset 2", ds2))}
    expected = {}
    for name, n in (("dataset 1", 2), ("dataset 2", 3)):
        args.log_passrate, args.n_samples_per_eval_prompt = True, n
        expected.update(slime_outcome(logged, lambda: sl.metrics.log_eval_rollout_data(100, args, {name: data[name]}))["metrics"])
    sl.data.save_debug_rollout_data(template, data, rollout_id=100, evaluation=True)
    write("eval/eval_100", ds1 + ds2, {
        "writer": "slime save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "slime.observability.rollout_metrics.log_eval_rollout_data, one call per dataset with its own n",
        "metrics": expected})

    # ---- eval 101: one attempt without a reward: slime's sum(rewards) raises.
    odd = [slime_sample(sl, i, f"odd prompt {i // 2}", "x", [1.0, 0.0, None, 1.0][i],
                        "aborted" if i == 2 else "completed") for i in range(4)]
    args.n_samples_per_eval_prompt = 2
    got = slime_outcome(logged, lambda: sl.metrics.log_eval_rollout_data(101, args, {"odd": {
        "rewards": [s.reward for s in odd], "truncated": [False] * 4, "samples": odd}}))
    sl.data.save_debug_rollout_data(template, {"odd": {"samples": odd}}, rollout_id=101, evaluation=True)
    write("eval/eval_101", odd, {"metrics_by": "slime log_eval_rollout_data", "crash": got["crash"]})

    # ---- eval 102, 103: attempts that fan out into siblings (compact rollouts: slime's TrajectoryManager keeps
    # the attempt's index and sets rollout_id to it on each), extended into the dataset and sorted by index as
    # slime's eval_rollout_single_dataset does. 102: 8 samples for 3 prompts x 2 (pass@k over chunks of 2
    # samples, which are no prompt's attempts); 103: 9 samples (compute_pass_rate's assertion raises).
    for step, turns in ((102, [2, 1, 1, 2, 1, 1]), (103, [2, 1, 1, 3, 1, 1])):
        fanned = []
        for attempt, k in enumerate(turns):
            for t in range(k):
                s = slime_sample(sl, attempt, f"fan prompt {attempt // 2}", "y" * (2 + t), [1.0, 0.0, 1, 0.0, 1.0, 0.0][attempt] if t == k - 1 else 0.0)
                s.rollout_id = attempt if k > 1 else None
                fanned.append(s)
        fanned.sort(key=lambda x: x.index)
        args.n_samples_per_eval_prompt, args.log_passrate = 2, True
        name = f"eval_{step}"
        part = {"rewards": [x.reward for x in fanned], "truncated": [False] * len(fanned), "samples": fanned}
        got = slime_outcome(logged, lambda: sl.metrics.log_eval_rollout_data(step, args, {name: part}))
        sl.data.save_debug_rollout_data(template, {name: part}, rollout_id=step, evaluation=True)
        write(f"eval/{name}", fanned, {"writer": "slime save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
                                       "metrics_by": "slime log_eval_rollout_data with --log-passrate, n 2",
                                       "settings": {"nSamplesPerEvalPrompt": 2}, **got})
    loaded = torch.load(template.format(rollout_id=1), weights_only=False)
    assert sorted(loaded) == ["rollout_id", "samples"], "slime's dump has no metadata"
    slime_fanout(out_dir, sl, args, logged, write)


SLIME_COMPACT_GENERATE = "slime.rollout._fanout_test_helpers.compact_generate"


def slime_fanout_step(sl, n, groups, rewards, dynamic_filter, generate_path=SLIME_COMPACT_GENERATE):
    """One training step of slime's own `generate_rollout_async` (slime/rollout/sglang_rollout.py) with
    slime's own compact generation `_fanout_test_helpers.compact_generate` (one input fans out into
    1 + index % 3 siblings sharing rollout_id = index), then flattened as `RolloutManager._get_rollout_data`
    does (`validate_rollout_id_annotated`, then itertools.chain while the entries are lists). `groups`: the
    number of inputs of each group the data source hands out; `generate_path`: the generate function
    (--custom-generate-function-path), slime's compact_generate unless a caller gives its own. Returns the
    flattened samples, the filter's drop metrics and the groups as generate_rollout_async returned them
    (each entry a Sample, or a rollout's list of samples). Only the model call (`sglang_rollout.generate`,
    an HTTP request: answered here with `rewards[index]` as the reward), the tokenizer loads and `abort`
    (which asks the router for its workers) are replaced."""
    import asyncio
    import itertools
    from slime.observability.rollout_data_utils import validate_rollout_id_annotated
    from slime.rollout import sglang_rollout as sr
    S = sl.Sample
    args = slime_args()
    args.n_samples_per_prompt = n
    for k, v in dict(rollout_global_dataset=True, rollout_batch_size=len(groups), over_sampling_batch_size=1,
                     dynamic_sampling_filter_path=dynamic_filter, partial_rollout=False,
                     custom_generate_function_path=generate_path,
                     mask_offpolicy_in_partial_rollout=False, group_rm=False, hf_checkpoint=None, custom_rm_path=None,
                     sglang_server_concurrency=4, rollout_temperature=1.0, rollout_top_p=1.0, rollout_top_k=-1,
                     rollout_max_response_len=8, rollout_stop=None, rollout_stop_token_ids=None,
                     rollout_skip_special_tokens=False, sglang_dp_size=1, rollout_sample_filter_path=None,
                     rollout_all_samples_process_path=None, rollout_sample_hook_path=None).items():
        setattr(args, k, v)
    served = iter(enumerate(groups))
    first = [sum(groups[:g]) for g in range(len(groups))]

    def data_source(_):
        g, size = next(served)
        return [[S(group_index=g, index=first[g] + j, prompt=f"fan-out prompt {g}", label="x") for j in range(size)]]

    async def model(_args, sample, _params):
        sample.response = f"answer {sample.index}" + "!" * (sample.index % 4)
        sample.response_length = len(sample.response)
        sample.tokens = list(range(4 + sample.response_length))
        sample.loss_mask = [1] * sample.response_length
        sample.reward = rewards[sample.index]
        sample.weight_versions = ["3"]
        sample.session_id = f"session-{sample.index}"
        sample.status = S.Status.COMPLETED
        return sample

    async def no_servers(_args, _rollout_id):
        return []

    sr.GenerateState._instances = {}  # SingletonMeta: a fresh state for each step's args
    with mock.patch.object(sr, "load_tokenizer", lambda *a, **k: None), \
         mock.patch.object(sr, "load_processor", lambda *a, **k: None), \
         mock.patch.object(sr, "get_rollout_num_engines", lambda a: 1), \
         mock.patch.object(sr, "generate", model), mock.patch.object(sr, "abort", no_servers), \
         mock.patch("builtins.print"):
        out, _ = asyncio.run(sr.generate_rollout_async(args, 1, data_source))
    nested = data = out.samples
    validate_rollout_id_annotated(data)
    while isinstance(data[0], list):
        data = list(itertools.chain.from_iterable(data))
    return data, out.metrics, nested


def slime_fanout(out_dir, sl, args, logged, write):
    """rollout 3: compact rollouts through slime's own generation (`slime_fanout_step`), n = 3, three groups
    of 6 samples each (rollouts of 1, 2 and 3 siblings). Without a dynamic filter slime keeps every group
    (its `assert len(group) == n_samples_per_prompt` counts a group's rollouts); with
    check_reward_nonzero_std it raises on the first group (each entry is a rollout's list of samples); a
    group handed out one input short fails slime's assertion."""
    def outcome(call):
        try:
            return call(), None
        except Exception as e:  # noqa: BLE001 - slime's own exception is the expected value
            return None, f"{type(e).__name__}: {e}"

    rewards = {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0, 4: 0.0, 5: 1.0, 6: 1, 7: 0, 8: 1}
    (samples, drops, _), crash = outcome(lambda: slime_fanout_step(sl, 3, [3, 3, 3], rewards, None))
    assert crash is None, crash
    _, filter_crash = outcome(lambda: slime_fanout_step(
        sl, 3, [3, 3, 3], rewards, "slime.rollout.filter_hub.dynamic_sampling_filters.check_reward_nonzero_std"))
    _, short_crash = outcome(lambda: slime_fanout_step(sl, 3, [3, 2, 3], rewards, None))
    args.log_passrate, args.n_samples_per_prompt = False, 3
    got = slime_outcome(logged, lambda: sl.metrics.log_rollout_data(3, args, samples, drops, 10.0))
    raw, normalized = slime_post_process_rewards(args, samples, rollout_batch_size=3)
    assert got["crash"] is None, got["crash"]
    sl.data.save_debug_rollout_data(os.path.join(out_dir, "rollout_data", "{rollout_id}.pt"), samples, rollout_id=3,
                                    evaluation=False)
    write("rollout/rollout_3", samples, {
        "writer": "slime save_debug_rollout_data (.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "generated_by": "slime generate_rollout_async with slime.rollout._fanout_test_helpers.compact_generate, "
                        "flattened as RolloutManager._get_rollout_data flattens a step",
        "metrics_by": "slime log_rollout_data (no dynamic filter)",
        "settings": {"nSamplesPerPrompt": 3},
        "samples_per_group": [sum(1 for s in samples if s.group_index == g) for g in range(3)],
        "metrics": {k: v for k, v in got["metrics"].items() if k.startswith("rollout/")},
        "filter_crash": filter_crash,
        "short_group_crash": short_crash,
        "grpo_rewards_by": "slime RolloutManager._post_process_rewards (grpo, rewards and std normalisation on, "
                           "rollout_batch_size 3)",
        "grpo_rewards": {"raw": raw, "normalized": normalized}})


def slime_post_process_rewards(args, samples, rollout_batch_size):
    """slime's `RolloutManager._post_process_rewards` (slime/ray/rollout.py) run from its source as is (the
    class starts ray actors and servers), with GRPO's defaults: rewards and std normalisation on."""
    import slime
    import torch
    src = method_source(os.path.join(os.path.dirname(slime.__file__), "ray", "rollout.py"), {"_post_process_rewards"})
    ns = {"torch": torch, "Sample": samples[0].__class__}
    exec(src["_post_process_rewards"], ns)  # noqa: S102 - slime's own method, as verl's are run above
    nargs = SimpleNamespace(**vars(args))
    nargs.advantage_estimator, nargs.rewards_normalization, nargs.grpo_std_normalization = "grpo", True, True
    nargs.rollout_batch_size = rollout_batch_size
    return ns["_post_process_rewards"](SimpleNamespace(custom_reward_post_process_func=None, args=nargs), samples)
def miles_stock(out_dir):
    """Stock configurations (docs/framework-files.md, "Stock configurations"), miles main 31f1ca9:
    rewards from miles' own `rm_type dapo` (`{"score": ±1.0, "acc": bool, "pred": str}`); eval
    datasets built with miles' EvalDatasetConfig (its metadata_overrides injected), eval rewards
    under --eval-reward-key acc (Python bools) and zero_std/* under --reward-key score; rollouts with
    --log-passrate under --reward-key score (eval 110, rollout 10), under --reward-key acc (rollout
    11), and bare bool rewards with a completed sample of reward None (rollout 12), through
    check_no_aborted, check_reward_nonzero_std (what it raised per group) and log_rollout_data; and
    an eval whose dict rewards are read under no --reward-key (eval 111: round(dict) raises)."""
    import asyncio
    from miles.ray.rollout import debug_data, metrics as mm
    from miles.rollout.filter_hub.dynamic_sampling_filters import check_no_aborted, check_reward_nonzero_std
    from miles.rollout.rm_hub import async_rm
    from miles.utils.eval_config import EvalDatasetConfig
    from miles.utils.types import Sample

    args = miles_args()
    args.custom_rm_path, args.rm_type = None, None
    args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    logged = {}
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))

    def scored(i, prompt, answer, label, metadata, gi=None, status="completed"):
        resp = f"Let me think. Answer: {answer}"
        s = Sample(group_index=gi, index=i, prompt=prompt, response=resp, response_length=len(resp), label=label,
                   status=Sample.Status(status), metadata=dict(metadata), weight_versions=["2"])
        s.tokens = list(range(4 + len(resp)))
        s.loss_mask = [1] * len(resp)
        s.reward = asyncio.run(async_rm(args, s))  # miles' own rm_type dapo
        return s

    def write_lines(path, samples):
        with open(path, "w") as f:
            for s in samples:
                f.write(json.dumps(s.to_dict()) + "\n")

    # ---- eval 110: two datasets as eval_rollout_single_dataset builds them.
    config = [EvalDatasetConfig(name="aime24", path="/data/aime-2024.jsonl", rm_type="dapo", n_samples_per_eval_prompt=4,
                                metadata_overrides={"dataset": "aime"}),
              EvalDatasetConfig(name="math500", path="/data/math500.jsonl", rm_type="dapo", n_samples_per_eval_prompt=2)]
    answers = {"aime24": [("p1", "42", ["42", "7", "42", "42"]), ("p2", "5", ["5", "6", "6", "6"]), ("p3", "9", ["1", "2", "3", "4"])],
               "math500": [("q1", "3", ["4", "4"]), ("q2", "8", ["1", "2"])]}
    args.reward_key, args.eval_reward_key, args.log_passrate = "score", "acc", True
    data, expected, order = {}, {}, []
    for cfg in config:
        samples = []
        for p, label, outs in answers[cfg.name]:
            for a in outs:
                samples.append(scored(len(samples), f"{cfg.name} {p}", a, label, cfg.inject_metadata({"source": "jsonl"})))
        samples[1].status = Sample.Status.TRUNCATED
        key = args.eval_reward_key or args.reward_key
        data[cfg.name] = {"rewards": [s.reward if not key else s.reward[key] for s in samples],
                          "truncated": [s.status == Sample.Status.TRUNCATED for s in samples], "samples": samples}
        args.n_samples_per_eval_prompt = cfg.n_samples_per_eval_prompt
        out = mm.log_eval_rollout_data(110, args, {cfg.name: data[cfg.name]})
        expected.update({k: v for k, v in out.items() if k != "eval/step"})
        order.extend(samples)
    assert all(type(r) is bool for d in data.values() for r in d["rewards"]), "eval rewards are Python bools"
    write_lines(os.path.join(out_dir, "eval", "eval_110.jsonl"), order)
    debug_data.save_debug_rollout_data(args, data, rollout_id=110, evaluation=True)
    with open(os.path.join(out_dir, "eval", "eval_config_110.yaml"), "w") as f:
        f.write("# The eval config of eval_110 (miles' EvalDatasetConfig fields; aime24 injects metadata.dataset = aime).\n"
                "eval:\n  datasets:\n")
        for cfg in config:
            f.write(f"    - name: {cfg.name}\n      path: {cfg.path}\n      rm_type: {cfg.rm_type}\n"
                    f"      n_samples_per_eval_prompt: {cfg.n_samples_per_eval_prompt}\n")
            if cfg.metadata_overrides:
                f.write(f"      metadata_overrides: {json.dumps(cfg.metadata_overrides)}\n")
    write_json(os.path.join(out_dir, "eval", "eval_110.expected.json"), {
        "writer": "miles rm_type dapo (async_rm), EvalDatasetConfig.inject_metadata; Sample.to_dict() lines and save_debug_rollout_data (.pt)",
        "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data per dataset with its own n",
        "settings": {"rewardKey": "score", "evalRewardKey": "acc"},
        "metrics": expected})

    # ---- eval 111: dict rewards read with --eval-reward-key acc but no --reward-key: get_reward_value
    # gives the dicts, every one equal, and round(dict) raises.
    args.reward_key, args.eval_reward_key = None, "acc"
    same = [scored(i, "same prompt", "1", "2", config[1].inject_metadata({})) for i in range(2)]
    try:
        mm.log_eval_rollout_data(111, args, {"math500": {"rewards": [s.reward["acc"] for s in same], "truncated": [False, False],
                                                        "samples": same}})
        crash = None
    except TypeError as e:
        crash = f"TypeError: {e}"
    write_lines(os.path.join(out_dir, "eval", "eval_111.jsonl"), same)
    write_json(os.path.join(out_dir, "eval", "eval_111.expected.json"), {
        "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data", "settings": {"evalRewardKey": "acc"}, "crash": crash})

    # ---- rollouts 10, 11, 12 with --log-passrate and n_samples_per_prompt 4.
    plan = [("42", ["42", "1", "42", "2"]), ("5", ["5", "5", "5", "5"]), ("9", ["1", "1", "1", "1"]), ("3", ["3", "4", "3"])]
    for step, reward_key, bare in ((10, "score", False), (11, "acc", False), (12, None, True)):
        args.reward_key, args.log_passrate, args.n_samples_per_prompt = reward_key, True, 4
        train = []
        for g, (label, outs) in enumerate(plan):
            for a in outs:
                s = scored(len(train), f"train prompt {g}", a, label, {"rm_type": "dapo"}, gi=g)
                if bare:  # a reward function that returns the bool itself
                    s.reward = s.reward["acc"]
                train.append(s)
        if bare:
            train[5].reward = None  # a completed sample the reward function gave None
        drops, raised = {}, {}
        for g in range(len(plan)):
            members = [s for s in train if s.group_index == g]
            for f in (check_no_aborted, check_reward_nonzero_std):
                try:
                    o = f(args, members)
                except TypeError as e:
                    raised[str(g)] = f"TypeError: {e}"
                    break
                if not o.keep:
                    name = f"rollout/dynamic_filter/drop_{o.reason}"
                    drops[name] = drops.get(name, 0) + 1
                    break
        logged.clear()
        mm.log_rollout_data(step, args, train, drops, 10.0)
        write_lines(os.path.join(out_dir, "rollout", f"rollout_{step}.jsonl"), train)
        debug_data.save_debug_rollout_data(args, train, rollout_id=step, evaluation=False)
        write_json(os.path.join(out_dir, "rollout", f"rollout_{step}.expected.json"), {
            "writer": "miles rm_type dapo (async_rm); Sample.to_dict() lines and save_debug_rollout_data (.pt)",
            "metrics_by": "check_no_aborted then check_reward_nonzero_std per group (what it raised); log_rollout_data with --log-passrate",
            "settings": {"rewardKey": reward_key, "nSamplesPerPrompt": 4, "dynamicFilter": "check_reward_nonzero_std"},
            "filter_raised_by_group": raised,
            "metrics": {k: v for k, v in logged.items() if k.startswith(("rollout/", "passrate/")) and k not in ("rollout/step", "rollout/rollout_time")}})
def miles_compact_modules():
    """miles' agentic generation path, imported with its loader given a real lookup: `miles.utils.misc`
    is stubbed, and `load_function` is what resolves --custom-agent-function-path (None: no function)."""
    import miles.utils.misc as misc
    registry = {}
    misc.load_function = lambda path: None if path is None else registry[path]
    misc.SingletonMeta = type
    import miles.rollout.rm_hub as rm_hub
    rm_hub.load_function = misc.load_function  # bound at import (an earlier mode may have imported it)
    from miles.rollout.generate_hub import agentic_tool_call
    from miles.rollout.generate_utils import openai_endpoint_utils
    from miles.rollout.inference_rollout import inference_rollout_common as common
    from miles.rollout.session.samples import codec
    return SimpleNamespace(registry=registry, agentic=agentic_tool_call, endpoint=openai_endpoint_utils, common=common, codec=codec)


def rollout_pass_rate(compute_pass_rate, rollouts_by_group, n):
    """miles' `compute_pass_rate` over the groups of exactly n rollouts, one reward per rollout; {} without
    such a group (as `_compute_passrate_from_samples` returns {} without a whole group)."""
    whole = [g for g in rollouts_by_group.values() if len(g) == n]
    return compute_pass_rate(flat_rewards=[r for g in whole for r in g.values()], group_size=n) if whole else {}


def miles_compact_step(mods, args, step, plan, state, session_server, zero_std=True):
    """One rollout step through miles' own functions: `generate_and_rm_group` with `agentic_tool_call.generate`
    (session server v2) per group, `check_no_aborted` then `check_reward_nonzero_std` (call_dynamic_filter,
    MetricGatherer), the kept groups sorted as generate_rollout_async sorts them, `postprocess_rollout_data`,
    then `save_debug_rollout_data`, `log_rollout_data` and `convert_samples_to_train_data`, as
    RolloutManager.generate calls them. `plan`: per group, (label, [(samples of the rollout, reward), ...]);
    0 samples: the session recorded no model call (miles aborts that rollout); a reward "judge" or
    "unscored": the server assigns none, so miles' --custom-rm-path function scores each sample
    (`miles_compact_setup`). `zero_std`: --dynamic-sampling-filter-path check_reward_nonzero_std.
    What log_rollout_data or convert_samples_to_train_data raised is returned (`crash`, `train_crash`):
    RolloutManager.generate stops there, after the dump is written."""
    import asyncio
    from miles.ray.rollout import debug_data, metrics as mm
    from miles.ray.rollout.rollout_data_conversion import postprocess_rollout_data
    from miles.ray.rollout.train_data_conversion import convert_samples_to_train_data
    from miles.rollout.filter_hub.base_types import MetricGatherer, call_dynamic_filter
    from miles.rollout.filter_hub.dynamic_sampling_filters import check_no_aborted, check_reward_nonzero_std
    from miles.utils.types import Sample

    gatherer = MetricGatherer()
    data = []
    base = step * 100
    for g, (label, rollouts) in enumerate(plan):
        group = []
        for j, (turns, reward) in enumerate(rollouts):
            index = base + g * args.n_samples_per_prompt + j
            session_server.plans[index] = (turns, reward)
            group.append(Sample(group_index=base + g, index=index, prompt=f"Fix the failing test in repo {step}-{g}.",
                                label=label, metadata={"task_id": index}))
        state.generate_fn_semaphore = asyncio.Semaphore(4)  # one per event loop (asyncio.run makes one)
        group = asyncio.run(mods.common.generate_and_rm_group(state, group, {"max_new_tokens": 64}))
        assert len(group) == args.n_samples_per_prompt
        for f in (check_no_aborted, check_reward_nonzero_std) if zero_std else (check_no_aborted,):
            out = call_dynamic_filter(f, args, group)
            if not out.keep:
                gatherer.on_dynamic_filter_drop(reason=out.reason)
                break
        else:
            data.append(group)
    data = sorted(data, key=lambda group: group[0][0].index if isinstance(group[0], list) else group[0].index)
    flat, metadata = postprocess_rollout_data(args, data, {"dp_size": 1})
    logged, before = {}, mm.tracking
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    debug_data.save_debug_rollout_data(args, flat, rollout_id=step, evaluation=False, metadata=metadata)
    drops = gatherer.collect()
    crash = train = train_crash = None
    try:
        mm.log_rollout_data(step, args, flat, drops, 10.0)
    except Exception as e:  # noqa: BLE001 - what miles raised is the expected value
        crash = f"{type(e).__name__}: {e}"
    finally:
        mm.tracking = before
    if crash is None:
        try:
            train = convert_samples_to_train_data(args, flat, metadata, None, None)
        except (ValueError, TypeError) as e:  # _normalize_rewards_by_rollout: siblings' rewards differ, a None reward
            train_crash = f"{type(e).__name__}: {e}"
    # The rollouts as convert_samples_to_train_data keys them (its rollout_ids: rollout_id, else index), each with
    # its one reward: pass@k over the groups of n rollouts with miles' own compute_pass_rate, a figure miles does not log.
    from miles.utils.metric_utils import compute_pass_rate
    rollout_ids = train["rollout_ids"] if train is not None else [s.rollout_id if s.rollout_id is not None else s.index for s in flat]
    rollouts_by_group = {}
    for s, rid in zip(flat, rollout_ids):
        rollouts_by_group.setdefault(str(s.group_index), {}).setdefault(rid, s.get_reward_value(args))
    by_rollouts = rollout_pass_rate(compute_pass_rate, rollouts_by_group, args.n_samples_per_prompt)
    return SimpleNamespace(flat=flat, drops=drops, logged=logged, train=train, rollouts_by_group=rollouts_by_group,
                           by_rollouts=by_rollouts, rollout_ids=rollout_ids, crash=crash, train_crash=train_crash)


def miles_compact_args(n):
    """miles_args() as a run of miles' agentic generation sets them (session server v2, GRPO)."""
    args = miles_args()
    args.n_samples_per_prompt = n
    args.use_session_server = "v2"
    args.session_server_ip, args.session_server_ports = "127.0.0.1", [18000]
    args.custom_agent_function_path = "agents.fix_tests"
    args.max_seq_len, args.group_rm, args.partial_rollout = None, False, False
    args.sglang_router_policy = None
    args.custom_rm_path, args.rm_type = None, None
    args.rewards_normalization, args.grpo_std_normalization = True, True
    args.disable_rollout_trim_samples, args.use_dynamic_global_batch_size = False, False
    args.global_batch_size, args.rollout_batch_size = 1, 1
    return args


def miles_compact_setup(args):
    """miles' agentic generation path with its HTTP calls answered here: the session server's reply is
    what its own `encode_samples` packs for the samples a session recorded (one per model call, the
    rollout's reward on each, as the v2 server assigns it), read back by the driver's own
    `decode_samples_and_merge_input_sample`. The user's agent function (--custom-agent-function-path)
    only names its session's task. Returns (modules, the generate state, the server's plans by task)."""
    import asyncio  # noqa: F401 - the state's semaphore is made per event loop by miles_compact_step
    from miles.utils.types import Sample

    mods = miles_compact_modules()

    class SessionServer:
        def __init__(self):
            self.plans, self.sessions = {}, {}

        async def post(self, url, payload, max_retries=60, action="post", headers=None):
            if url.endswith("/sessions"):
                sid = f"s{len(self.sessions)}"
                self.sessions[sid] = None
                return {"session_id": sid}
            return {}

        async def post_bytes(self, url, payload, *, timeout):
            sid = url.split("/sessions/")[1].split("/")[0]
            plan = self.plans[self.sessions.pop(sid)]
            # An eval prompt's attempts share its task: their plans are taken in the order the sessions end.
            turns, reward = plan.pop(0) if isinstance(plan, list) else plan
            if isinstance(reward, str):  # "judge" / "unscored": assigned by miles' reward function, not here
                reward = None
            samples = []
            for t in range(turns):
                resp = f"turn {t}: call run_tests" if t < turns - 1 else "all tests pass"
                samples.append(Sample(response=resp, response_length=len(resp), tokens=list(range(8 + len(resp))),
                                      loss_mask=[1] * len(resp), status=Sample.Status.COMPLETED, weight_versions=["5"],
                                      metadata={"turn": t}, reward=reward))
            return mods.codec.encode_samples(samples, {}, None, fields=mods.codec.COMPUTED_FIELDS_V2)

    server = SessionServer()
    mods.endpoint.post, mods.endpoint.post_bytes_no_retry = server.post, server.post_bytes

    async def fix_tests(base_url, prompt, request_kwargs, metadata, **kwargs):
        server.sessions[base_url.rsplit("/", 1)[1]] = metadata["task_id"]
        return None

    async def judge(args, samples):
        """--custom-rm-path: scores each sample it is given on its own (a rollout's siblings apart): 1.0 for
        the turn that ends with the tests passing; None for a task planned "unscored"."""
        def unscored(s):
            plan = server.plans.get(s.metadata["task_id"])
            return isinstance(plan, tuple) and plan[1] == "unscored"
        def judged(s):
            plan = server.plans.get(s.metadata["task_id"])
            return isinstance(plan, tuple) and plan[1] == "bool judge"
        # "bool judge": a reward function returning Python bools (whether the tests pass), as a user's may.
        return [None if unscored(s) else (s.response == "all tests pass") if judged(s) else
                (1.0 if s.response == "all tests pass" else 0.0) for s in samples]

    mods.registry[args.custom_agent_function_path] = fix_tests
    mods.registry["agents.judge"] = judge
    args.custom_rm_path = "agents.judge"
    state = SimpleNamespace(args=args, generate_fn_semaphore=None, aborted=False, generate_function=mods.agentic.generate)
    return mods, state, server


def miles_compact(out_dir):
    """Compact / sub-agent rollouts (docs/framework-files.md#compact-rollouts), miles main 31f1ca9: samples
    made by miles' own agentic generation (`agentic_tool_call.generate` under --use-session-server v2,
    `miles_compact_setup`), then miles' filters, `postprocess_rollout_data`, `save_debug_rollout_data`,
    `log_rollout_data` (--log-passrate) and `convert_samples_to_train_data` (GRPO, one reward per rollout),
    and the same generation in miles' eval path (scripts/compact_fixtures.py)."""
    args = miles_compact_args(6)
    args.global_batch_size, args.rollout_batch_size = 4, 5
    args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    mods, state, server = miles_compact_setup(args)
    steps = {
        # 20: a fanned-out group of 9 samples, one of 7, a zero-std group and an aborted one (dropped), and
        # a group without fan-out (the only one miles' pass@k counts).
        20: [("a", [(1, 1.0), (3, 0.0), (1, 1.0), (1, 1.0), (2, 0.0), (1, 0.0)]),
             ("b", [(1, 0.0), (1, 0.0), (2, 0.0), (1, 1.0), (1, 0.0), (1, 0.0)]),
             ("c", [(1, 1.0), (2, 1.0), (1, 1.0), (1, 1.0), (1, 1.0), (1, 1.0)]),
             ("d", [(1, 1.0), (0, None), (2, 0.0), (1, 1.0), (1, 0.0), (1, 0.0)]),
             ("e", [(1, 1.0), (1, 0.0), (1, 0.0), (1, 1.0), (1, 1.0), (1, 0.0)])],
        # 21: every group fans out, so miles' pass@k has no group of 6 samples and logs none.
        21: [("f", [(2, 1.0), (1, 0.0), (1, 1.0), (1, 0.0), (1, 0.0), (1, 0.0)]),
             ("g", [(1, 0.0), (3, 1.0), (1, 1.0), (2, 1.0), (1, 0.0), (1, 1.0)]),
             ("h", [(1, 1.0), (1, 0.0), (1, 1.0), (1, 1.0), (1, 1.0), (2, 1.0)])],
        # 22: the server assigns no reward to one rollout of 3 samples, so the reward function scores its
        # samples one by one (0.0, 0.0, 1.0): _normalize_rewards_by_rollout raises ValueError.
        22: [("i", [(1, 1.0), (2, 1.0), (1, 0.0), (1, 0.0), (1, 1.0), (1, 0.0)]),
             ("j", [(1, 0.0), (3, "judge"), (1, 1.0), (2, 1.0), (1, 0.0), (1, 0.0)])],
        # 23: without the zero-std filter, a completed sample the reward function gave None reaches the
        # conversion: torch.tensor raises TypeError.
        23: [("k", [(1, 1.0), (2, 0.0), (1, 0.0), (1, 1.0), (1, 1.0), (1, 0.0)]),
             ("l", [(1, 1.0), (1, "unscored"), (1, 0.0), (1, 0.0), (1, 1.0), (1, 1.0)])],
        # 24: as 22, with a reward function that returns Python bools: the ValueError prints them False / True.
        24: [("m", [(1, 1.0), (1, 0.0), (3, "bool judge"), (1, 0.0), (1, 1.0), (1, 0.0)]),
             ("n", [(1, 0.0), (1, 1.0), (1, 1.0), (2, 1.0), (1, 0.0), (1, 0.0)])],
    }
    for step, plan in steps.items():
        zero_std = step != 23
        out = miles_compact_step(mods, args, step, plan, state, server, zero_std=zero_std)
        flat, drops, logged, train = out.flat, out.drops, out.logged, out.train
        with open(os.path.join(out_dir, "rollout", f"rollout_{step}.jsonl"), "w") as f:
            for s in flat:
                f.write(json.dumps(s.to_dict()) + "\n")
        write_json(os.path.join(out_dir, "rollout", f"rollout_{step}.expected.json"), {
            "writer": "miles agentic_tool_call.generate (session server v2: encode_samples / decode_samples_and_merge_input_sample) "
                      "via generate_and_rm_group; postprocess_rollout_data; Sample.to_dict() lines and save_debug_rollout_data (.pt)",
            "metrics_by": f"check_no_aborted{' then check_reward_nonzero_std' if zero_std else ''} (call_dynamic_filter, MetricGatherer); "
                          "log_rollout_data with --log-passrate; convert_samples_to_train_data (GRPO)",
            "settings": {"nSamplesPerPrompt": 6, "dynamicFilter": "check_reward_nonzero_std" if zero_std else "none"},
            "samples": len(flat),
            "rollouts_by_group": {g: len(r) for g, r in out.rollouts_by_group.items()},
            "samples_by_group": {str(g): sum(1 for s in flat if s.group_index == g) for g in dict.fromkeys(s.group_index for s in flat)},
            "train_rollout_ids": out.rollout_ids,
            "pass_at_k_by_rollouts": out.by_rollouts,
            "train_rewards": train["rewards"] if train is not None else None,
            "train_crash": out.train_crash,
            "metrics": {k: v for k, v in {**drops, **logged}.items()
                        if k.startswith(("rollout/", "passrate/")) and k not in ("rollout/step", "rollout/rollout_time")}})
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from compact_fixtures import miles_compact_eval

    miles_compact_eval(out_dir, mods, state, server, write_json, MILES)


def miles_lengths(out_dir):
    """Loss masks as long as real ones, in miles' own `.pt` dump and as JSON lines: the effective
    response length (`sum(loss_mask)`) behind `response_len/*` and `eval/<ds>/response_len/*`. A
    multi-turn mask has 0s over tool output; token ids run past 2^16 (BININT), log-probs are
    floats; one mask spans several of torch.save's batches of 1 000, one holds exactly 8 numbers,
    one is None (its response_length counts)."""
    import random

    from miles.ray.rollout import debug_data, metrics as mm
    from miles.utils.types import Sample

    args = miles_args()
    logged = {}
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    rng = random.Random(71)

    def sample(i, gi, prompt, length, reward, mask_kind):
        resp = "".join(rng.choice("abcde ") for _ in range(length))
        s = Sample(group_index=gi, index=i, prompt=prompt, response=resp, response_length=length, label="x",
                   reward=reward, status=Sample.Status.COMPLETED if length < 1400 else Sample.Status.TRUNCATED,
                   weight_versions=["12"])
        s.tokens = [rng.randint(0, 151_000) for _ in range(37 + length)]
        s.rollout_log_probs = [-rng.random() * 3 for _ in range(length)]
        if mask_kind == "none":
            s.loss_mask = None
        elif mask_kind == "turns":  # model turns trained, tool output between them masked out
            s.loss_mask = [0 if (k // 17) % 3 == 1 else 1 for k in range(length)]
        else:
            s.loss_mask = [1] * length
        return s

    plan = [(9, "all"), (8, "all"), (40, "turns"), (1500, "turns"), (300, "none"), (1000, "all"), (1001, "turns"), (64, "turns")]
    train = []
    for g in range(2):
        for j, (length, kind) in enumerate(plan):
            train.append(sample(len(train), g, f"lengths prompt {g}", length + g, float(j % 2), kind))
    logged.clear()
    args.log_passrate = False
    mm.log_rollout_data(71, args, train, {}, 10.0)
    args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    debug_data.save_debug_rollout_data(args, train, rollout_id=71, evaluation=False)
    with open(os.path.join(out_dir, "rollout", "rollout_71.jsonl"), "w") as f:
        for s in train:
            f.write(json.dumps(s.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "rollout", "rollout_71.expected.json"), {
        "writer": "miles save_debug_rollout_data (.pt: rollout_data/71.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "miles.ray.rollout.metrics.log_rollout_data",
        "metrics": {k: v for k, v in logged.items() if k.startswith("rollout/") and k != "rollout/step"},
    })

    # eval: two datasets back to back (index restarting), 2 attempts a prompt.
    datasets = {}
    for name, lengths in (("dataset 1", [12, 300, 45, 9]), ("dataset 2", [1200, 8, 77, 1450])):
        ds = [sample(i, None, f"{name} prompt {i // 2}", n, float(i % 2), "turns" if i % 2 else "all") for i, n in enumerate(lengths)]
        datasets[name] = {"rewards": [s.reward for s in ds], "truncated": [s.status == Sample.Status.TRUNCATED for s in ds],
                          "samples": ds}
    args.n_samples_per_eval_prompt, args.log_passrate = 2, True
    expected = {}
    for name in datasets:
        out = mm.log_eval_rollout_data(171, args, {name: datasets[name]})
        expected.update({k: v for k, v in out.items() if k != "eval/step"})
    debug_data.save_debug_rollout_data(args, datasets, rollout_id=171, evaluation=True)
    with open(os.path.join(out_dir, "eval", "eval_171.jsonl"), "w") as f:
        for d in datasets.values():
            for s in d["samples"]:
                f.write(json.dumps(s.to_dict()) + "\n")
    write_json(os.path.join(out_dir, "eval", "eval_171.expected.json"), {
        "writer": "miles save_debug_rollout_data (.pt: rollout_data/eval_171.pt) and Sample.to_dict() as JSON lines (.jsonl)",
        "metrics_by": "miles.ray.rollout.metrics.log_eval_rollout_data, one call per dataset (n = 2)",
        "metrics": expected,
    })


class XorShift:
    """xorshift32, the same generator as test/unit/reader/zlibLength.test.ts: both sides build the
    same random strings from a seed, so only their figures are committed."""

    def __init__(self, seed):
        self.x = seed

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def int(self, n):
        return self.next() % n


# Code point ranges of the random strings: ASCII (with the characters JSON escapes), 2-byte,
# CJK (3-byte) and emoji (4-byte, a surrogate pair in UTF-16 and in JSON escapes).
RANGES = [(0x20, 0x7F), (0xA0, 0x800), (0x4E00, 0xA000), (0x1F600, 0x1F650)]
ESCAPED = [0x0A, 0x22, 0x5C, 0x09]


def random_text(seed):
    """A seeded random string: random code points mixed with copies of its own earlier runs (how
    much of each, and which ranges, depends on the seed), so its compression ratio spans both sides
    of miles' threshold."""
    r = XorShift(seed)
    length = 9000 + r.int(4000) if seed % 5 else r.int(3000)
    repeat = r.int(11)  # copies per 10 draws
    ranges = [RANGES[0]] + [RANGES[1 + r.int(3)] for _ in range(r.int(3))]
    out = []
    while len(out) < length:
        if len(out) >= 20 and r.int(10) < repeat:
            n = 3 + r.int(50)
            at = r.int(len(out) - 2)
            out.extend(out[at:at + n])
        elif r.int(20) == 0:
            out.append(ESCAPED[r.int(len(ESCAPED))])
        else:
            lo, hi = ranges[r.int(len(ranges))]
            out.append(lo + r.int(hi - lo))
    return "".join(chr(c) for c in out[:length])


def zlib_cases(out_dir):
    """Figures Python's zlib and miles' has_repetition give for seeded random strings (see random_text)."""
    import zlib
    from miles.utils.metric_utils import compression_ratio, has_repetition

    cases = []
    for seed in range(1, 301):
        text = random_text(seed)
        raw = text.encode("utf-8")
        tail = text[-10000:].encode("utf-8")
        cases.append({"seed": seed, "chars": len(text), "utf8": len(raw), "zlib9": len(zlib.compress(raw, 9)),
                      "tail_utf8": len(tail), "tail_zlib9": len(zlib.compress(tail, 9)),
                      "tail_ratio": compression_ratio(text[-10000:])[0], "has_repetition": has_repetition(text)})
    write_json(os.path.join(out_dir, "zlib", "cases.json"), {
        "writer": "scripts/gen-real-fixtures.py random_text(seed) for seeds 1..300",
        "metrics_by": "Python's zlib.compress(raw, 9); miles.utils.metric_utils.compression_ratio and has_repetition",
        "zlib_version": zlib.ZLIB_RUNTIME_VERSION,
        "cases": cases,
    })


def miles_repetition(out_dir):
    """repetition_frac over long responses: repetitive and not, at the length and ratio thresholds,
    with non-ASCII text, JSON escapes and surrogate pairs in the compressed tail; lines alternate
    between ASCII-escaped JSON (json.dumps' default) and raw UTF-8. A lone surrogate in the tail
    makes has_repetition raise (rollout_6)."""
    import random
    from miles.ray.rollout import debug_data, metrics as mm
    from miles.utils.metric_utils import compression_ratio
    from miles.utils.types import Sample

    args = SimpleNamespace(custom_rollout_log_function_path=None, load_debug_rollout_data=None, log_passrate=False,
                           advantage_estimator="grpo", sglang_speculative_algorithm=None, log_reward_category=None,
                           reward_key=None, use_session_server=None, ci_test=False, wandb_always_use_train_step=False,
                           rollout_num_gpus=None, save_debug_trajectory_data=None)
    logged = {}
    mm.tracking = SimpleNamespace(log=lambda a, d, step_key=None: logged.update(d))
    rnd = random.Random(5)

    def noise(n, alphabet):
        return "".join(rnd.choice(alphabet) for _ in range(n))

    def near(target, above):
        """A 12 000-character text whose tail's ratio is just above (or below) `target`: repetitive
        text with k random characters spliced in, k found by bisection on miles' compression_ratio."""
        base = "The answer is 42. " * 700
        filler = noise(12000, "abcdefghijklmnopqrstuvwxyz0123456789 é日")

        def text(k):
            step = 12000 // (k + 1)
            t = list(base[:12000])
            for j in range(k):
                t[(j + 1) * step] = filler[j]
            return "".join(t)

        lo, hi = 0, 4000  # ratio(text(lo)) > target > ratio(text(hi))
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if compression_ratio(text(mid)[-10000:])[0] > target:
                lo = mid
            else:
                hi = mid
        return text(lo if above else hi)

    emoji = "\U0001F600\U0001F680\U0001F9E0"
    responses = [
        ("ascii repetitive", "step 1: add 2\n" * 900),
        ("ascii random", noise(12000, "abcdefghijklmnopqrstuvwxyz ,.\n\"\\")),
        ("cjk repetitive", "日本語の文章。" * 2000),
        ("mixed random", noise(11000, "aé日\U0001F600\n\"\\xyz ")),
        ("emoji repetitive", (emoji + " ok\n") * 3000),
        ("exactly 10 000 repetitive", "ab" * 5000),
        ("10 001 repetitive", "ab" * 5000 + "a"),
        ("just above 10", near(10, True)),
        ("just below 10", near(10, False)),
        # An emoji right at the tail's start: text[-10000:] keeps or drops it whole.
        ("emoji at the cut", "x" * 3 + emoji[0] + noise(9999, "日本語abc\U0001F680")),
        ("short", "fine"),
    ]
    samples = []
    for i, (name, resp) in enumerate(responses):
        s = Sample(group_index=i, index=i, prompt=f"rep {name}", response=resp, response_length=len(resp),
                   reward=1.0, status=Sample.Status.COMPLETED, weight_versions=["1"])
        s.loss_mask = [1] * 4
        samples.append(s)
    logged.clear()
    mm.log_rollout_data(5, args, samples, {}, 10.0)
    ratios = {name: (len(resp), compression_ratio(resp[-10000:])[0]) for name, resp in responses}
    with open(os.path.join(out_dir, "rollout", "rollout_5.jsonl"), "w", encoding="utf-8") as f:
        for i, x in enumerate(samples):
            line = json.dumps(x.to_dict(), ensure_ascii=(i % 2 == 0))
            assert json.loads(line)["response"] == x.response, "the file holds the text miles saw"
            f.write(line + "\n")
    args.save_debug_rollout_data = os.path.join(out_dir, "rollout_data", "{rollout_id}.pt")
    debug_data.save_debug_rollout_data(args, samples, rollout_id=5, evaluation=False)
    write_json(os.path.join(out_dir, "rollout", "rollout_5.expected.json"), {
        "writer": "Sample.to_dict() as JSON lines (even lines ASCII-escaped, odd lines raw UTF-8); save_debug_rollout_data (.pt)",
        "metrics_by": "miles.ray.rollout.metrics.log_rollout_data",
        "responses_length_and_tail_ratio": ratios,
        "metrics": {k: v for k, v in logged.items() if k.startswith("rollout/") and k != "rollout/step"},
    })

    # Lone surrogates (json.loads gives one for "\udc00") in the tail: Python cannot encode them. A
    # high surrogate right before a low one would be joined by json.loads: not written here.
    bad = [Sample(group_index=0, index=0, prompt="p", response="ok " * 4000 + "\udfff\ud800" + "x" * 5 + "\udc00",
                  response_length=4, reward=1.0, status=Sample.Status.COMPLETED),
           Sample(group_index=0, index=1, prompt="p", response="\ud800" + "ab" * 6000, response_length=4, reward=0.0,
                  status=Sample.Status.COMPLETED)]
    try:
        mm.log_rollout_data(6, args, bad, {}, 10.0)
        crash = None
    except UnicodeEncodeError as e:
        crash = f"{type(e).__name__}: {e}"
    with open(os.path.join(out_dir, "rollout", "rollout_6.jsonl"), "w") as f:
        for x in bad:
            line = json.dumps(x.to_dict())
            assert json.loads(line)["response"] == x.response, "the file holds the text miles saw"
            f.write(line + "\n")
    write_json(os.path.join(out_dir, "rollout", "rollout_6.expected.json"), {
        "metrics_by": "miles.ray.rollout.metrics.log_rollout_data", "crash": crash})
    # The same samples as miles dumps them: pickle writes a str as UTF-8 with 'surrogatepass', so
    # torch.load gives the lone surrogates back and the same metric raises (rollout_data/6.pt).
    debug_data.save_debug_rollout_data(args, bad, rollout_id=6, evaluation=False)
    import torch
    loaded = torch.load(os.path.join(out_dir, "rollout_data", "6.pt"))
    assert [x["response"] for x in loaded["samples"]] == [x.response for x in bad], "torch.load gives the lone surrogates back"


def main():
    verl_dir, miles_dir = os.path.join(OUT, "verl"), os.path.join(OUT, "miles")
    for d in (os.path.join(verl_dir, "rollout"), os.path.join(verl_dir, "validation"),
              os.path.join(miles_dir, "eval"), os.path.join(miles_dir, "rollout")):
        os.makedirs(d, exist_ok=True)
    verl_legacy(verl_dir)
    miles_all(miles_dir)
    miles_edges(miles_dir)
    miles_repetition(miles_dir)
    miles_stock(miles_dir)
    zlib_cases(miles_dir)
    miles_span_versions(miles_dir)
    miles_lengths(miles_dir)
    miles_compact(miles_dir)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "--only-tensors":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from tensor_fixtures import tensors_all

        tensors_all(os.path.join(OUT, "miles", "tensors"), MILES)
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-mismatch":
        # Only the train-inference mismatch dump (scripts/mismatch_fixtures.py).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import mismatch_fixtures
        from mismatch_fixtures import mismatch_all

        mismatch_all(os.path.join(OUT, "miles", "mismatch"))
        mismatch_fixtures.drift_all(os.path.join(OUT, "miles", "drift"))
        mismatch_fixtures.gate_pair(os.path.join(OUT, "miles", "mismatch-gate"))
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-stock":
        # Only the stock-configuration fixtures (eval 110/111, rollout 10-12 and their .pt dumps).
        miles_stock(os.path.join(OUT, "miles"))
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-compact":
        # Only the compact-rollout fixtures (rollout 20, 21 and their .pt dumps).
        miles_compact(os.path.join(OUT, "miles"))
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-lengths":
        miles_lengths(os.path.join(OUT, "miles"))
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-repetition":
        # Only the repetition fixtures (rollout_5, rollout_6 and their .pt dumps).
        miles_repetition(os.path.join(OUT, "miles"))
    elif V1_MODE:
        verl_v1(os.path.join(OUT, "verl"))
    elif len(sys.argv) > 3 and sys.argv[3] == "--only-span-versions":
        miles_span_versions(os.path.join(OUT, "miles"))
    elif sys.argv[1] == "--slime":  # `--slime <slime extraction>`: slime's fixtures alone
        slime_all(os.path.join(OUT, "slime"), sys.argv[2])
    else:
        main()
