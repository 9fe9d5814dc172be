"""Tensor fixtures for the `.pt` reader (docs/pt.md#tensors), written by the real torch.save and
miles' own `save_debug_train_data_for_rank`; imported by gen-real-fixtures.py (`--only-tensors`),
which sets up the miles import path and its stubs first.

Writes test/fixtures/real/miles/tensors/:
- dtype_<dtype>.pt: torch.save of a dict of tensors of one dtype (float32, float16, bfloat16,
  float64, int64, int32, int16, int8, uint8, bool): contiguous ones, non-contiguous views (a
  transpose, a slice with a storage offset, a step slice), a 0-d tensor, an empty one, and for
  floats NaN, infinities, -0.0, subnormals and extremes; dtype_<dtype>.json: `json.dumps` of the
  same dict with every tensor as its `tolist()` after `torch.load` (Python's float repr);
- cuda.pt / cuda.json: tensors saved with the storage location `cuda:0`. This machine has no CUDA:
  a tagger registered with torch.serialization.register_package (ahead of torch's own cpu tagger)
  names every storage `cuda:0` at save time, exactly the string torch writes for a tensor on the
  first GPU; torch.load(map_location="cpu") reads it back;
- train_data/3_0.pt / 3_0.json: miles' save_debug_train_data_for_rank with `rollout_data` as the
  Megatron actor holds it at the dump (miles backends/training_utils/data.py get_rollout_data and
  megatron_utils/actor.py: tokens int64, loss_masks int32, rollout_log_probs float32, then the
  actor's log_probs, ref_log_probs, advantages and returns, all on `cuda:0`; response_lengths,
  total_lengths, sample_indices, rewards as lists), with advantages and returns from miles'
  get_grpo_returns; the .json is torch.load's whole root with every tensor as `tolist()`.
And test/fixtures/pt/hostile/tensor-*.pt (hostile_tensors below), never loaded.
"""
import json
import os
import sys
from argparse import Namespace

import torch
import torch.serialization as ser

FLOATS = ("float32", "float16", "bfloat16", "float64")
INTS = ("int64", "int32", "int16", "int8", "uint8")


def plain(v):
    """torch.load's value with every tensor as tolist(), as json.dumps takes it."""
    if isinstance(v, torch.Tensor):
        return v.tolist()
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def dtype_tensors(name):
    dt = getattr(torch, name)
    g = torch.Generator().manual_seed(len(name))
    if name in FLOATS:
        base = (torch.randn(6, 5, generator=g, dtype=torch.float64) * 7).to(dt)
        special = torch.tensor([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.0, -2.5, 1e-5, 3e-8, 65504.0, 1e16, 0.1], dtype=torch.float64).to(dt)
        tiny = torch.tensor([torch.finfo(dt).tiny, torch.finfo(dt).max, torch.finfo(dt).min, torch.finfo(dt).eps], dtype=dt)
        extra = {"special": special, "extremes": tiny}
        if name != "bfloat16":  # a subnormal: half the smallest normal
            extra["subnormal"] = (torch.tensor([torch.finfo(dt).tiny], dtype=torch.float64) / 2).to(dt)
    elif name == "bool":
        base = torch.rand(6, 5, generator=g) > 0.5
        extra = {}
    else:
        info = torch.iinfo(dt)
        base = torch.randint(info.min, info.max, (6, 5), generator=g, dtype=torch.int64).to(dt)
        extra = {"extremes": torch.tensor([info.min, info.max, 0, 1, -1 if info.min < 0 else 2], dtype=dt)}
        if name == "int64":  # past 2^53, where a double no longer holds the value
            extra["big"] = torch.tensor([2**53 + 1, -(2**63), 2**63 - 1, 9007199254740993], dtype=dt)
    tensors = {
        "matrix": base,
        "transposed": base.t(),  # strides (1, 5)
        "sliced": base[2:5, 1:4],  # storage offset 11, strides (5, 1)
        "stepped": base[::2, ::3],  # strides (10, 3)
        "row": base[3],  # offset 15
        "scalar": base[1, 2].clone(),  # 0-d, a storage of its own
        "empty": base[:0],
        "empty_rows": base[:, :0],
        "cube": base.reshape(2, 3, 5).permute(2, 0, 1),
    }
    tensors.update(extra)
    return tensors


