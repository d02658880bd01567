"""A small neural evaluation: inputs, one hidden layer of sigmoid units, sigmoid outputs.

TD-Gammon's shape, in numpy only.  ``TDLearner`` holds the eligibility traces of TD(lambda)
so the training script stays a loop of games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))


@dataclass
class Network:
    """Weights of an inputs -> hidden -> outputs network of sigmoid units."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def initial(cls, inputs: int, hidden: int, outputs: int, rng: np.random.Generator) -> Network:
        """Small random weights (seeded) to start training from."""
        return cls(
            rng.uniform(-0.1, 0.1, (inputs, hidden)).astype(np.float32),
            np.zeros(hidden, dtype=np.float32),
            rng.uniform(-0.1, 0.1, (hidden, outputs)).astype(np.float32),
            np.zeros(outputs, dtype=np.float32),
        )

    @property
    def shape(self) -> tuple[int, int, int]:
        """Inputs, hidden units, outputs."""
        return self.w1.shape[0], self.w1.shape[1], self.w2.shape[1]

    def hidden(self, x: np.ndarray) -> np.ndarray:
        """The hidden layer's activations for inputs ``x``."""
        return _sigmoid(x @ self.w1 + self.b1)

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Outputs for a batch ``(n, inputs)`` (or one vector)."""
        return _sigmoid(self.hidden(x) @ self.w2 + self.b2)


class TDLearner:
    """TD(lambda) over one player's sequence of positions: traces per output, then updates."""

    def __init__(self, net: Network, alpha: float, lam: float) -> None:
        self.net, self.alpha, self.lam = net, alpha, lam
        inputs, hidden, outputs = net.shape
        self.e1 = np.zeros((outputs, inputs, hidden), dtype=np.float32)
        self.eb1 = np.zeros((outputs, hidden), dtype=np.float32)
        self.e2 = np.zeros((hidden, outputs), dtype=np.float32)
        self.eb2 = np.zeros(outputs, dtype=np.float32)
        self.last: np.ndarray | None = None

    def reset(self) -> None:
        """Forget the traces: a new game starts."""
        for trace in (self.e1, self.eb1, self.e2, self.eb2):
            trace.fill(0.0)
        self.last = None

    def step(self, x: np.ndarray, target: np.ndarray | None = None) -> None:
        """Move the last position's value toward ``x``'s (or toward ``target`` at the end)."""
        net = self.net
        h = net.hidden(x)
        y = _sigmoid(h @ net.w2 + net.b2)
        if self.last is not None:
            delta = ((target if target is not None else y) - self.last).astype(np.float32)
            a = self.alpha
            net.w1 += a * np.tensordot(delta, self.e1, axes=1)
            net.b1 += a * (delta @ self.eb1)
            net.w2 += a * self.e2 * delta
            net.b2 += a * self.eb2 * delta
            if target is not None:
                return
        # traces of the gradient of every output at x
        dy = y * (1 - y)
        dh = (dy[:, None] * net.w2.T) * (h * (1 - h))[None, :]
        lam = self.lam
        self.e1 *= lam
        self.e1 += x[None, :, None] * dh[:, None, :]
        self.eb1 *= lam
        self.eb1 += dh
        self.e2 *= lam
        self.e2 += h[:, None] * dy[None, :]
        self.eb2 *= lam
        self.eb2 += dy
        self.last = y


__all__ = ["Network", "TDLearner"]
