"""The game followed from the controller's journal alone (the stateful hands test's account
of the game, and scenario tests that check a re-read journal): each entry checked against the
rules and the dice thrown."""

from __future__ import annotations

from typing import Any

from controller.notation.position_json import position_to_json
from controller.rules import Move, Play, Position, Roll
from controller.rules.base import RuleSet


class GameFollow:
    """The game followed from the controller's journal alone, checked entry by entry: the
    position, the roll under way and the dice thrown and not yet used."""

    def __init__(self, rules: RuleSet, start: Position | None = None) -> None:
        self.rules = rules
        self.position = start if start is not None else rules.start_position()
        self.roll: Roll | None = None
        self.thrown: list[tuple[int, int]] = []
        """Dice thrown that no entry has used yet, in order (during a turn, the next players'
        rolls wait for it to end; between turns a throw is used or dropped at once)."""
        self.over = False
        self.turns = 0
        self.played: list[tuple[Position, Roll]] = []
        """Each recorded turn's position before it and its roll, for the turns a re-read takes back."""
        self.stale: tuple[int, int] | None = None
        """Dice thrown during a game's last turn and never used (see ``KNOWN_BUG_STALE_ROLL``)."""

    def begin(self, roll: Roll) -> None:
        self.roll = roll

    def entries(self, journal: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> None:
        for entry in journal:
            self.entry(entry)

    def entry(self, entry: dict[str, Any]) -> None:
        rules = self.rules
        kind = entry["type"]
        if kind == "start":
            return
        if kind == "opening":
            dice = tuple(entry["dice"])
            assert self.thrown[:1] == [dice], f"opening entry {dice} but the dice thrown were {self.thrown}"
            self.thrown.pop(0)
            assert self.roll is None and not self.over
            opening = rules.resolve_opening(*dice)
            assert opening is not None
            self.position = self.position.with_turn(opening.first)
            if opening.roll is not None:
                self.begin(opening.roll)
        elif kind == "roll":
            roll = Roll(*entry["roll"])
            assert self.roll is None, f"roll entry {roll} during the turn with {self.roll}"
            assert entry["colour"] == self.position.turn.value
            dice = tuple(entry["roll"])
            assert self.thrown[:1] == [dice], (
                f"roll entry {entry['roll']} but the dice thrown (not yet used) were {self.thrown}"
            )
            self.thrown.pop(0)
            self.begin(roll)
        elif kind == "turn":
            roll = Roll(*entry["roll"])
            assert self.roll is not None and roll == self.roll, f"turn entry with {roll}, the turn's roll is {self.roll}"
            assert entry["colour"] == self.position.turn.value
            play = Play(Move(f, t, d, h) for f, t, d, h in entry["moves"])
            assert rules.is_legal(self.position, roll, play), f"illegal play {play} for {roll} from {self.position}"
            after = rules.apply(self.position, play)
            assert position_to_json(rules, after) == entry["after"]
            self.recorded(play, after)
            self.played.append((self.position, roll))
            self.position = after
            self.roll = None
            self.turns += 1
        elif kind == "takeback":
            self._takeback(Roll(*entry["roll"]), entry["colour"])
        elif kind == "game-over":
            result = rules.result(self.position)
            assert result is not None and result.winner.value == entry["winner"]
            self.over = True
            self.stale = self.thrown[0] if self.thrown else None  # dice thrown for a turn that never comes
            self.thrown = []
        elif kind == "game":
            assert self.over
            self.over = False
            self.position = rules.start_position()
        else:
            raise AssertionError(f"unexpected journal entry {entry}")

    def recorded(self, play: Play, after: Position) -> None:
        """A legal turn from ``self.position`` is recorded (what the board must show is not
        known here)."""

    def _takeback(self, roll: Roll, colour: str) -> None:
        """A turn taken back as the board is re-read (``revise_steps``; the stateful test
        presses no Takeback): the roll under way goes back in front of the dice not yet used,
        for the catch-up journals it again, and the turn taken back is under way once more,
        its roll not journalled again."""
        assert self.played and not self.over, f"takeback of {colour}'s {roll} with no turn recorded"
        before, played = self.played.pop()
        assert played == roll and before.turn.value == colour, (
            f"takeback of {colour}'s {roll}, the last turn recorded was {before.turn.value}'s {played}"
        )
        if self.roll is not None:
            self.thrown.insert(0, (self.roll.first, self.roll.second))
        self.position, self.roll = before, roll
        self.turns -= 1
