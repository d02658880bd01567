"""Legal hands in any order never make the board warn, misrecord or stick (issue 8, item 6).

A hypothesis state machine plays whole turns on the simulated table of
``tests/scenario_kit.py`` (the real controller, the simulated sensor on the virtual clock)
the way people handle checkers, every action legal: single moves; one checker carried over
several dice, hits on the way; hit blots taken off before the hitter (to the bar, or held
in the hand until later); several blots off first; two checkers lifted at once; a hand
hovering over points; a sensor dropout; the next roll thrown while the board is unsettled
(a checker of the next player in the hand, a hand over the board, a dropout) or while the
mover's last checker is still in the hand; Done; and fast hands (no time between actions).

The test keeps its own account of the game (``controller.rules.game.Game``): the play
chosen for each turn from the legal plays, made move by move.  Invariants:

1. no warning (sound, red light or warning message) while every action was legal;
2. the journal's turns are the plays made, in order (colour, roll, and position after);
3. the game never sticks: from the state reached, putting the board at the intended
   complete play and rolling moves the game on (checked at the end of every example).

Kept fast: few examples, short runs; the whole file runs in well under a minute.  One rule,
``step``, draws each next action among those possible (``HANDS``), a distraction (hover,
dropout, wait) never twice in a row, so every example plays several turns.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from scenario_kit import SETTLE, Scene, scene, zones_of

from controller.notation.position_json import position_to_json
from controller.rules import Colour, Move, Play, Position, Roll, get_rule_set, rule_set_names
from controller.rules.game import Game
from hal.interfaces import Button
from hal.interfaces import LightColour as L
from hal.zones import LINES, ZONES, Checker
from simulator.table import DICE_GAP

WARNED = ("Illegal", "Nothing may move", "More must be played", "Check the board")
SETTLES = (0.0, 0.01, SETTLE, SETTLE, 0.6)
"""Seconds after a hand action: 0 and 0.01 are fast hands (the sensor may never see the
step), 0.6 a slow one; never beyond the grace time within a move."""


def checker(colour: Colour) -> Checker:
    """The board's checker for a game colour."""
    return Checker(colour.value)


@dataclass(frozen=True)
class Hand:
    """A kind of hand action: when it is possible, and the strategies of its arguments."""

    when: Callable[[Any], bool]
    arguments: dict[str, st.SearchStrategy[Any]]


