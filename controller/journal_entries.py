"""The journal's entries as typed values: one frozen dataclass per entry type, one
``encode`` to the JSON object written on disk and one ``decode`` back.

``decode`` checks every field by type and range (a journal line may hold anything after a
power cut or a hand edit) and raises ``EntryError`` naming the entry type and the field.
``encode`` writes the same keys in the same order as the journal always had, so existing
journals load unchanged; ``Journal.append`` sorts the keys on disk anyway.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Union

from .rules.geometry import QUARTERS
from .rules.registry import get_rule_set
from .rules.values import Colour, Move, Play, Roll, RulesError

JOURNAL_VERSION = 1
"""The journal format this program writes (and the newest it reads)."""

MAX_SEQ = 10**12
MAX_TIME = 1e12
MAX_MATCH_LENGTH = 99
"""As the configuration allows (``game.match_length``)."""
MAX_POINTS = 10**6
MAX_GAMES = 10**6

MATCH_ID = re.compile(r"\d{4}-\d{2}-\d{2}-\d{3,6}")
"""A match id: the local date the match began and its sequence that day (``2026-11-30-001``)."""


class EntryError(ValueError):
    """A journal entry that is not a good entry of its type; ``problem`` names the field.
    ``kind`` is the entry's type, None when it is no entry at all."""

    def __init__(self, kind: str | None, problem: str) -> None:
        super().__init__(f"{kind} entry: {problem}" if kind is not None else problem)
        self.kind = kind
        self.problem = problem


class UnknownEntryType(EntryError):
    """An entry whose common fields are good but whose type this program does not know."""


# ------------------------------------------------------------------------------ the entries


@dataclass(frozen=True)
class StartEntry:
    """A match begins: what it is played with (the runner stamps ``match`` and ``started``)."""

    seq: int
    time: float
    rules: str
    options: dict[str, bool] = field(default_factory=dict)
    quarter: str | None = None
    match_length: int = 1
    version: int = JOURNAL_VERSION
    match: str | None = None
    started: str | None = None
    """The wall-clock time the match began, ISO format."""


@dataclass(frozen=True)
class GameEntry:
    """The next game of the match begins (its number, from 1)."""

    seq: int
    time: float
    number: int


@dataclass(frozen=True)
class OpeningEntry:
    """The opening throw, one die each (the first die: the player on White's side)."""

    seq: int
    time: float
    dice: tuple[int, int]
    throw: int | None = None
    """The board's number of the throw (protocol v2), when it came with one."""


@dataclass(frozen=True)
class RollEntry:
    """``colour`` rolled ``roll``; its turn follows."""

    seq: int
    time: float
    colour: Colour
    roll: Roll
    throw: int | None = None
    """The board's number of the throw (protocol v2), when it came with one."""


@dataclass(frozen=True)
class TurnEntry:
    """A turn played: the roll, the play (as notation and as moves) and the position after."""

    seq: int
    time: float
    colour: Colour
    roll: Roll
    notation: str
    """The play as written (``play`` on disk)."""
    play: Play
    """The moves (``moves`` on disk)."""
    after: dict[str, Any]
    """The position after the turn, as ``controller.notation.position_json`` writes it."""


@dataclass(frozen=True)
class TakebackEntry:
    """``colour``'s turn with ``roll`` was taken back."""

    seq: int
    time: float
    colour: Colour
    roll: Roll


@dataclass(frozen=True)
class GameOverEntry:
    """The game ended: who won, how many points, and how (``single``, ``gammon``...)."""

    seq: int
    time: float
    winner: Colour
    points: int
    kind: str


@dataclass(frozen=True)
class CubeEntry:
    """A doubling-cube action (backgammon): ``colour`` doubles, takes or drops (``action``);
    ``value`` is the cube's value the action is about (offered, taken or declined: the
    doubled value each time), so the journal alone shows the cube."""

    seq: int
    time: float
    colour: Colour
    action: str
    value: int


CUBE_ACTIONS = ("double", "take", "drop")
"""A cube entry's actions (as ``controller.rules.game.Game.cube`` takes them)."""
MAX_CUBE = 4096
"""The highest cube value (as the records allow)."""

Entry = Union[StartEntry, GameEntry, OpeningEntry, RollEntry, TurnEntry, TakebackEntry, GameOverEntry, CubeEntry]

_TYPES: dict[type, str] = {
    StartEntry: "start",
    GameEntry: "game",
    OpeningEntry: "opening",
    RollEntry: "roll",
    TurnEntry: "turn",
    TakebackEntry: "takeback",
    GameOverEntry: "game-over",
    CubeEntry: "cube",
}
TYPES: tuple[str, ...] = tuple(_TYPES.values())
"""The entry types this program writes and reads."""