def write_pair(path, value):
    torch.save(value, path)
    loaded = torch.load(path, map_location="cpu", weights_only=True)
    with open(path[:-3] + ".json", "w", encoding="utf-8") as f:
        f.write(json.dumps(plain(loaded)))


def cuda_tagger(storage):
    return "cuda:0"


def tensors_all(out_dir, miles_root):
    os.makedirs(os.path.join(out_dir, "train_data"), exist_ok=True)
    hostile_tensors(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "fixtures", "pt", "hostile"))
    for name in FLOATS + INTS + ("bool",):
        write_pair(os.path.join(out_dir, f"dtype_{name}.pt"), dtype_tensors(name))
    # Every storage saved from here on is tagged cuda:0 (priority 1: before torch's cpu tagger).
    ser.register_package(1, cuda_tagger, lambda storage, location: None)
    try:
        write_pair(os.path.join(out_dir, "cuda.pt"), {"weights": dtype_tensors("float32")["sliced"], "ids": torch.arange(7)})
        with open(os.path.join(out_dir, "cuda.pt"), "rb") as f:
            assert b"cuda:0" in f.read(), "the storage location is cuda:0"
        train_data(os.path.join(out_dir, "train_data"))
    finally:
        ser._package_registry[:] = [e for e in ser._package_registry if e[1] is not cuda_tagger]


