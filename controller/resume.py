"""Resuming after a crash: the journal replayed, and the boards a legal continuation explains.

The board does not stop when the controller does.  After a restart it may show the
journal's position, any state of the pending roll's turn (a prefix of a legal play, the
whole play), that play followed by the next player's roll and moves, or a roll thrown and
played since the last journalled turn.  The controller accepts any board a legal
continuation explains and guides back only one that nothing explains.

This module holds the pure parts: replaying the journal into a match (``replay``), the
resume window's bookkeeping (``Window``) and the explanations (``judge_turn``,
``after_play``, ``some_roll_explains``).  The controller acts on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, Union

from .journal_entries import (
    CubeEntry, Entry, EntryError, GameEntry, GameOverEntry, OpeningEntry, RollEntry, TakebackEntry, TurnEntry, decode,
    type_of,
)
from .notation.position_json import position_to_json
from .rules.base import RuleSet
from .rules.game import Game, Match, TurnRecord
from .rules.turn import TurnMap
from .rules.values import IllegalPlayError, Play, Position, Roll
from .tracking import BoardReading, Kind, Tracker, Verdict

STALE_REPORT = 3.0
"""Seconds after the first event following a restart within which the tray's report of the
journal's own dice is taken as the tray still showing them (a device answers the snapshot
request at once; a player's new throw comes later)."""

ALL_ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 different rolls (order of the dice does not change the plays)."""


class ResumeError(ValueError):
    """A journal entry that does not follow from the ones before; ``index`` counts from 0."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class ResumePoint:
    """Where the journal leaves the game: the roll in play and the dice last seen in the tray."""

    pending: Roll | None
    """A roll journalled without its turn: the player to move plays it."""
    last_dice: Roll | None
    """The dice the tray showed at the journal's last roll or opening throw (still lying there)."""
    seq: int
    time: float = 0.0
    """The time of the journal's last entry."""


JournalItem = Union[Entry, dict[str, Any]]
"""A journal entry as read from disk (a JSON object) or already decoded."""


def decode_all(entries: Sequence[JournalItem]) -> list[Entry]:
    """Every entry decoded (``controller.journal_entries.decode``); ResumeError names the
    first one that is not a good entry."""
    decoded: list[Entry] = []
    for index, item in enumerate(entries):
        try:
            decoded.append(item if not isinstance(item, dict) else decode(item))
        except EntryError as error:
            kind = error.kind if error.kind is not None else "?"
            raise ResumeError(f"journal entry {index + 1} ({kind}): {error.problem}", index) from None
    return decoded


def last_throw(entries: Sequence[Entry]) -> int | None:
    """The board's number of the journal's last roll or opening throw, if it came with one."""
    for entry in reversed(entries):
        if isinstance(entry, (RollEntry, OpeningEntry)):
            return entry.throw
    return None


def replay(match: Match, entries: Sequence[Entry]) -> ResumePoint:
    """Replay journal entries into ``match`` (its games and score); raises ResumeError
    naming the first entry that does not follow from the ones before."""
    rules = match.rules
    game = match.games[-1] if match.games else match.new_game()
    pending: Roll | None = None
    last_dice: Roll | None = None
    seq = 0
    last_time = 0.0
    for index, entry in enumerate(entries):
        try:
            if isinstance(entry, OpeningEntry):
                a, b = entry.dice
                opening = game.throw_opening(a, b)
                if opening is None:
                    raise ValueError("equal opening throws decide nothing")
                pending = opening.roll
                last_dice = Roll(a, b)
            elif isinstance(entry, RollEntry):
                pending = last_dice = entry.roll
            elif isinstance(entry, TurnEntry):
                if entry.colour is not game.turn:
                    raise ValueError(f"it was {game.turn.value}'s turn")
                game.play(entry.roll, entry.play)
                if position_to_json(rules, game.position) != entry.after:
                    raise ValueError("the position after the turn differs from the one journalled")
                pending, last_dice = None, entry.roll
            elif isinstance(entry, TakebackEntry):
                record = game.undo()
                if not isinstance(record, TurnRecord):
                    raise ValueError("it takes back no turn")
                pending = record.roll
            elif isinstance(entry, CubeEntry):
                if pending is not None:
                    raise ValueError(f"{pending} was thrown: the cube comes before the roll")
                replay_cube(game, entry)
                pending = None
            elif isinstance(entry, GameOverEntry):
                match.finish_game()
                pending = None
            elif isinstance(entry, GameEntry):
                _score_if_over(match)
                game = match.new_game()
                pending = None
        except (KeyError, TypeError, ValueError, IllegalPlayError) as error:
            raise ResumeError(f"journal entry {index + 1} ({type_of(entry)}): {error}", index) from None
        seq = max(seq, entry.seq)
        last_time = max(last_time, float(entry.time))
    _score_if_over(match)  # a winning turn whose game-over entry was lost with the power
    return ResumePoint(pending, last_dice, seq, last_time)


