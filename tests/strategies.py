"""Hypothesis strategies for the rules engine: rule sets, rolls, positions and whole games.

Import from a test module as ``from strategies import ...`` (pytest puts ``tests/`` on the
path) or ``from tests.strategies import ...``.

Positions come from two sources, mixed by :func:`positions`:

* **Random legal games** (:func:`game_positions`): a position some plies into a game played
  from the start with random rolls and uniformly random legal plays.  These are realistic:
  the mix of blots, points, checkers on the bar, bear-off races and, in the rally, entry
  phases that real games go through.  Games are seeded and cached, so drawing many
  positions from them is cheap.
* **Constructed positions** (:func:`constructed_positions`), edge-heavy by kind:
  ``any`` (checkers anywhere), ``bar`` (the mover has checkers on the bar / in the pool,
  the opponent stacked on the entry points), ``bearoff`` (the mover all home, or nearly),
  ``crowded`` (the mover on a run of consecutive points, near a six-block, the opponent
  scattered ahead of and behind it), ``blocked`` (the mover down to one to three checkers
  and the opponent's stacks in front of them: passes and one-die plays, where the rule
  "the larger die if only one can be played" decides).  Every one is valid under its rule set and has no
  winner yet.

Everything here is built with the public API only (``get_rule_set``, ``Position``,
``Roll``, ``legal_results``, ``opponent_point``), so it does not depend on the engine's
internals.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from hypothesis import strategies as st

from controller.rules import BAR, BLACK, CHECKERS, OFF, WHITE, Colour, Play, Position, Roll, TurnMap, get_rule_set
from controller.rules.base import RuleSet

# -- rule sets -------------------------------------------------------------------------------

RULE_SET_SPECS: tuple[tuple[str, tuple[tuple[str, bool], ...]], ...] = (
    ("trictrac", ()),
    ("backgammon", ()),
    ("rally", ()),
    ("rally-hitting", ()),
    ("rally", (("bear_off_higher", True),)),
    ("rally-hitting", (("bear_off_higher", True),)),
    ("rally", (("mars", True),)),
)
"""Every rule set and option combination the properties run over."""

TRICTRAC_NAMES = ("trictrac", "backgammon")
RALLY_NAMES = ("rally", "rally-hitting")


def make_rule_set(name: str, options: tuple[tuple[str, bool], ...] | dict[str, bool] = ()) -> RuleSet:
    """The rule set called ``name`` with ``options`` (pairs or a dict)."""
    return get_rule_set(name, dict(options))


def rule_sets(names: tuple[str, ...] | None = None) -> st.SearchStrategy[RuleSet]:
    """A rule set from :data:`RULE_SET_SPECS`, optionally only those called one of ``names``."""
    specs = [spec for spec in RULE_SET_SPECS if names is None or spec[0] in names]
    return st.sampled_from(specs).map(lambda spec: make_rule_set(*spec))


def is_mirrored(rules: RuleSet) -> bool:
    """Trictrac geometry: my own point p is the opponent's 25 - p (rally: the same p)."""
    return rules.opponent_point(1) == 24


def is_rally(rules: RuleSet) -> bool:
    """One of the rally rule sets (pool entry, shared track)."""
    return rules.name in RALLY_NAMES


# -- rolls -------------------------------------------------------------------------------------

dice = st.integers(min_value=1, max_value=6)
"""One die."""


def rolls() -> st.SearchStrategy[Roll]:
    """Any roll, doubles included, in either order of the dice."""
    return st.builds(Roll, dice, dice)


def doubles() -> st.SearchStrategy[Roll]:
    """A double."""
    return dice.map(lambda d: Roll(d, d))


def non_doubles() -> st.SearchStrategy[Roll]:
    """A roll of two different dice."""
    return st.tuples(dice, dice).filter(lambda ab: ab[0] != ab[1]).map(lambda ab: Roll(*ab))


def opening_throws() -> st.SearchStrategy[tuple[int, int]]:
    """Two different single dice, as thrown by player 0 and player 1 to decide who starts."""
    return st.tuples(dice, dice).filter(lambda ab: ab[0] != ab[1])


# -- random legal games ------------------------------------------------------------------------

MAX_PLIES = 2000
"""A random game longer than this is taken to be stuck (none seen is longer than ~300)."""


class Ply(NamedTuple):
    """One turn of a recorded game: the position before, the roll, the play made (empty: pass)."""

    before: Position
    roll: Roll
    play: Play
    after: Position


