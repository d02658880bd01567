"""The built-in engine: a small TD-trained network per rule set ranking the legal plays.

Pure like the rules engine (no I/O but reading its own weights, no clock, randomness only
passed in).
"""

from .encoding import INPUTS, LEVELS, encode
from .engine import DEFAULT_LEVEL, ENGINE_LEVELS, Engine, EngineError, Evaluation, Evaluator
from .network import Network, TDLearner
from .weights import WeightsError, shipped

__all__ = [
    "DEFAULT_LEVEL", "ENGINE_LEVELS", "INPUTS", "LEVELS", "Engine", "EngineError", "Evaluation", "Evaluator",
    "Network", "TDLearner", "WeightsError", "encode", "shipped",
]