def stamp(time: float) -> float:
    """A journal entry's time: to the millisecond."""
    return round(time, 3)


def type_of(entry: Entry) -> str:
    """The entry's ``type`` as written on disk."""
    return _TYPES[type(entry)]


# ------------------------------------------------------------------------------ encoding


def encode(entry: Entry) -> dict[str, Any]:
    """The JSON object of ``entry``, keys in the order the journal has always written them."""
    head: dict[str, Any] = {"seq": entry.seq, "time": entry.time, "type": type_of(entry)}
    if isinstance(entry, StartEntry):
        body: dict[str, Any] = {
            "rules": entry.rules, "options": dict(entry.options), "quarter": entry.quarter,
            "match_length": entry.match_length, "version": entry.version,
        }
        if entry.match is not None:
            body["match"] = entry.match
        if entry.started is not None:
            body["started"] = entry.started
    elif isinstance(entry, GameEntry):
        body = {"number": entry.number}
    elif isinstance(entry, OpeningEntry):
        body = {"dice": list(entry.dice)}
    elif isinstance(entry, RollEntry):
        body = {"colour": entry.colour.value, "roll": _roll_json(entry.roll)}
    elif isinstance(entry, TurnEntry):
        body = {
            "colour": entry.colour.value, "roll": _roll_json(entry.roll), "play": entry.notation,
            "moves": [[m.frm, m.to, m.die, m.hit] for m in entry.play], "after": entry.after,
        }
    elif isinstance(entry, TakebackEntry):
        body = {"colour": entry.colour.value, "roll": _roll_json(entry.roll)}
    elif isinstance(entry, GameOverEntry):
        body = {"winner": entry.winner.value, "points": entry.points, "kind": entry.kind}
    elif isinstance(entry, CubeEntry):
        body = {"colour": entry.colour.value, "action": entry.action, "value": entry.value}
    else:
        raise TypeError(f"not a journal entry: {entry!r}")
    if isinstance(entry, (OpeningEntry, RollEntry)) and entry.throw is not None:
        body["throw"] = entry.throw
    return {**head, **body}


def _roll_json(roll: Roll) -> list[int]:
    return [roll.first, roll.second]


# ------------------------------------------------------------------------------ decoding


def decode(data: object) -> Entry:
    """The typed entry of one journal JSON object; EntryError names the first bad field."""
    if not isinstance(data, dict):
        raise EntryError(None, "not a journal entry (a JSON object)")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise EntryError(None, "not a journal entry (no 'type')")
    fields = _Fields(kind, data)
    seq, time = fields.whole("seq", 1, MAX_SEQ), fields.time()
    decoder = _DECODERS.get(kind)
    if decoder is None:
        raise UnknownEntryType(kind, f"unknown entry type {kind!r}")
    return decoder(fields, seq, time)


@dataclass(frozen=True)
class _Fields:
    """One entry's fields being read: each reader checks its field or raises EntryError."""

    kind: str
    data: dict[str, Any]

    def fail(self, problem: str) -> EntryError:
        return EntryError(self.kind, problem)

    def whole(self, key: str, low: int, high: int) -> int:
        value = self.data.get(key)
        if not _is_int(value, low, high):
            raise self.fail(f"{key!r} must be a whole number {low}-{high}, not {_show(value)}")
        return value  # type: ignore[no-any-return]

    def time(self) -> float:
        value = self.data.get("time")
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or abs(value) > MAX_TIME:
            raise self.fail(f"'time' must be a number of seconds, not {_show(value)}")
        return value

    def colour(self, key: str = "colour") -> Colour:
        value = self.data.get(key)
        if value not in ("white", "black"):
            raise self.fail(f"{key!r} must be 'white' or 'black', not {_show(value)}")
        return Colour(value)

    def dice(self, key: str) -> tuple[int, int]:
        value = self.data.get(key)
        if not isinstance(value, list) or len(value) != 2 or not all(_is_int(d, 1, 6) for d in value):
            raise self.fail(f"{key!r} must be two dice [1-6, 1-6], not {_show(value)}")
        return value[0], value[1]

    def roll(self, key: str = "roll") -> Roll:
        return Roll(*self.dice(key))

    def text(self, key: str, limit: int = 200) -> str:
        value = self.data.get(key)
        if not isinstance(value, str) or len(value) > limit:
            raise self.fail(f"{key!r} must be text of at most {limit} characters, not {_show(value)}")
        return value

    def throw(self) -> int | None:
        """The board's throw number (serial link), when the roll came with one."""
        return None if self.data.get("throw") is None else self.whole("throw", 0, 0xFFFF)

    def moves(self) -> Play:
        moves = self.data.get("moves")
        if not isinstance(moves, list) or len(moves) > 4:
            raise self.fail(f"'moves' must be a list of at most 4 moves, not {_show(moves)}")
        for move in moves:
            if (
                not isinstance(move, list)
                or len(move) != 4
                or not all(_is_int(p, 0, 25) for p in move[:2])
                or not _is_int(move[2], 1, 6)
                or not isinstance(move[3], bool)
            ):
                raise self.fail(f"a move must be [from 0-25, to 0-25, die 1-6, hit true/false], not {_short(json.dumps(move))}")
        return Play(Move(f, t, d, h) for f, t, d, h in moves)

    def position(self, key: str) -> dict[str, Any]:
        value = self.data.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"{key!r} must be the position after the turn (a JSON object)")
        return value


