"""The shipped weights: one small ``.npz`` a rule set, its training record kept inside as JSON.

Reading the package's own data file is the only I/O of the engine; writing is the training
script's (``benchmarks/train_engine.py``), through ``arrays`` so one module owns the format.
"""

from __future__ import annotations

import io
import json
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from .network import Network

FORMAT = 1


class WeightsError(ValueError):
    """No weights for a rule set, or a file that is not a weights file of this format."""


def arrays(net: Network, meta: dict[str, Any]) -> dict[str, np.ndarray]:
    """What ``numpy.savez`` stores: the weights and the metadata as JSON text."""
    record = dict(meta, format=FORMAT, shape=list(net.shape))
    return {"w1": net.w1, "b1": net.b1, "w2": net.w2, "b2": net.b2, "meta": np.array(json.dumps(record, sort_keys=True))}


def from_arrays(data: Any) -> tuple[Network, dict[str, Any]]:
    """A network and its metadata from a loaded ``.npz``."""
    try:
        meta = json.loads(str(data["meta"]))
        net = Network(*(np.asarray(data[name], dtype=np.float32) for name in ("w1", "b1", "w2", "b2")))
    except (KeyError, ValueError) as error:
        raise WeightsError(f"not an engine weights file: {error}") from None
    if meta.get("format") != FORMAT:
        raise WeightsError(f"weights format {meta.get('format')!r}, expected {FORMAT}")
    return net, meta


@lru_cache(maxsize=None)
def shipped(rules_name: str) -> tuple[Network, dict[str, Any]]:
    """The weights shipped in the package for ``rules_name`` (loaded once)."""
    resource = resources.files(__package__).joinpath("weights", f"{rules_name}.npz")
    try:
        blob = resource.read_bytes()
    except (FileNotFoundError, OSError):
        raise WeightsError(f"no engine weights for rule set {rules_name!r}") from None
    with np.load(io.BytesIO(blob), allow_pickle=False) as data:
        return from_arrays(data)


__all__ = ["FORMAT", "WeightsError", "arrays", "from_arrays", "shipped"]
