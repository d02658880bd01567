"""What a controller is played with (``Settings``) and what it asks for after each event
(``Output``); shared by the machine and its resume steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from hal.interfaces import LightFrame, Sound
from hal.zones import Checker

from .journal_entries import Entry, encode
from .opponent import Opponent
from .rules.base import GameResult, RuleSet
from .rules.values import Colour


@dataclass(frozen=True)
class Settings:
    """What a game on the board is played with."""

    rules: RuleSet
    quarter: str | None = None
    match_length: int = 1
    grace: float = 1.0
    """Seconds a wrong board must stand before the board warns."""
    confirm: bool = False
    """Before a warning, ask the board for a fresh snapshot and warn only if it still shows
    the board wrong: the board answers once its sensors have settled (a link that went quiet,
    or hands and noise keeping the readings from standing, are not a wrong board)."""
    computer: Mapping[Colour, Opponent] = field(default_factory=dict)
    """The sides the computer plays: its play is lit move by move for a person to carry out."""
    hints: Opponent | None = None
    """The engine Menu asks for a hint during a person's turn (None: no hints)."""
    substitute: bool = False
    """A person carrying the computer's checkers may make another legal play instead."""


@dataclass(frozen=True)
class Output:
    """What the controller asks for after one event: journal first, then lights and sounds."""

    frame: LightFrame
    sounds: tuple[Sound, ...] = ()
    turn: Checker | None = None
    entries: tuple[Entry, ...] = ()
    """The journal entries to make durable first (``journal`` gives them as written)."""
    log: tuple[str, ...] = ()
    deadline: float | None = None
    finished: GameResult | None = None
    warning: str | None = None
    """A warning began with this event: ``illegal`` (a wrong board stood for the grace
    time), ``fault`` (impossible counts stood), or ``more to play`` (a roll over an
    unfinished play)."""
    request_snapshot: bool = False
    """Ask the board for a fresh snapshot (to confirm a warning first, ``Settings.confirm``)."""

    @property
    def journal(self) -> tuple[dict[str, Any], ...]:
        """The journal entries as the journal writes them (``journal_entries.encode``)."""
        return tuple(encode(entry) for entry in self.entries)

    def after(self, entries: tuple[Entry, ...]) -> Output:
        """This output with ``entries`` journalled before its own."""
        return Output(
            self.frame, self.sounds, self.turn, entries + self.entries, self.log, self.deadline, self.finished,
            self.warning, self.request_snapshot,
        )
