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

from .machine import Controller, ResumeError, Settings
from .notation.position_json import position_to_json
from .rules.game import Match, TurnRecord
from .rules.values import Move, Play, Roll, RulesError


def salvage(settings: Settings, entries: list[dict[str, Any]]) -> tuple[list[int], dict[int, str]]:
    """The indices of the entries to keep, and why each other one does not replay."""
    probe = _Probe(Match(settings.rules, settings.match_length))
    keep: list[int] = []
    problems: dict[int, str] = {}
    for index, entry in enumerate(entries):
        try:
            problem = probe.apply(entry) if index else (None if entry.get("type") == "start" else "not a start")
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

    def apply(self, entry: dict[str, Any]) -> str | None:
        """Apply ``entry`` if it follows; otherwise change nothing and say why not."""
        kind = entry["type"]
        handler = getattr(self, "_" + kind.replace("-", "_"), None) if kind != "start" else None
        if handler is None:
            return f"a {kind!r} entry here"
        try:
            return handler(entry)
        except RulesError as error:  # IllegalPlayError and the like: raised before any change
            return str(error)

    def _opening(self, entry: dict[str, Any]) -> str | None:
        if self.game.opening is not None or self.game.history:
            return "the opening throw comes once, before the first turn"
        opening = self.game.throw_opening(*entry["dice"])
        if opening is None:
            return "equal opening throws decide nothing"
        self.pending = opening.roll
        return None

    def _roll(self, entry: dict[str, Any]) -> str | None:
        game = self.game
        if game.is_over:
            return "the game is over"
        if game.opening is None:
            return "a roll before the opening throw"
        if entry["colour"] != game.turn.value:
            return f"it is {game.turn.value}'s turn to roll"
        if self.pending is not None:
            return f"{self.pending} was thrown and not played yet"
        self.pending = Roll(*entry["roll"])
        return None

    def _turn(self, entry: dict[str, Any]) -> str | None:
        game = self.game
        if entry["colour"] != game.turn.value:
            return f"it was {game.turn.value}'s turn"
        roll = Roll(*entry["roll"])
        if self.pending is not None and not _same(roll, self.pending):
            return f"the turn's roll {roll} is not the roll thrown, {self.pending}"
        play = Play(tuple(Move(f, t, d, h) for f, t, d, h in entry["moves"]))
        game.play(roll, play)
        if position_to_json(self.match.rules, game.position) != entry["after"]:
            game.undo()
            return "the position after the turn differs from the one journalled"
        self.pending = None
        return None

    def _takeback(self, entry: dict[str, Any]) -> str | None:
        history = self.game.history
        last = history[-1] if history else None
        if not isinstance(last, TurnRecord) or last.colour.value != entry["colour"] or not _same(
            last.roll, Roll(*entry["roll"])
        ):
            return "it takes back no turn of this game"
        self.game.undo()
        self.pending = last.roll
        return None

    def _game_over(self, entry: dict[str, Any]) -> str | None:
        result = self.game.result()
        if result is None or len(self.match.results) >= len(self.match.games):
            return "no finished, unscored game to score"
        if result.winner.value != entry["winner"] or result.points != entry["points"]:
            return f"the game gives {result.winner.value} {result.points}, not {entry['winner']} {entry['points']}"
        self.match.finish_game()
        self.pending = None
        return None

    def _game(self, entry: dict[str, Any]) -> str | None:
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


def _same(a: Roll, b: Roll) -> bool:
    return sorted((a.first, a.second)) == sorted((b.first, b.second))
