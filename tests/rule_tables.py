"""Helpers of the hand-checked rule tables: positions written from the mover's side and
results written as short strings (``"bar 13x2 8 *7"``: one on the bar, two on 13, one on
8, an opposing checker hit on the mover's 7), for trictrac's and the rally's geometry."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.rules import BAR, WHITE, Colour, Position, PositionError, Roll


def theirs_point(p: int, mirrored: bool) -> int:
    """The opponent's own number of the physical point that is ``p`` for the mover."""
    return 25 - p if mirrored else p


def position(mine: dict[int, int], theirs: dict[int, int] | None, *, mirrored: bool, turn: Colour = WHITE,
             bar: int = 0, opp_bar: int = 0) -> Position:
    """A position seen from the mover: ``mine`` in own points, ``theirs`` in the mover's
    points; checkers not placed are borne off."""
    mover = dict(mine)
    opp = {theirs_point(p, mirrored): n for p, n in (theirs or {}).items()}
    mover_off = 15 - sum(mover.values()) - bar
    opp_off = 15 - sum(opp.values()) - opp_bar
    if turn is WHITE:
        return Position.from_counts(mover, opp, turn=turn, white_bar=bar, black_bar=opp_bar,
                                    white_off=mover_off, black_off=opp_off)
    return Position.from_counts(opp, mover, turn=turn, white_bar=opp_bar, black_bar=bar,
                                white_off=opp_off, black_off=mover_off)


def R(text: str) -> Roll:
    """A roll written ``"65"``."""
    return Roll(int(text[0]), int(text[1]))


def _render(counts: Counter, hits: Counter) -> str:
    parts = []
    for name in ["bar"] + [str(p) for p in range(24, 0, -1)]:
        n = counts.get(name, 0)
        if n:
            parts.append(name if n == 1 else f"{name}x{n}")
    for p in sorted(hits, key=int, reverse=True):
        parts.extend([f"*{p}"] * hits[p])
    return " ".join(parts)


def canon(text: str) -> str:
    """Normalise a hand-written result: any order, ``13 13`` == ``13x2``."""
    counts: Counter = Counter()
    hits: Counter = Counter()
    for tok in text.split():
        if tok.startswith("*"):
            hits[tok[1:]] += 1
            continue
        name, _, n = tok.partition("x")
        counts[name] += int(n) if n else 1
    return _render(counts, hits)


def describe(before: Position, after: Position, mirrored: bool) -> str:
    """The mover's checkers after the play and the hits it made, as a short string."""
    mover = before.turn
    side = after.side(mover)
    counts: Counter = Counter()
    if side[BAR]:
        counts["bar"] = side[BAR]
    for p in range(1, 25):
        if side[p]:
            counts[str(p)] = side[p]
    hits: Counter = Counter()
    opp_before, opp_after = before.side(mover.opponent), after.side(mover.opponent)
    for p in range(1, 25):
        lost = opp_before[theirs_point(p, mirrored)] - opp_after[theirs_point(p, mirrored)]
        if lost > 0:
            hits[str(p)] = lost
    assert opp_after[BAR] - opp_before[BAR] == sum(hits.values())  # hit checkers go to the bar or pool
    return _render(counts, hits)


def outcomes(rs, pos: Position, roll: Roll) -> set[str]:  # type: ignore[no-untyped-def]
    """Every legal result as a short string, checking one play per result and that each
    play applies to its result and is legal."""
    rs.validate(pos)
    results = rs.legal_results(pos, roll)
    plays = rs.legal_plays(pos, roll)
    got = {describe(pos, after, rs.MIRRORED) for after in results}
    assert len(plays) == len(results) == len(got)
    for after, play in results.items():
        assert after.turn is pos.turn.opponent
        assert rs.apply(pos, play) == after
        assert rs.is_legal(pos, roll, play)
    return got


def check_validate(rs, white: dict[int, int], black: dict[int, int], ok: bool) -> None:  # type: ignore[no-untyped-def]
    """``validate`` accepts the position (the rest of each side off) exactly when ``ok``."""
    pos = Position.from_counts(white, black, white_off=15 - sum(white.values()),
                               black_off=15 - sum(black.values()))
    if ok:
        assert rs.validate(pos) == pos
    else:
        with pytest.raises(PositionError):
            rs.validate(pos)


def expect(*texts: str) -> set[str]:
    """Hand-written results, normalised."""
    return {canon(t) for t in texts}