@lru_cache(maxsize=512)
def random_game(rules: RuleSet, seed: int, max_plies: int = MAX_PLIES) -> tuple[Ply, ...]:
    """A game from the start position under ``rules``, random rolls and uniformly random legal plays.

    White moves first.  It ends when someone has won or after ``max_plies`` turns.  Passes
    (no legal play) are recorded as empty plays.
    """
    rng = random.Random(seed)
    position = rules.start_position()
    plies: list[Ply] = []
    while rules.result(position) is None and len(plies) < max_plies:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        results = rules.legal_results(position, roll)
        if results:
            after = rng.choice(sorted(results, key=_position_key))
            play = results[after]
        else:
            after, play = position.with_turn(position.turn.opponent), Play()
        plies.append(Ply(position, roll, play, after))
        position = after
    return tuple(plies)


def _position_key(position: Position) -> tuple:
    """A total order on positions (for choices that do not depend on dict order)."""
    return (position.white, position.black, position.turn.value)


GAME_SEEDS = 20
"""Random games per rule set that :func:`game_positions` draws from (cached, so cheap)."""


@st.composite
def game_positions(draw: st.DrawFn, rules: RuleSet) -> Position:
    """A position reached in a random legal game under ``rules`` (no winner yet)."""
    plies = random_game(rules, draw(st.integers(0, GAME_SEEDS - 1)))
    index = draw(st.integers(0, len(plies) - 1))
    return plies[index].before


# -- constructed positions ----------------------------------------------------------------------

POSITION_KINDS = ("any", "bar", "bearoff", "crowded", "blocked")


def _spread(draw: st.DrawFn, total: int, points: list[int], max_points: int | None = None) -> dict[int, int]:
    """``total`` checkers on some of ``points`` (each chosen point gets at least one)."""
    if total == 0:
        return {}
    if not points:
        raise ValueError("no room for the checkers")
    most = min(len(points), total, max_points or len(points))
    chosen = draw(st.lists(st.sampled_from(points), min_size=1, max_size=most, unique=True))
    counts = {p: 1 for p in chosen}
    for p in draw(st.lists(st.sampled_from(chosen), min_size=total - len(chosen), max_size=total - len(chosen))):
        counts[p] += 1
    if max(counts.values()) > CHECKERS:
        raise ValueError("impossible count")
    return counts


def _side(counts: dict[int, int], bar: int, off: int) -> tuple[int, ...]:
    side = [0] * 26
    for p, n in counts.items():
        side[p] += n
    side[BAR] += bar
    side[OFF] += off
    assert sum(side) == CHECKERS
    return tuple(side)


