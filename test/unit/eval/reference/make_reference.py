"""Reference values for the eval unit tests, computed by CPython and numpy themselves.

  python3.12 make_reference.py pysum > pysum.json   (3.12+: `sum()` of floats is Neumaier-compensated,
                                                     as on the Python miles runs on)
  python3 make_reference.py numpy > numpy.json       (any Python with numpy)

The tests compare the TypeScript re-implementations with these values bit for bit.
"""
import json
import math
import random
import sys

rng = random.Random(20240607)


def value():
    return rng.choice([rng.random(), rng.random() * 1e10, 0.1, 1 / 3, -rng.random() * 1e-5, 0.7])


def make_py_sum():
    assert sys.version_info >= (3, 12), "sum() semantics of Python 3.12+ are the reference"
    cases = []
    for _ in range(60):
        vals, ints = [], []
        for _ in range(rng.randint(1, 40)):
            if rng.random() < 0.3:
                vals.append(rng.randint(-3, 3))
                ints.append(True)
            else:
                vals.append(value())
                ints.append(False)
        cases.append({"values": vals, "isInt": ints, "sum": sum(vals)})
    return {"pySum": cases}


def make_numpy():
    import numpy as np

    def estimator(n, c, k):
        # The unbiased pass@k estimator, evaluated with numpy as miles' compute_pass_rate does.
        if n - c < k:
            return 1.0
        return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))

    means = []
    for n in [1, 3, 7, 8, 9, 15, 16, 17, 100, 128, 129, 255, 256, 257, 600, 1000]:
        vals = [value() for _ in range(n)]
        means.append({"values": vals, "mean": float(np.mean(np.array(vals))), "std": float(np.std(np.array(vals)))})
    pass_k = [{"n": n, "c": c, "k": k, "value": estimator(n, c, k)}
              for n in range(1, 17) for c in range(0, n + 1) for k in [2 ** i for i in range(int(math.log2(n)) + 1)]]
    return {"numpy": np.__version__, "npMean": means, "passK": pass_k}


out = {"python": sys.version.split()[0]}
out.update(make_py_sum() if sys.argv[1] == "pysum" else make_numpy())
json.dump(out, sys.stdout)
