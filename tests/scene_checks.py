"""What a player sees, checked in the hand scenario tests (``tests/test_hand_*.py``): no
warning sound, light or message for a legal sequence of hand actions, the plays the journal
records, and that the game goes on."""

from __future__ import annotations

from scenario_kit import Scene

from controller.rules import Colour
from hal.interfaces import LightColour as L
from hal.zones import Checker

LOOK = 1.2
"""Seconds a hand pauses between actions: longer than the grace time (1 s), so a board
wrongly judged illegal is warned."""
WARNED_MESSAGES = ("Illegal", "Nothing may move", "More must be played", "Check the board")


def s_checker(colour: Colour) -> Checker:
    """The board's checker colour for a game colour."""
    return Checker(colour.value)


# -- what a player sees ------------------------------------------------------------------------


def warned_frames(s: Scene, since: float = 0.0) -> list[str]:
    """The messages of every warning frame shown since ``since`` (red lights or a warning text)."""
    return [f.message for f in s.frames(since)
            if (f.lit(L.WARNING) and "cannot move" not in f.message)  # a pass blinks the bar in red, unwarned
            or any(w in f.message for w in WARNED_MESSAGES)]


def assert_unwarned(s: Scene, since: float = 0.0) -> None:
    """No warning sound, no red light and no warning message since ``since``."""
    assert s.warnings(since) == 0, (s.message, s.sounds(since))
    assert warned_frames(s, since) == [], warned_frames(s, since)


def assert_black_played_after(s: Scene, white: tuple[str, list[int], str]) -> None:
    """A pause longer than the grace time, then: nothing warned, White's turn recorded last
    as ``white`` (colour, roll, play), and Black's play shown whole."""
    s.advance(1.5)
    assert_unwarned(s)
    plays = recorded(s)
    assert plays[-1] == white, plays
    assert "Black has played" in s.message, s.message


def assert_goes_on(s: Scene, mover: str, dice: tuple[int, int] = (2, 1)) -> None:
    """The next player's roll is taken: journalled for them, and the board no longer says
    that nothing may move."""
    rolls = len(s.entries("roll")) + len(s.entries("turn"))
    s.throw(*dice)
    s.advance(0.5)
    assert "Nothing may move" not in s.message and "held" not in s.message, s.message
    assert len(s.entries("roll")) + len(s.entries("turn")) > rolls, s.journal[-3:]
    last = [e for e in s.journal if e["type"] in ("roll", "turn")][-1]
    assert last["colour"] != mover, last


def recorded(s: Scene) -> list[tuple[str, list[int], str]]:
    """Every turn journalled so far: colour, roll and play."""
    return [(e["colour"], e["roll"], e["play"]) for e in s.entries("turn")]


def last_play(s: Scene, colour: str) -> str:
    """The play of the last turn journalled for ``colour``."""
    turns = [e for e in s.entries("turn") if e["colour"] == colour]
    assert turns, s.journal
    return turns[-1]["play"]
