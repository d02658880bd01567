"""Standard move notation, read and written: ``13/8 24/23``, ``bar/22``, ``8/2*``, ``6/off``,
``13/9(2)``, ``13/9/6``.

Numbers are the mover's own points.  A checker entering from the rally's pool is written
``pool/22`` (``bar/22`` is read too); the trictrac bar is ``bar``.  A pass (no legal play)
is written as an empty string and read from ``""``, ``-`` or ``pass``.  Reading needs the
position and the roll: a written play names where checkers went, and the engine finds the
legal play that leaves that position, so ``13/7`` with 4-2 reads whichever way is open.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Callable

from ..rules.base import RuleSet
from ..rules.geometry import Geometry
from ..rules.values import BAR, OFF, Colour, Move, Play, Position, Roll, RulesError

PASS_WORDS = ("", "-", "pass")


class NotationError(RulesError):
    """Move notation that cannot be read, or that names no legal play."""


_SEGMENT = re.compile(r"^(bar|pool|off|\d{1,2})(\*?)$")
_COUNT = re.compile(r"^(.*?)\((\d)\)$")


def _entry_word(rules: RuleSet) -> str:
    return "bar" if rules.MIRRORED else "pool"


def _point_text(point: int, entry: str) -> str:
    if point == BAR:
        return entry
    if point == OFF:
        return "off"
    return str(point)


def _chains(play: Play) -> list[list[Move]]:
    """The moves grouped by checker: a move from where another ended continues it, unless
    another chain already starts there (the chains stay one checker each; a chain never
    starts where it ends, since its checker only moves down)."""
    chains: list[list[Move]] = []
    for move in play:
        frm = move.frm
        if frm != BAR and frm != OFF and all(chain[0].frm != frm for chain in chains):
            for chain in chains:
                if chain[-1].to == frm:
                    chain.append(move)
                    break
            else:
                chains.append([move])
        else:
            chains.append([move])
    return chains


def _render(play: Play, name: Callable[[int], str]) -> str:
    texts = []
    for chain in _chains(play):
        parts = [name(chain[0].frm)]
        for move in chain:
            parts.append(name(move.to) + "*" if move.hit else name(move.to))
        texts.append("/".join(parts))
    counted: dict[str, int] = {}
    for text in texts:
        counted[text] = counted.get(text, 0) + 1
    if len(counted) == len(texts):  # no chain repeated: the texts as they are
        return " ".join(texts)
    out: list[str] = []
    for text in texts:
        if text in counted:
            n = counted.pop(text)
            out.append(f"{text}({n})" if n > 1 else text)
    return " ".join(out)


_POINT_NAMES = {entry: tuple(_point_text(point, entry) for point in range(BAR + 1)) for entry in ("bar", "pool")}
"""Every point's name in notation, by the entry word (``format_play`` writes one a turn)."""


def format_play(play: Play, rules: RuleSet) -> str:
    """The play in standard notation: chains joined (``13/9/6``), repeats counted (``(2)``)."""
    return _render(play, _POINT_NAMES[_entry_word(rules)].__getitem__)


def format_play_lines(play: Play, rules: RuleSet, geometry: Geometry, colour: Colour) -> str:
    """The play with Mendelev's line names instead of own points (``XII/8 I/II``)."""
    entry = _entry_word(rules)
    return _render(
        play, lambda point: _point_text(point, entry) if point in (BAR, OFF) else geometry.line(colour, point)
    )


def _read_point(word: str, text: str) -> int:
    if word in ("bar", "pool"):
        return BAR
    if word == "off":
        return OFF
    point = int(word)
    if not 1 <= point <= 24:
        raise NotationError(f"{text!r}: point {point} is not on the board (1-24)")
    return point


def parse_legs(text: str) -> list[tuple[int, int, bool]]:
    """The written checker movements ``(from, to, hit at to)``, one per checker per stretch."""
    legs: list[tuple[int, int, bool]] = []
    for token in text.lower().split():
        repeat = 1
        match = _COUNT.match(token)
        if match:
            token, repeat = match.group(1), int(match.group(2))
            if repeat < 1 or repeat > 4:
                raise NotationError(f"{text!r}: a move is repeated 1 to 4 times, not {repeat}")
        words = token.split("/")
        if len(words) < 2:
            raise NotationError(f"{text!r}: {token!r} is not a move like '13/8'")
        points: list[tuple[int, bool]] = []
        for word in words:
            seg = _SEGMENT.match(word)
            if not seg:
                raise NotationError(f"{text!r}: {word!r} is not a point, 'bar', 'pool' or 'off'")
            points.append((_read_point(seg.group(1), text), bool(seg.group(2))))
        if points[0][1]:
            raise NotationError(f"{text!r}: a hit mark belongs after the point landed on")
        for (frm, _), (to, hit) in zip(points, points[1:]):
            if frm == OFF or to == BAR or (to != OFF and to >= frm):
                raise NotationError(f"{text!r}: a checker cannot move from {_point_text(frm, 'bar')} to {_point_text(to, 'bar')}")
            legs.extend([(frm, to, hit)] * repeat)
    return legs


@lru_cache(maxsize=8)
def _plays_by_side(rules: RuleSet, position: Position, roll: Roll) -> dict[tuple[int, ...], tuple[Play, ...]]:
    """The legal plays grouped by the mover's side they leave.  Cached: a record or a
    round trip reads every play of one turn against the same position and roll, and the
    legal plays of a double can number thousands.  Never changed by the caller."""
    mover = position.turn
    grouped: dict[tuple[int, ...], list[Play]] = {}
    for after, play in rules.legal_results(position, roll).items():
        grouped.setdefault(after.side(mover), []).append(play)
    return {side: tuple(plays) for side, plays in grouped.items()}


def parse_play(text: str, rules: RuleSet, position: Position, roll: Roll) -> Play:
    """The legal play that ``text`` describes, in ``position`` with ``roll``.

    Raises NotationError when the text is malformed, names no legal play, or could mean
    more than one.
    """
    legal = _plays_by_side(rules, position, roll)
    words = text.strip().lower()
    if words in PASS_WORDS:
        if legal:
            raise NotationError(f"no move written, but {roll} can be played")
        return Play()
    legs = parse_legs(words)
    mover = position.turn
    side = list(position.side(mover))
    for frm, to, _ in legs:
        side[frm] -= 1
        side[to] += 1
        if side[frm] < 0:
            raise NotationError(f"{text!r}: {mover.value} has no checker left on {_point_text(frm, _entry_word(rules))}")
    target = tuple(side)
    hits = Counter(to for _, to, hit in legs if hit)
    candidates = list(legal.get(target, ()))
    if not candidates:
        raise NotationError(f"{text!r} is not a legal play for {mover.value} with {roll}")
    exact = [play for play in candidates if Counter(m.to for m in play.moves if m.hit) == hits]
    if len(exact) == 1:
        return exact[0]
    if not hits and len(candidates) == 1:
        return candidates[0]
    if not exact and hits:
        raise NotationError(f"{text!r}: the hits written do not match a legal play with {roll}")
    raise NotationError(f"{text!r} is ambiguous with {roll}: write the intermediate points and hits")