@st.composite
def constructed_positions(draw: st.DrawFn, rules: RuleSet, kind: str | None = None) -> Position:
    """A valid position under ``rules`` built checker by checker, edge-heavy by ``kind``.

    ``kind`` is one of :data:`POSITION_KINDS` (drawn when None).  The mover is drawn too.
    """
    if kind is None:
        kind = draw(st.sampled_from(POSITION_KINDS))
    turn: Colour = draw(st.sampled_from([WHITE, BLACK]))
    rally = is_rally(rules)
    to_opp = rules.opponent_point  # my own point -> the opponent's own number for it
    board = list(range(1, 25))

    # the mover's side
    if kind == "bar":
        bar = draw(st.integers(1, CHECKERS if rally else 4))
        off = draw(st.integers(0, CHECKERS - bar)) if draw(st.booleans()) else 0
        rest = CHECKERS - bar - off
        mine = _spread(draw, rest, board)
    elif kind == "bearoff":
        bar = 1 if draw(st.integers(0, 5)) == 0 else 0
        off = draw(st.integers(0, CHECKERS - 1 - bar))
        rest = CHECKERS - bar - off
        stray = 1 if rest > 1 and draw(st.integers(0, 5)) == 0 else 0
        home = _spread(draw, rest - stray, list(range(1, 7)))
        if stray:
            p = draw(st.integers(7, 12))
            home[p] = home.get(p, 0) + 1
        mine = home
    elif kind == "crowded":
        run = draw(st.integers(4, 7))
        low = draw(st.integers(1, 25 - run))
        points = list(range(low, low + run))
        # one or two on each point of the run (two make it count in rally-hitting's bans)
        mine = {p: draw(st.integers(1, 2)) for p in points}
        # leave some gaps so that one move closes a six-block
        for p in draw(st.lists(st.sampled_from(points), max_size=2, unique=True)):
            del mine[p]
        used = sum(mine.values())
        bar = draw(st.integers(0, CHECKERS - used if rally else min(3, CHECKERS - used)))
        off = 0
        extra = CHECKERS - used - bar
        others = [p for p in board if p not in mine]
        for p, n in _spread(draw, extra, others + points).items():
            mine[p] = mine.get(p, 0) + n
    elif kind == "blocked":
        left = draw(st.integers(1, 3))
        bar = draw(st.integers(0, left))
        off = CHECKERS - left
        mine = _spread(draw, left - bar, board)
    else:
        bar = draw(st.sampled_from([0, 0, 0, 1, 2, 3] if not rally else [0, 0, 1, 3, 8, 15]))
        off = draw(st.sampled_from([0, 0, 0, 2, 5, 10, 14]))
        off = min(off, CHECKERS - bar)
        mine = _spread(draw, CHECKERS - bar - off, board)
    mover_side = _side(mine, bar, off)

    # the opponent's side: only on physical points the mover leaves empty
    free = [q for q in board if mover_side[to_opp(q)] == 0]
    if kind == "bar":
        # stack the opponent on the mover's entry points (own 19-24 for the mover)
        entry = [q for q in free if to_opp(q) >= 19]
        preferred = entry if entry and draw(st.booleans()) else free
    elif kind == "bearoff":
        # the opponent on the mover's home board (blots to hit, points in the way)
        near = [q for q in free if to_opp(q) <= 12]
        preferred = near if near and draw(st.booleans()) else free
    elif kind == "blocked":
        # the opponent in front of the mover's checkers
        top = BAR if bar else max(mine)
        ahead = [q for q in free if to_opp(q) < top]
        preferred = ahead or free
    else:
        preferred = free
    if kind == "blocked":
        obar, ooff = 0, draw(st.sampled_from([0, 0, 0, 3]))
    else:
        obar = draw(st.sampled_from([0, 0, 0, 1, 2] if not rally else [0, 0, 1, 5, 15]))
        ooff = draw(st.sampled_from([0, 0, 0, 3, 8, 14]))
    ooff = min(ooff, CHECKERS - obar)
    orest = CHECKERS - obar - ooff
    if orest and not preferred:
        ooff += orest
        orest = 0
    if ooff == CHECKERS:
        ooff, obar = CHECKERS - 1, obar + 1
    most = draw(st.integers(3, 7)) if kind == "blocked" else draw(st.integers(1, 12))
    theirs = _spread(draw, orest, preferred, max_points=most)
    opponent_side = _side(theirs, obar, ooff)

    if off == CHECKERS:  # cannot happen (the mover always keeps one), but keep the guard
        raise AssertionError("mover has already won")
    white, black = (mover_side, opponent_side) if turn is WHITE else (opponent_side, mover_side)
    position = Position(white, black, turn)
    rules.validate(position)
    assert position.winner() is None
    return position


def positions(rules: RuleSet) -> st.SearchStrategy[Position]:
    """A valid position under ``rules`` with no winner: from random games or constructed."""
    return st.one_of(
        game_positions(rules),
        constructed_positions(rules),
        game_positions(rules),
    )


# -- (rule set, position, roll) ------------------------------------------------------------------


class Case(NamedTuple):
    """A rule set, a position under it with no winner, and a roll for the player to move."""

    rules: RuleSet
    position: Position
    roll: Roll


@st.composite
def cases(draw: st.DrawFn, names: tuple[str, ...] | None = None, kind: str | None = None) -> Case:
    """A :class:`Case`; ``names`` limits the rule sets, ``kind`` forces a constructed position kind."""
    rules = draw(rule_sets(names))
    if kind is None:
        position = draw(positions(rules))
    else:
        position = draw(constructed_positions(rules, kind))
    return Case(rules, position, draw(rolls()))


def all_checkers(position: Position, colour: Colour) -> int:
    """Checkers of ``colour`` on the board, on the bar or pool, and off."""
    return sum(position.side(colour))


__all__ = [
    "Case", "GAME_SEEDS", "MAX_PLIES", "POSITION_KINDS", "Ply", "RALLY_NAMES", "RULE_SET_SPECS",
    "TRICTRAC_NAMES", "all_checkers", "cases", "constructed_positions", "dice", "doubles",
    "game_positions", "is_mirrored", "is_rally", "make_rule_set", "non_doubles", "opening_throws",
    "positions", "random_game", "rolls", "rule_sets",
]


@st.composite
def turns(draw: st.DrawFn) -> tuple[RuleSet, Position, Roll, TurnMap]:
    """A rule set, a position of its games, a roll, and the turn that roll plays there."""
    rules = draw(rule_sets())
    position = draw(positions(rules))
    roll = draw(rolls())
    return rules, position, roll, TurnMap(rules, position, roll)
