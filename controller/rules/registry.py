"""Rule sets found by name, as python-chess finds its variants."""

from __future__ import annotations

from typing import Mapping, TypeVar

from .base import RuleSet
from .values import UnknownRuleSetError

_RULE_SETS: dict[str, type[RuleSet]] = {}

R = TypeVar("R", bound=type[RuleSet])


def register(cls: R) -> R:
    """Class decorator: make a rule set available by its ``name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    if cls.name in _RULE_SETS:
        raise ValueError(f"rule set {cls.name!r} is registered twice")
    _RULE_SETS[cls.name] = cls
    return cls


def rule_set_names() -> tuple[str, ...]:
    """The names of every registered rule set."""
    return tuple(_RULE_SETS)


def get_rule_set(name: str, options: Mapping[str, bool] | None = None) -> RuleSet:
    """The rule set called ``name`` with ``options``; UnknownRuleSetError if there is none."""
    try:
        cls = _RULE_SETS[name]
    except KeyError:
        known = ", ".join(_RULE_SETS)
        raise UnknownRuleSetError(f"unknown rule set {name!r} (known: {known})") from None
    return cls(**dict(options or {}))