def hand(when: Callable[[Any], bool],
         **arguments: st.SearchStrategy[Any]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a method as a hand action, possible when ``when(machine)``; ``LegalHands.step``
    draws among the possible ones (a ``data`` parameter gets the step's data object)."""

    def mark(method: Callable[..., None]) -> Callable[..., None]:
        method.hand = Hand(when, arguments)  # type: ignore[attr-defined]
        return method

    return mark


class LegalHands(RuleBasedStateMachine):
    """Legal hand actions in any order on the simulated table, checked against the account."""

    ROLL_DROPOUT_SCANS = 25
    """How long (20 ms scans) one zone drops out when a roll is thrown during a dropout."""
    HANDS = ("single_move", "finish_turn", "throw_roll", "combined_move", "blots_off_first", "lift_two",
             "early_roll_last_in_hand", "hover", "dropout", "wait")
    """The hand actions ``step`` draws among, the ones that move the game on first (hypothesis
    shrinks towards the first)."""

    def __init__(self) -> None:
        super().__init__()
        self.ready = False
        self.idle = False
        """The last step was a distraction (hover, dropout, wait): the next one moves the game
        on, so that at least every other step is a move, a roll or Done."""

    # -- set-up -------------------------------------------------------------------------------
    @initialize(name=st.sampled_from(rule_set_names()), data=st.data())
    def setup(self, name: str, data: st.DataObject) -> None:
        self.rules = get_rule_set(name)
        self.s: Scene = scene(name)
        self.game = Game(self.rules)
        """The account: the game as the hands really played it."""
        self.s.set_position(self.game.position)
        self.roll: Roll | None = None
        """The roll of the turn under way (None: the next roll is awaited)."""
        self.play: Play = Play()
        self.made = 0
        """Moves of ``play`` made on the board."""
        self.off: dict[int, bool] = {}
        """Blots taken off before their hitter: mover's own point -> held in the hand (else on the bar)."""
        self.finished: list[tuple[Colour, Roll, Position]] = []
        """Turns ended (by the next roll or Done): colour, roll, position after; passes included."""
        a, b = data.draw(st.integers(1, 6), label="opening a"), data.draw(st.integers(1, 5), label="opening b")
        b += b >= a  # never equal: the opening is decided at once
        self.thrown_at = self.s.now
        self.s.throw(a, b)
        self.game.throw_opening(a, b)
        if self.game.pending_roll is not None:
            self._begin(self.game.pending_roll, data)
        note(f"{name}: opening, {self.game.turn.value} {self.roll}")
        self.ready = True

    # -- the steps -------------------------------------------------------------------------------
    @precondition(lambda self: self.ready)
    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """The next thing the hands do: one of the actions possible now.  One rule that draws
        the action, not a rule per action: hypothesis switches rules off at random for whole
        examples (swarm testing), and with Done or the roll switched off no turn ever ended
        (two thirds of the examples ended none, 85 % of the steps were hovers, dropouts and
        waits, and blots were taken off first in 83 steps of 35,000)."""
        if self.game.is_over:
            self.s.advance(1.0)
            return
        methods = [getattr(self, name) for name in self.HANDS]
        possible = [method for method in methods if method.hand.when(self)]
        method = data.draw(st.sampled_from(possible), label="hand")
        kwargs = {key: data.draw(strategy, label=key) for key, strategy in method.hand.arguments.items()}
        if "data" in inspect.signature(method).parameters:
            kwargs["data"] = data
        method(**kwargs)

    # -- the account ----------------------------------------------------------------------------
    @property
    def mover(self) -> Colour:
        """The colour whose turn it is in the account."""
        return self.game.turn

    def _begin(self, roll: Roll, data: st.DataObject) -> None:
        """A roll for the player to move: choose the play (hits and chained moves preferred
        half of the time, so that the hit families come up often)."""
        plays = self.rules.legal_plays(self.game.position, roll)
        self.roll, self.made, self.off = roll, 0, {}
        if not plays:  # the turn passes by itself
            self._record(roll, Play())
            self.roll, self.play = None, Play()
            return
        rich = [p for p in plays if any(m.hit for m in p) or any(a.to == b.frm for a, b in zip(p, p[1:]))]
        pool = rich if rich and data.draw(st.booleans(), label="rich play") else plays
        self.play = data.draw(st.sampled_from(pool), label=f"{self.mover.value} plays with {roll}")

    def _record(self, roll: Roll, play: Play) -> None:
        """A turn ended: played in the account and noted as finished."""
        colour = self.mover
        self.game.play(roll, play)
        self.finished.append((colour, roll, self.game.position))

    def _end_turn(self) -> None:
        """The turn under way is over on the board: note it in the account."""
        assert self.roll is not None
        self.idle = False
        self._record(self.roll, self.play)
        self.roll, self.play, self.made = None, Play(), 0

    def _after_moves(self) -> None:
        """A winning play ends the game the moment it stands: the account follows at once."""
        if self.complete and self._wins():
            self.s.advance(0.5)
            self._end_turn()

    @property
    def turn_on(self) -> bool:
        """A turn is under way (rolled, not yet ended) and the game goes on."""
        return self.ready and self.roll is not None and not self.game.is_over

    @property
    def remaining(self) -> tuple[Move, ...]:
        """The moves of the intended play not yet made on the board."""
        return tuple(self.play[self.made:])

    @property
    def complete(self) -> bool:
        """The intended play stands on the board (every blot on its bar)."""
        return self.turn_on and not self.remaining and not self.off

    @property
    def awaiting(self) -> bool:
        """The player to move has yet to roll (after Done, a pass, or the rally's opening)."""
        return self.ready and self.roll is None and not self.game.is_over

    def _wins(self) -> bool:
        """The intended play ends the game (no next roll may be thrown over it)."""
        return self.rules.result(self.rules.apply(self.game.position, self.play)) is not None

    # -- hand actions ------------------------------------------------------------------------------
    def _zone(self, point: int, colour: Colour | None = None) -> str:
        """The zone of a colour's own point (the mover's by default; 25 the bar, 0 the tray)."""
        return self.s.zone(colour or self.mover, point)

    def _act(self, action: Callable[[str, Checker], None], zone: str, colour: Colour, settle: float) -> None:
        """One hand action on the board (lift or place), then ``settle`` seconds."""
        self.idle = False
        action(zone, checker(colour))
        self.s.advance(settle)

    def _carry(self, frm: str, to: str, colour: Colour, settle: float) -> None:
        """A checker lifted from ``frm`` and put on ``to``."""
        self._act(self.s.board.lift, frm, colour, settle)
        self._act(self.s.board.place, to, colour, settle)

    def _blot_off(self, point: int, held: bool, settle: float) -> None:
        """The blot on the mover's ``point`` taken off: to the opponent's bar, or into the hand."""
        opponent = self.mover.opponent
        self._act(self.s.board.lift, self._zone(point), opponent, settle)
        if not held:
            self._act(self.s.board.place, self._zone(25, opponent), opponent, settle)
        self.off[point] = held

    def _moves(self, moves: tuple[Move, ...], how: str, settle: float) -> None:
        """One checker carried over ``moves`` (one move, or several dice of one checker);
        each blot on the way still on the board is taken off ``how``: ``after`` the hitter
        lands, to the bar ``first``, or ``held`` in the hand until the hitter is down."""
        opponent = self.mover.opponent
        fresh = [m.to for m in moves if m.hit and m.to not in self.off]
        if how != "after":
            for point in fresh:
                self._blot_off(point, how == "held", settle)
        self._carry(self._zone(moves[0].frm), self._zone(moves[-1].to), self.mover, settle)
        for point in [m.to for m in moves if m.hit]:
            if how == "after" and point in fresh:
                self._carry(self._zone(point), self._zone(25, opponent), opponent, settle)
            elif self.off.get(point):
                self._act(self.s.board.place, self._zone(25, opponent), opponent, settle)
            self.off.pop(point, None)
        self.made += len(moves)
        self._after_moves()

    @hand(lambda self: self.turn_on and bool(self.remaining),
          how=st.sampled_from(("after", "first", "held")), settle=st.sampled_from(SETTLES))
    def single_move(self, how: str, settle: float) -> None:
        """The next move of the play, the usual way."""
        self._moves(self.remaining[:1], how, settle)

    @hand(lambda self: self.turn_on and len(self.remaining) >= 2 and self.remaining[1].frm == self.remaining[0].to,
          how=st.sampled_from(("after", "first", "held")), settle=st.sampled_from(SETTLES))
    def combined_move(self, how: str, settle: float) -> None:
        """One checker carried straight over every die it moves on with (13/7/2*, 13/8*/2)."""
        chain = [self.remaining[0]]
        for move in self.remaining[1:]:
            if move.frm != chain[-1].to:
                break
            chain.append(move)
        self._moves(tuple(chain), how, settle)

    @hand(lambda self: self.turn_on and any(m.hit and m.to not in self.off for m in self.remaining), settle=st.sampled_from(SETTLES))
    def blots_off_first(self, data: st.DataObject, settle: float) -> None:
        """One or more blots the play will hit taken off before any hitter moves: each to the
        bar or held in the hand."""
        points = sorted({m.to for m in self.remaining if m.hit and m.to not in self.off})
        chosen = data.draw(st.lists(st.sampled_from(points), min_size=1, unique=True), label="blots off")
        for point in chosen:
            self._blot_off(point, data.draw(st.booleans(), label="held"), settle)

    @hand(lambda self: (self.turn_on and len(self.remaining) >= 2 and self.remaining[1].frm != self.remaining[0].to
                        and not self.remaining[0].hit and not self.remaining[1].hit),
          settle=st.sampled_from(SETTLES))
    def lift_two(self, settle: float) -> None:
        """The checkers of the next two moves lifted together, then put down in turn."""
        first, second = self.remaining[:2]
        self._act(self.s.board.lift, self._zone(first.frm), self.mover, 0.0)
        self._act(self.s.board.lift, self._zone(second.frm), self.mover, settle)
        self._act(self.s.board.place, self._zone(first.to), self.mover, settle)
        self._act(self.s.board.place, self._zone(second.to), self.mover, settle)
        self.made += 2
        self._after_moves()

    @hand(lambda self: not self.idle,
          zones=st.lists(st.sampled_from(LINES), min_size=1, max_size=4, unique=True), seconds=st.sampled_from((0.05, 0.5, 3.0)))
    def hover(self, zones: list[str], seconds: float) -> None:
        """A hand over some points for a while (they read as hidden), then away."""
        self.idle = True
        self.s.board.hover(zones)
        self.s.advance(seconds)
        self.s.board.unhover()
        self.s.advance(SETTLE)

    @hand(lambda self: not self.idle, zone=st.sampled_from(ZONES), scans=st.integers(3, 40))
    def dropout(self, zone: str, scans: int) -> None:
        """A zone unreadable for a few scans (the board is seen only when it is back)."""
        self.idle = True
        self.s.table.sim.sensor.inject_unreadable(zone, scans)
        self.s.advance(0.02 * scans + SETTLE)

    @hand(lambda self: not self.idle, seconds=st.sampled_from((0.0, 0.3, 1.5, 4.0)))
    def wait(self, seconds: float) -> None:
        """Time passes: the player thinks (a blot may be in the hand meanwhile)."""
        self.idle = True
        self.s.advance(seconds)

    # -- ending turns and rolling ------------------------------------------------------------------
    def _dice(self, data: st.DataObject) -> Roll:
        """Two dice thrown."""
        return Roll(data.draw(st.integers(1, 6), label="die"), data.draw(st.integers(1, 6), label="die"))

    def _throw(self, roll: Roll, settle: float) -> None:
        """The dice thrown, no sooner than ``DICE_GAP`` after the last throw (the simulator's
        players' bound too: the dice must be read and picked up first)."""
        self.s.advance(max(0.0, self.thrown_at + DICE_GAP - self.s.now))
        self.thrown_at = self.s.now
        self.s.throw(roll.first, roll.second, settle=settle)

    def _plain_play(self, roll: Roll, data: st.DataObject) -> Play | None:
        """A play for ``roll`` whose first move is a plain one (no hit, its checker not going
        on at once), to make with a checker lifted before the dice land; None if there is none."""
        plays = self.rules.legal_plays(self.game.position, roll)
        plain = [p for p in plays if not p[0].hit and not (len(p) > 1 and p[1].frm == p[0].to)]
        return data.draw(st.sampled_from(plain), label=f"{self.mover.value} plays with {roll}") if plain else None

    def _roll_now(self, how: str, data: st.DataObject, settle: float) -> None:
        """The player to move throws ``how``: plainly; with a hand over some points (the first
        move then made at once, before the hand has left); during a sensor dropout; or holding
        the checker of the new roll's first move (lifted before, put down after the dice)."""
        self.idle = False
        roll = self._dice(data)
        play = self._plain_play(roll, data) if how in ("in hand", "hover") else None
        if how == "in hand" and play is not None:
            self._act(self.s.board.lift, self._zone(play[0].frm), self.mover, settle)
        elif how == "hover":
            zones = data.draw(st.lists(st.sampled_from(LINES), min_size=1, max_size=3, unique=True), label="hover")
            self.s.board.hover(zones)
            self.s.advance(0.05)
        elif how == "dropout":
            zone = data.draw(st.sampled_from(ZONES), label="dropout")
            self.s.table.sim.sensor.inject_unreadable(zone, self.ROLL_DROPOUT_SCANS)
        self._throw(roll, 0.0)
        if play is None:
            self._begin(roll, data)
        else:
            self.roll, self.play, self.made, self.off = roll, play, 0, {}
            if how == "hover":
                self._act(self.s.board.lift, self._zone(play[0].frm), self.mover, 0.0)
            self._act(self.s.board.place, self._zone(play[0].to), self.mover, settle)
            self.made = 1
        self.s.board.unhover()
        self.s.advance(SETTLE)
        self._after_moves()

    @hand(lambda self: self.complete,
          then=st.sampled_from(("roll", "hover", "dropout", "in hand", "done")), settle=st.sampled_from(SETTLES))
    def finish_turn(self, then: str, data: st.DataObject, settle: float) -> None:
        """The play stands: the next player throws (plainly or with the board unsettled), or Done."""
        winning = self._wins()
        self._end_turn()
        if winning or self.game.is_over:
            self.s.advance(1.5)
            return
        if then == "done":
            # Done is a judgement of the board: pressed once the sensor can have seen the last
            # checker down (three 20 ms scans), never in the same instant
            self.s.advance(0.1)
            self.s.press(Button.DONE)
            return
        self._roll_now(then, data, settle)

    @hand(lambda self: self.awaiting,
          how=st.sampled_from(("roll", "hover", "dropout", "in hand")), settle=st.sampled_from(SETTLES))
    def throw_roll(self, how: str, data: st.DataObject, settle: float) -> None:
        """The player to move throws (after Done or a pass), plainly or with the board unsettled."""
        self._roll_now(how, data, settle)

    @hand(lambda self: self.turn_on and len(self.remaining) == 1 and not self.off and not self.remaining[0].hit,
          next_lifts=st.booleans(), settle=st.sampled_from((0.0, 0.05, 0.3)))
    def early_roll_last_in_hand(self, data: st.DataObject, next_lifts: bool, settle: float) -> None:
        """The mover lifts the last checker; the next player throws before it is down (and
        perhaps lifts the checker of its own first move too); the mover's checker comes down
        within the grace time, then the next player's."""
        if self._wins():
            return
        last, mover = self.remaining[0], self.mover
        self._act(self.s.board.lift, self._zone(last.frm), mover, settle)
        roll = self._dice(data)
        self._throw(roll, settle)
        self.made += 1
        self._end_turn()
        play = self._plain_play(roll, data) if next_lifts else None
        if play is not None:
            self._act(self.s.board.lift, self._zone(play[0].frm), self.mover, settle)
        self._act(self.s.board.place, self._zone(last.to, mover), mover, SETTLE)
        if play is None:
            self._begin(roll, data)
            return
        self.roll, self.play, self.made, self.off = roll, play, 0, {}
        self._act(self.s.board.place, self._zone(play[0].to), self.mover, SETTLE)
        self.made = 1
        self._after_moves()

    # -- invariants -------------------------------------------------------------------------------
    @invariant()
    def no_warning(self) -> None:
        """Invariant 1: every action was legal, so nothing is warned."""
        if not self.ready:
            return
        s = self.s
        note(f"  at {s.now:.2f} s: {s.message!r}")
        shown = [(round(at, 2), f.message) for at, f in s.table.sim.lights.history()]
        story = [m for i, m in enumerate(shown) if i == 0 or m[1] != shown[i - 1][1]]
        assert s.warnings() == 0, f"warned: {s.message!r}; the messages shown: {story[-8:]}"
        bad = [f.message for f in s.frames()
               if (f.lit(L.WARNING) and "cannot move" not in f.message) or any(w in f.message for w in WARNED)]
        assert not bad, (bad[:3], story[-8:])

    @invariant()
    def journal_is_the_plays_made(self) -> None:
        """Invariant 2: the journal's turns are a prefix of the turns ended, equal to them."""
        if not self.ready:
            return
        turns = self.s.entries("turn")
        assert len(turns) <= len(self.finished), (turns[-1:], self.finished[-1:])
        for entry, (colour, roll, after) in zip(turns, self.finished):
            assert entry["colour"] == colour.value and sorted(entry["roll"]) == sorted((roll.first, roll.second)), (entry, colour, roll)
            assert entry["after"] == position_to_json(self.rules, after), (entry["play"], entry["after"])

    def teardown(self) -> None:
        """Invariant 3: settle the board at the intended complete play and roll: the game goes on."""
        if not getattr(self, "ready", False) or self.game.is_over:
            return
        s = self.s
        s.board.unhover()
        if self.roll is not None:
            target = self.rules.apply(self.game.position, self.play)
            s.board.set_zones(zones_of(s.controller, target.with_turn(self.mover)))
            s.advance(1.0)
            if self.rules.result(target) is not None:
                return
            self._end_turn()
        else:
            s.board.set_zones(zones_of(s.controller, self.game.position))
            s.advance(1.0)
        roll = Roll(2, 1) if self.rules.legal_plays(self.game.position, Roll(2, 1)) else Roll(6, 5)
        # a roll over a complete play that another play passes through, or that went past a
        # blot another play hits, is held its grace time (the hand may be carrying on)
        self._throw(roll, 1.5)
        if not self.rules.legal_plays(self.game.position, roll):  # the turn passes: ended by itself
            self._record(roll, Play())  # (the position after the pass, the other side to move)
        self.no_warning()
        self.journal_is_the_plays_made()
        assert len(s.entries("turn")) == len(self.finished), (s.message, self.finished[-1:], s.entries("turn")[-1:])
        assert "Nothing may move" not in s.message and "held" not in s.message, s.message


LegalHands.TestCase.settings = settings(
    # no shrinking: a failing run of this machine shrinks for many minutes; to shrink one
    # failure, run with --hypothesis-seed and add Phase.shrink here
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    # the same examples on every run: CI is not the place to search.  Searched wider (1,500
    # examples, --hypothesis-seed 1, 2, 618) it finds hands no person has, left open in issue
    # 8: whole turns with hits made in no time at all, so that no board ever shows the hit
    # checker on the bar or pool (or a zone drops out meanwhile)
    derandomize=True,
    report_multiple_bugs=False,
    database=None,
    print_blob=True,
    max_examples=100,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)
test_legal_hands_never_warn_misrecord_or_stick = LegalHands.TestCase


class PlainHands(LegalHands):
    """The same account and invariants with only the hands the controller followed before
    issue 8 (one move at a time at a person's pace, the hitter before the blot or the blot
    to the bar first, the roll over a settled board, Done): a check of the machine itself,
    passing today, and a guard for the rewrite."""

    HANDS = ("plain_move", "plain_finish", "plain_throw", "wait")

    @hand(lambda self: self.turn_on and bool(self.remaining), how=st.sampled_from(("after", "first")))
    def plain_move(self, how: str) -> None:
        """The next move, at a person's pace."""
        LegalHands.single_move(self, how, SETTLE)

    @hand(lambda self: self.complete, then=st.sampled_from(("roll", "done")))
    def plain_finish(self, then: str, data: st.DataObject) -> None:
        """The next roll over the settled board, or Done."""
        LegalHands.finish_turn(self, then, data, SETTLE)

    @hand(lambda self: self.awaiting)
    def plain_throw(self, data: st.DataObject) -> None:
        """The roll over the settled board."""
        LegalHands.throw_roll(self, "roll", data, SETTLE)


PlainHands.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=30,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)
test_plain_hands_never_warn_misrecord_or_stick = PlainHands.TestCase