def train_data(out_dir):
    from miles.backends.training_utils.loss_hub.math_utils import get_grpo_returns
    from miles.utils.train_dump_utils import save_debug_train_data_for_rank

    g = torch.Generator().manual_seed(3)
    prompts, responses = [5, 7, 4, 6], [9, 3, 12, 8]
    rewards = [1.0, 0.0, 1.0, 0.5]
    rollout_log_probs, log_probs, ref_log_probs, loss_masks, tokens = [], [], [], [], []
    for p, r in zip(prompts, responses):
        tokens.append(torch.randint(0, 151000, (p + r,), generator=g, dtype=torch.long))
        mask = torch.ones(r, dtype=torch.int)
        mask[r // 2 : r // 2 + 2] = 0  # a tool output inside the response: outside the loss
        loss_masks.append(mask)
        lp = -torch.rand(r, generator=g, dtype=torch.float32) * 3
        rollout_log_probs.append(lp)
        log_probs.append(lp + torch.randn(r, generator=g, dtype=torch.float32) * 0.01)
        ref_log_probs.append(lp + torch.randn(r, generator=g, dtype=torch.float32) * 0.05)
    advantages = get_grpo_returns(torch.tensor(rewards), [torch.zeros(r) for r in responses])
    rollout_data = {
        "tokens": tokens,
        "loss_masks": loss_masks,
        "rollout_log_probs": rollout_log_probs,
        "response_lengths": responses,
        "total_lengths": [p + r for p, r in zip(prompts, responses)],
        "sample_indices": [0, 1, 2, 3],
        "rewards": rewards,
        "raw_reward": rewards,
        "truncated": [0, 0, 1, 0],
        "log_probs": log_probs,
        "ref_log_probs": ref_log_probs,
        "advantages": advantages,
        "returns": advantages,
    }
    args = Namespace(save_debug_train_data=os.path.join(out_dir, "{rollout_id}_{rank}.pt"), qkv_format="thd")
    save_debug_train_data_for_rank(args, rollout_id=3, rollout_data=rollout_data, rank=0)
    path = os.path.join(out_dir, "3_0.pt")
    loaded = torch.load(path, map_location="cpu", weights_only=True)
    with open(path[:-3] + ".json", "w", encoding="utf-8") as f:
        f.write(json.dumps(plain(loaded)))


class _Storage:
    """A storage for the hostile pickles below: pickled as torch.save's persistent id."""

    def __init__(self, key, numel, dtype_storage):
        self.key, self.numel, self.dtype_storage = key, numel, dtype_storage


class _Tensor:
    """`_rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())`, as torch.save writes it."""

    def __init__(self, storage, offset, size, stride):
        self.args = (storage, offset, size, stride)

    def __reduce__(self):
        from collections import OrderedDict

        return (torch._utils._rebuild_tensor_v2, self.args + (False, OrderedDict()))


class _Pickler(__import__("pickle").Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            return ("storage", obj.dtype_storage, obj.key, "cuda:0", obj.numel)
        return None


def hostile_tensors(out_dir):
    """test/fixtures/pt/hostile/tensor-*.pt: tensors whose views do not fit their storages. Written
    by hand (pickle + zipfile, torch.save's layout), never loaded: `{"x": tensor, "ok": tensor}` with
    a sound int64 tensor `ok` beside the bad one, which must still be read."""
    import io
    import pickle
    import struct
    import zipfile

    floats = struct.pack("<9f", *[0.5 * i for i in range(9)])
    cases = {
        # 1 000 elements claimed, 36 bytes held.
        "tensor-short-storage": (_Tensor(_Storage("0", 1000, torch.FloatStorage), 0, (1000,), (1,)), floats),
        # 2^80 elements over a 9-element storage.
        "tensor-huge-shape": (_Tensor(_Storage("0", 9, torch.FloatStorage), 0, (2**40, 2**40), (2**40, 1)), floats),
        # Offset 5 with a 3x3 contiguous view: reads element 13 of 9.
        "tensor-out-of-range": (_Tensor(_Storage("0", 9, torch.FloatStorage), 5, (3, 3), (3, 1)), floats),
        # Element [i][j] is storage[i + j]: rows overlap.
        "tensor-overlapping": (_Tensor(_Storage("0", 9, torch.FloatStorage), 0, (4, 3), (1, 1)), floats),
    }
    for name, (bad, data) in cases.items():
        ok = _Tensor(_Storage("1", 3, torch.LongStorage), 0, (3,), (1,))
        buf = io.BytesIO()
        _Pickler(buf, protocol=2).dump({"x": bad, "ok": ok})
        with zipfile.ZipFile(os.path.join(out_dir, name + ".pt"), "w", zipfile.ZIP_STORED) as z:
            z.writestr(f"{name}/data.pkl", buf.getvalue())
            z.writestr(f"{name}/byteorder", "little")
            z.writestr(f"{name}/data/0", data)
            z.writestr(f"{name}/data/1", struct.pack("<3q", 7, -8, 2**62))
            z.writestr(f"{name}/version", "3\n")


def debian_torch(out_dir):
    """The dtype and cuda:0 files again, written by Debian 12's python3-torch (1.13), whose zip
    layout differs from torch 2's (no .format_version nor .data/serialization_id records): the same
    tensors, and torch.load's view of them beside each."""
    os.makedirs(out_dir, exist_ok=True)
    for name in FLOATS + INTS + ("bool",):
        write_pair(os.path.join(out_dir, f"dtype_{name}.pt"), dtype_tensors(name))
    ser.register_package(1, cuda_tagger, lambda storage, location: None)
    try:
        write_pair(os.path.join(out_dir, "cuda.pt"), {"weights": dtype_tensors("float32")["sliced"], "ids": torch.arange(7)})
    finally:
        ser._package_registry[:] = [e for e in ser._package_registry if e[1] is not cuda_tagger]


if __name__ == "__main__":
    # /usr/bin/python3 scripts/tensor_fixtures.py --debian-torch (needs only python3-torch)
    assert sys.argv[1:] == ["--debian-torch"], "usage: tensor_fixtures.py --debian-torch"
    debian_torch(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "fixtures", "real", "miles", "tensors", "debian-torch"))