def replay_cube(game: Game, entry: CubeEntry) -> None:
    """A journalled cube action into ``game`` (ValueError or IllegalPlayError when it does not
    follow: not allowed now, or a value other than the cube's)."""
    value = game.cube_value * 2
    if entry.value != value:
        raise ValueError(f"the cube is at {game.cube_value}: a {entry.action} is about {value}, not {entry.value}")
    game.cube(entry.colour, entry.action)


def _score_if_over(match: Match) -> None:
    """Score the current game if it is over and not scored yet."""
    if len(match.results) < len(match.games) and match.games[-1].is_over:
        match.finish_game()


@dataclass
class Window:
    """From a restart until the game goes on as usual: what the resumed controller knows.

    ``lenient`` holds until the board is first accepted: until then an unexplained board
    waits for the dice or is guided back, and is never warned about.  ``dice`` is the roll
    the tray reported since the restart.  The tray's first report, when it equals the
    journal's last dice, is the tray still showing them, not a new throw (though it may
    still explain a board a player moved with the same numbers thrown again).
    """

    pending: Roll | None
    stale: Roll | None
    dice: Roll | None = None
    lenient: bool = True
    reported: bool = False
    """The tray has reported since the restart."""
    opened: float | None = None
    """The time of the first event after the restart."""

    def note(self, time: float) -> None:
        """An event came at ``time``."""
        if self.opened is None:
            self.opened = time

    def is_stale(self, roll: Roll, time: float) -> bool:
        """Note a report of the tray; is it the tray still showing the journal's dice?"""
        self.note(time)
        first, self.reported = not self.reported, True
        recent = self.opened is not None and time <= self.opened + STALE_REPORT
        return first and recent and self.stale is not None and same_roll(roll, self.stale)

    def after_turn(self) -> Window | None:
        """What is left once a turn or a fresh roll is journalled: only the wait for the
        tray's first report, if it has not come yet."""
        if self.reported or self.stale is None:
            return None
        return Window(None, self.stale, lenient=False, opened=self.opened)


def same_roll(a: Roll, b: Roll) -> bool:
    """The same two numbers, in either order."""
    return sorted((a.first, a.second)) == sorted((b.first, b.second))


def explains(verdict: Verdict | None) -> bool:
    """A verdict of a legal state or a transient a hand explains."""
    return verdict is not None and verdict.kind is not Kind.WRONG


def judge_turn(rules: RuleSet, position: Position, roll: Roll, reading: BoardReading) -> Verdict | None:
    """The reading judged as a state of the turn ``roll`` starts at ``position`` (None: it passes)."""
    turn_map = TurnMap(rules, position, roll)
    if turn_map.passes:
        return None
    return Tracker(turn_map).judge(reading, turn_map.start)


def after_play(rules: RuleSet, position: Position, pending: Roll, dice: Roll, reading: BoardReading) -> Play | None:
    """A complete play of ``pending`` (the empty play when it passes) after which the reading
    is a state of the next player's turn with ``dice``; of several, the one that leaves the
    most dice to play."""
    first = TurnMap(rules, position, pending)
    best: tuple[int, Play] | None = None
    finals = [first.play_to(key) for key in first.states() if first.is_complete(key)] if not first.passes else [Play()]
    for play in finals:
        after = rules.apply(position, play)
        if rules.result(after) is not None:
            continue  # the game ended there: a later roll belongs to no one
        second = TurnMap(rules, after, dice)
        if second.passes:
            continue
        verdict = Tracker(second).judge(reading, second.start)
        if not explains(verdict):
            continue
        left = len(second.remaining_dice(verdict.key)) if verdict.key is not None else 0
        if best is None or left > best[0]:
            best = (left, play)
    return best[1] if best is not None else None


def some_roll_explains(rules: RuleSet, position: Position, reading: BoardReading) -> bool:
    """Could any roll's turn from ``position`` explain the reading?"""
    return any(explains(judge_turn(rules, position, roll, reading)) for roll in ALL_ROLLS)


def replayed_game(rules: RuleSet, game: Game) -> Game:
    """A fresh copy of ``game`` (opening and turns replayed), for a simulator's own truth."""
    copy = Game(rules, game.start, cube_allowed=game.cube_allowed)
    if game.opening is not None:
        copy.opening = game.opening
        copy.position = copy.position.with_turn(game.opening.first)
        copy.pending_roll = game.opening.roll
    for item in game.history:
        if isinstance(item, TurnRecord):
            copy.play(item.roll, item.play)
        else:
            copy.cube(item.colour, item.action)
    return copy