def _start(fields: _Fields, seq: int, time: float) -> StartEntry:
    data = fields.data
    version = data.get("version")
    if not _is_int(version, 1, JOURNAL_VERSION):
        raise fields.fail(f"'version' must be 1-{JOURNAL_VERSION} (this program's journal), not {_show(version)}")
    rules, options = data.get("rules"), data.get("options")
    if not isinstance(rules, str):
        raise fields.fail(f"'rules' must be a rule-set name, not {_show(rules)}")
    if options is None:
        options = {}
    if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, bool) for k, v in options.items()):
        raise fields.fail(f"'options' must map option names to true/false, not {_show(options)}")
    quarter = data.get("quarter")
    if quarter is not None and quarter not in QUARTERS:
        raise fields.fail(f"'quarter' must be one of {', '.join(QUARTERS)} or null, not {_show(quarter)}")
    try:
        get_rule_set(rules, options).geometry(quarter)
    except (RulesError, TypeError, ValueError) as error:
        raise fields.fail(_short(str(error))) from None
    match_length = fields.whole("match_length", 0, MAX_MATCH_LENGTH)
    match = data.get("match")
    if match is not None and (not isinstance(match, str) or not MATCH_ID.fullmatch(match)):
        raise fields.fail(f"'match' must be an id like '2026-11-30-001', not {_show(match)}")
    started = data.get("started")
    if started is not None:
        if not isinstance(started, str) or len(started) > 40:
            raise fields.fail(f"'started' must be an ISO date and time, not {_show(started)}")
        try:
            datetime.fromisoformat(started)
        except ValueError:
            raise fields.fail(f"'started' must be an ISO date and time, not {_show(started)}") from None
    return StartEntry(seq, time, rules, dict(options), quarter, match_length, version, match, started)


def _game(fields: _Fields, seq: int, time: float) -> GameEntry:
    return GameEntry(seq, time, fields.whole("number", 1, MAX_GAMES))


def _opening(fields: _Fields, seq: int, time: float) -> OpeningEntry:
    return OpeningEntry(seq, time, fields.dice("dice"), fields.throw())


def _roll(fields: _Fields, seq: int, time: float) -> RollEntry:
    colour, roll = fields.colour(), fields.roll()
    return RollEntry(seq, time, colour, roll, fields.throw())


def _turn(fields: _Fields, seq: int, time: float) -> TurnEntry:
    colour, roll, notation = fields.colour(), fields.roll(), fields.text("play")
    return TurnEntry(seq, time, colour, roll, notation, fields.moves(), fields.position("after"))


def _takeback(fields: _Fields, seq: int, time: float) -> TakebackEntry:
    colour = fields.colour()
    return TakebackEntry(seq, time, colour, fields.roll())


def _game_over(fields: _Fields, seq: int, time: float) -> GameOverEntry:
    winner, points = fields.colour("winner"), fields.whole("points", 1, MAX_POINTS)
    return GameOverEntry(seq, time, winner, points, fields.text("kind", 40))


def _cube(fields: _Fields, seq: int, time: float) -> CubeEntry:
    colour, action = fields.colour(), fields.data.get("action")
    if action not in CUBE_ACTIONS:
        raise fields.fail(f"'action' must be one of {', '.join(CUBE_ACTIONS)}, not {_show(action)}")
    value = fields.whole("value", 2, MAX_CUBE)
    if value & (value - 1):
        raise fields.fail(f"'value' must be a power of two, not {value}")
    return CubeEntry(seq, time, colour, action, value)


_DECODERS: dict[str, Callable[[_Fields, int, float], Entry]] = {
    "start": _start,
    "game": _game,
    "opening": _opening,
    "roll": _roll,
    "turn": _turn,
    "takeback": _takeback,
    "game-over": _game_over,
    "cube": _cube,
}


def _is_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _show(value: object) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return _short(text)
