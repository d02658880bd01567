"""Which journal entries still replay when some in the middle are damaged.

Every entry passed ``controller.journal_check`` (types and ranges); here each is tried in
order on the match the kept entries before it make.  One that does not follow (an illegal
or mismatched turn, a roll by the wrong player or while another waits to be played, a
takeback of a turn that was not the last) is left out, and the next ones are tried without
it.  Each entry is checked before it changes anything, or undone, so one pass is enough.
``Controller.resume`` stays the authority: ``resume_kept`` leaves out, one by one, any entry
it still refuses.
"""

from __future__ import annotations

from typing import Any

from .journal_entries import (
    CubeEntry, Entry, GameEntry, GameOverEntry, OpeningEntry, RollEntry, StartEntry, TakebackEntry, TurnEntry,
    UnknownEntryType, decode, type_of,
)
from .machine import Controller, ResumeError, Settings
from .notation.position_json import position_to_json
from .resume import replay_cube, same_roll
from .rules.game import Match, TurnRecord
from .rules.values import Roll, RulesError


def salvage(settings: Settings, entries: list[dict[str, Any]]) -> tuple[list[int], dict[int, str]]:
    """The indices of the entries to keep, and why each other one does not replay."""
    probe = _Probe(Match(settings.rules, settings.match_length))
    keep: list[int] = []
    problems: dict[int, str] = {}
    for index, entry in enumerate(entries):
        try:
            problem = probe.apply(decode(entry), index)
        except UnknownEntryType as error:
            problem = f"a {error.kind!r} entry here"
        except Exception as error:  # noqa: BLE001 - a journal must never stop the board from starting
            problem = str(error) or type(error).__name__
        if problem is None:
            keep.append(index)
        else:
            problems[index] = f"the entry does not replay ({_short(problem)})"
    return keep, problems


def resume_kept(
    settings: Settings, entries: list[dict[str, Any]], keep: list[int], problems: dict[int, str]
) -> Controller:
    """A controller resumed from the kept entries; an entry it refuses moves from ``keep``
    to ``problems`` (both are updated) and the others are tried again."""
    while True:
        controller = Controller(settings)
        try:
            controller.resume([entries[i] for i in keep])
            return controller
        except ResumeError as error:
            at = error.index if 0 < error.index < len(keep) else len(keep) - 1
            reason: BaseException = error
        except Exception as error:  # noqa: BLE001 - as above
            at, reason = len(keep) - 1, error
        if at <= 0:  # only the start is left and it does not resume: nothing can be kept
            problems.update({i: f"the entry does not replay ({_short(str(reason))})" for i in keep[1:]})
            del keep[1:]
            controller = Controller(settings)
            controller.resume([entries[keep[0]]] if keep else [])
            return controller
        index = keep.pop(at)
        problems[index] = f"the entry does not replay ({_short(str(reason))})"


def _short(text: str) -> str:
    if text.startswith("journal entry ") and ": " in text:  # "journal entry 7 (turn): ..."
        text = text.split(": ", 1)[1]
    return text if len(text) <= 160 else text[:157] + "..."


class _Probe:
    """The match as the kept entries leave it, and the roll thrown and not yet played."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.game = match.new_game()
        self.pending: Roll | None = None

    def apply(self, entry: Entry, index: int) -> str | None:
        """Apply ``entry`` (the ``index``-th) if it follows; otherwise change nothing and say why not."""
        if index == 0:
            return None if isinstance(entry, StartEntry) else "not a start"
        if isinstance(entry, StartEntry):
            return f"a {type_of(entry)!r} entry here"
        try:
            if isinstance(entry, OpeningEntry):
                return self._opening(entry)
            if isinstance(entry, RollEntry):
                return self._roll(entry)
            if isinstance(entry, TurnEntry):
                return self._turn(entry)
            if isinstance(entry, TakebackEntry):
                return self._takeback(entry)
            if isinstance(entry, GameOverEntry):
                return self._game_over(entry)
            if isinstance(entry, CubeEntry):
                return self._cube(entry)
            return self._game(entry)
        except RulesError as error:  # IllegalPlayError and the like: raised before any change
            return str(error)

    def _opening(self, entry: OpeningEntry) -> str | None:
        if self.game.opening is not None or self.game.history:
            return "the opening throw comes once, before the first turn"
        opening = self.game.throw_opening(*entry.dice)
        if opening is None:
            return "equal opening throws decide nothing"
        self.pending = opening.roll
        return None

    def _roll(self, entry: RollEntry) -> str | None:
        game = self.game
        if game.is_over:
            return "the game is over"
        if game.opening is None:
            return "a roll before the opening throw"
        if entry.colour is not game.turn:
            return f"it is {game.turn.value}'s turn to roll"
        if self.pending is not None:
            return f"{self.pending} was thrown and not played yet"
        self.pending = entry.roll
        return None

    def _turn(self, entry: TurnEntry) -> str | None:
        game = self.game
        if entry.colour is not game.turn:
            return f"it was {game.turn.value}'s turn"
        roll = entry.roll
        if self.pending is not None and not same_roll(roll, self.pending):
            return f"the turn's roll {roll} is not the roll thrown, {self.pending}"
        game.play(roll, entry.play)
        if position_to_json(self.match.rules, game.position) != entry.after:
            game.undo()
            return "the position after the turn differs from the one journalled"
        self.pending = None
        return None

    def _takeback(self, entry: TakebackEntry) -> str | None:
        history = self.game.history
        last = history[-1] if history else None
        if not isinstance(last, TurnRecord) or last.colour is not entry.colour or not same_roll(last.roll, entry.roll):
            return "it takes back no turn of this game"
        self.game.undo()
        self.pending = last.roll
        return None

    def _cube(self, entry: CubeEntry) -> str | None:
        if self.pending is not None:
            return f"{self.pending} was thrown: the cube comes before the roll"
        try:
            replay_cube(self.game, entry)
        except ValueError as error:
            return str(error)
        return None

    def _game_over(self, entry: GameOverEntry) -> str | None:
        result = self.game.result()
        if result is None or len(self.match.results) >= len(self.match.games):
            return "no finished, unscored game to score"
        if result.winner is not entry.winner or result.points != entry.points:
            return f"the game gives {result.winner.value} {result.points}, not {entry.winner.value} {entry.points}"
        self.match.finish_game()
        self.pending = None
        return None

    def _game(self, entry: GameEntry) -> str | None:
        match = self.match
        if not self.game.is_over:
            return "the game before is not over"
        if len(match.results) < len(match.games):
            match.finish_game()  # its game-over entry was lost
        if match.winner() is not None:
            return "the match is over"
        self.game = match.new_game()
        self.pending = None
        return None
