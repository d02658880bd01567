"""Simulated players: who chooses which play, and how a hand performs it on the board.

A strategy (random, greedy, scripted from a record) chooses the play; ``Hand`` performs
it checker by checker like a person: hesitating with a checker in hand, lifting the wrong
checker and putting it back, sliding along points, carrying a hit checker to the bar or
pool, taking a move back within the turn, and at a set rate trying an illegal move and
correcting it once the board warns.  Every step is a generator that yields how many
seconds of virtual time pass before the next.

The hand habits of issue 8 (``Behaviour.blot_hold_rate``, ``carry_through_rate``,
``two_at_once_rate``, ``early_throw_rate``, ``hover_throw_rate``, ``speed``) are off by
default, and a habit whose rate is 0 draws nothing from the random generator, so every
seeded game of the plain behaviour is played exactly as before; ``Behaviour.real_hands()``
turns them all on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Generator, Protocol

from controller.notation.moves import parse_play
from controller.records.matfile import MatchRecord, Turn
from controller.rules.base import RuleSet
from controller.rules.game import Game, Match
from controller.rules.registry import get_rule_set
from controller.rules.values import BAR, OFF, Colour, Move, Play, Position, Roll
from controller.tracking import BoardReader, checker_of
from hal.interfaces import Sound
from hal.zones import LINES, WAITING, Zone

from .board import PhysicalBoard
from .hand_over import HandOver
from .wrong_moves import wrong_move

Steps = Generator[float, None, None]
"""A performance: yields the seconds to wait before its next action."""
Performance = Generator[float, None, bool]
"""A play performed: yields the seconds to wait, returns whether the next roll was thrown."""


class Strategy(Protocol):
    """Chooses a roll (scripted players) and a play."""

    name: str

    def roll(self, rng: random.Random) -> Roll: ...

    def opening(self, rng: random.Random) -> int:
        """The single die this player throws for the opening roll."""
        ...

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play: ...


class CubePlayer(Protocol):
    """A strategy that handles the doubling cube (backgammon); a strategy without these
    methods never doubles and always takes (``offers_double``, ``takes_double``)."""

    def offers_double(self, game: Game, match: Match) -> bool:
        """Does the side to roll in ``game`` double now (``game.may_double`` holds)?"""
        ...

    def takes(self, game: Game, match: Match) -> bool:
        """Is the double standing in ``game`` taken (asked of the side answering it)?"""
        ...


def offers_double(player: object, game: Game, match: Match) -> bool:
    """Does ``player`` double now?  Players without a cube never do."""
    method = getattr(player, "offers_double", None)
    return bool(method(game, match)) if method is not None else False


def takes_double(player: object, game: Game, match: Match) -> bool:
    """Does ``player`` take the double standing?  Players without a cube always do."""
    method = getattr(player, "takes", None)
    return bool(method(game, match)) if method is not None else True


class FairDice:
    """Rolls and opening throws with fair dice; the cube never doubled, always taken."""

    def roll(self, rng: random.Random) -> Roll:
        return random_roll(rng)

    def opening(self, rng: random.Random) -> int:
        return rng.randint(1, 6)

    def offers_double(self, game: Game, match: Match) -> bool:
        return False

    def takes(self, game: Game, match: Match) -> bool:
        return True


def random_roll(rng: random.Random) -> Roll:
    """Two fair dice."""
    return Roll(rng.randint(1, 6), rng.randint(1, 6))


class RandomPlayer(FairDice):
    """Any legal play, uniformly."""

    name = "random"

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        return rng.choice(plays)


class GreedyPlayer(FairDice):
    """The play that scores best at once: checkers off, hits, safe points, fewer blots, pips."""

    name = "greedy"

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        mover = position.turn

        def score(play: Play) -> tuple[float, float]:
            after = rules.apply(position, play)
            mine, theirs = after.side(mover), after.side(mover.opponent)
            blots = sum(1 for p in range(1, 25) if mine[p] == 1)
            made = sum(1 for p in range(1, 25) if mine[p] >= 2)
            value = 10 * mine[OFF] + 4 * theirs[BAR] + made - 2 * blots - 0.05 * after.pip_count(mover)
            return value, rng.random()

        return max(plays, key=score)


class ScriptedPlayer:
    """Plays the rolls and plays of one colour of a game record, in order.

    The opening throws are made up to give the record's first roll to the right player:
    the first mover throws the higher die (in trictrac and backgammon, the first roll's
    dice themselves; in the rally, 2 against 1 before a fresh roll).
    """

    name = "scripted"

    def __init__(self, turns: list[Turn], first: bool, rules: RuleSet, first_roll: Roll | None) -> None:
        self._turns = iter(turns)
        self._first_roll = first_roll
        self._first = first
        self._rules = rules
        self._current: Turn | None = None

    def opening(self, rng: random.Random) -> int:
        roll = self._first_roll
        if roll is None or not self._rules.MIRRORED or roll.is_double:
            return 2 if self._first else 1
        return roll.high if self._first else roll.low

    def roll(self, rng: random.Random) -> Roll:
        turn = next(self._turns)
        if turn.roll is None:
            raise ValueError(f"the record has a {turn.action} where a roll was expected")
        self._current = turn
        return turn.roll

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        if self._current is None or sorted(self._current.roll.dice) != sorted(roll.dice):  # type: ignore[union-attr]
            self.roll(rng)  # the opening throw gave this player the recorded first roll
        assert self._current is not None
        return parse_play(self._current.play, rules, position, roll)


def scripted_pair(record: MatchRecord, game: int = 0) -> tuple[ScriptedPlayer, ScriptedPlayer]:
    """Two scripted players (White, Black) for one game of a record."""
    rules = get_rule_set(record.rules, dict(record.options))
    turns = [t for t in record.games[game].turns if t.roll is not None]
    first = turns[0].colour if turns else Colour.WHITE
    first_roll = turns[0].roll if turns else None
    white = ScriptedPlayer([t for t in turns if t.colour is Colour.WHITE], first is Colour.WHITE, rules, first_roll)
    black = ScriptedPlayer([t for t in turns if t.colour is Colour.BLACK], first is Colour.BLACK, rules, first_roll)
    return white, black


class TypedPlayer(FairDice):
    """A person at the terminal: types the roll (or Enter for random dice) and the play."""

    name = "typed"

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None]) -> None:
        self._ask = ask
        self._say = say

    def roll(self, rng: random.Random) -> Roll:
        while True:
            text = self._ask("Your roll (two dice such as 5 1, Enter for random): ").strip()
            if not text:
                return random_roll(rng)
            try:
                return Roll.parse(text)
            except ValueError as error:
                self._say(str(error))

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        from controller.notation.moves import format_play

        self._say("Legal plays: " + ", ".join(format_play(p, rules) for p in plays[:12]) + (" ..." if len(plays) > 12 else ""))
        while True:
            text = self._ask(f"Your play with {roll} (e.g. {format_play(plays[0], rules)}): ")
            try:
                return parse_play(text, rules, position, roll)
            except ValueError as error:
                self._say(str(error))


STRATEGIES: dict[str, Callable[[], Strategy]] = {"random": RandomPlayer, "greedy": GreedyPlayer}


@dataclass(frozen=True)
class Behaviour:
    """How a simulated person handles checkers; rates are chances per move (illegal: per turn)."""

    think: tuple[float, float] = (0.3, 1.5)
    hesitate: tuple[float, float] = (0.1, 1.2)
    wrong_lift_rate: float = 0.08
    slide_rate: float = 0.25
    takeback_rate: float = 0.05
    hit_first_rate: float = 0.5
    illegal_rate: float = 0.0
    warning_patience: float = 4.0
    """Seconds a player waits for the board's warning after an illegal move before giving up."""
    blot_hold_rate: float = 0.0
    """Of the blots taken off before the hitter arrives (``hit_first_rate``), the share held
    in the hand until the hitter is down instead of put on the bar at once."""
    hand_over_rate: float = 0.0
    """Of the blots held in the hand (``blot_hold_rate``), the share handed to their owner,
    who enters each straight from the hand with its next roll: the bar or pool never holds
    it (put there only if the play does not enter it)."""
    carry_through_rate: float = 0.0
    """Chance that a checker moving on with the next die (13/7/2*) is carried straight to its
    final point, over any hit point on the way, instead of being put down in between."""
    two_at_once_rate: float = 0.0
    """Chance that the checkers of two moves (neither a hit) are lifted together, then put down."""
    early_throw_rate: float = 0.0
    """Chance per turn that the next player throws the dice while the mover's last checker is
    still in the hand (the game's winning play excepted)."""
    hover_throw_rate: float = 0.0
    """Chance per roll that a hand hovers over some points when the dice land, and the player
    starts moving at once, before the board is ever seen uncovered."""
    speed: float = 1.0
    """How fast the hands are against a person's (every wait divided by it, but not the
    patience for a warning: a person still waits for the board)."""

    def __post_init__(self) -> None:
        if self.speed <= 0:
            raise ValueError(f"speed is a factor above 0, not {self.speed!r}")

    @classmethod
    def real_hands(cls, **changes: float) -> Behaviour:
        """Every hand habit of issue 8 on, at rates people show (an evening's guess), with
        ``changes`` on top: what a soak uses to prove the board follows every hand."""
        rates: dict[str, float] = {
            "blot_hold_rate": 0.3,
            "carry_through_rate": 0.5,
            "two_at_once_rate": 0.1,
            "early_throw_rate": 0.15,
            "hover_throw_rate": 0.1,
        }
        rates.update(changes)
        return cls(**rates)  # type: ignore[arg-type]

    @classmethod
    def careless(cls, habit: str, **changes: float) -> Behaviour:
        """``real_hands`` with one of ``HABITS`` on top (``real``: none), then ``changes``:
        the other hands a soak checks the board against."""
        if habit not in HABITS:
            raise ValueError(f"hand habits are one of {', '.join(HABITS)}, not {habit!r}")
        return cls.real_hands(**{**HABITS[habit], **changes})


HABITS: dict[str, dict[str, float]] = {
    "real": {},
    "hits": {"hit_first_rate": 1.0, "blot_hold_rate": 1.0, "carry_through_rate": 1.0},
    "lifts": {"two_at_once_rate": 0.8, "takeback_rate": 0.3, "wrong_lift_rate": 0.3, "slide_rate": 0.8},
    "throws": {"early_throw_rate": 0.8, "hover_throw_rate": 0.8},
    "handover": {"hit_first_rate": 1.0, "blot_hold_rate": 0.8, "hand_over_rate": 0.8},
    "all": {"hit_first_rate": 0.9, "blot_hold_rate": 0.5, "carry_through_rate": 0.9, "two_at_once_rate": 0.5,
            "early_throw_rate": 0.5, "hover_throw_rate": 0.5, "takeback_rate": 0.2, "wrong_lift_rate": 0.2},
}
"""Hands more careless than ``real_hands``' evening guess, one habit pushed far each: every
blot taken off first and held, every checker carried straight over its dice (``hits``);
checkers lifted two at a time, taken back, knocked and slid (``lifts``); the next roll thrown
early or under a hovering hand (``throws``); hit blots handed to their owners, entered from
the hand (``handover``); and all of them at once (but the hand-over, so that the seeds of
``all`` keep their games)."""


@dataclass
class Attempt:
    """One illegal move tried on purpose: when the wrong board stood, and whether it was warned."""

    colour: Colour
    start: float
    end: float = 0.0
    warned: bool = False


@dataclass
class Hand:
    """Performs plays on the physical board as a person would, and notes illegal attempts."""

    rules: RuleSet
    reader: BoardReader
    board: PhysicalBoard
    rng: random.Random
    behaviour: Behaviour
    now: Callable[[], float]
    sounds: Callable[[], list[tuple[float, Sound]]]
    attempts: list[Attempt] = field(default_factory=list)
    handover: HandOver = field(default_factory=HandOver)
    """Hit checkers handed to their owner, in the hand until it enters them (``hand_over_rate``)."""

    def _zone(self, colour: Colour, point: int) -> Zone:
        return self.reader.zone_of(colour, point)

    def pause(self, span: tuple[float, float]) -> float:
        """A wait drawn from ``span`` (seconds at a person's pace), at the player's speed."""
        return self.rng.uniform(*span) / self.behaviour.speed

    def _s(self, seconds: float) -> float:
        """A hand's own wait, at the player's speed."""
        return seconds / self.behaviour.speed

    def chance(self, rate: float) -> bool:
        """True with probability ``rate``; a rate of 0 draws nothing, so seeds keep their games."""
        return rate > 0 and self.rng.random() < rate

    # -- single actions ------------------------------------------------------------------
    def _lift(self, zone: Zone, colour: Colour) -> Steps:
        self.board.hover([zone])
        yield self._s(0.05)
        self.board.lift(zone, checker_of(colour))
        yield self._s(0.05)
        self.board.unhover()

    def _place(self, zone: Zone, colour: Colour) -> Steps:
        self.board.hover([zone])
        yield self._s(0.05)
        self.board.place(zone, checker_of(colour))
        yield self._s(0.05)
        self.board.unhover()

    def _holds_handed(self, colour: Colour) -> bool:
        """A checker of ``colour`` was handed over and is still in the hand."""
        return self.handover.holds(colour, self.board.hand[checker_of(colour)])

    def _hand_over(self, colour: Colour) -> bool:
        """Whether the hitter hands the blot of ``colour`` in the hand to its owner."""
        if self.handover.allowed and self.chance(self.behaviour.hand_over_rate):
            self.handover.give(colour)
            return True
        return False

    def put_down_handed(self, colour: Colour) -> Steps:
        """Every checker of ``colour`` handed over and not entered goes on its bar or pool."""
        while self._holds_handed(colour):
            yield from self._from_hand(WAITING[checker_of(colour)], colour, None)

    def _from_hand(self, to: Zone, colour: Colour, in_air: Callable[[], Steps] | None) -> Steps:
        """A checker handed over put down on ``to`` (``in_air``: the next roll thrown first)."""
        self.handover.take(colour)
        yield self.pause(self.behaviour.hesitate)
        if in_air is not None:
            yield from in_air()
        yield from self._place(to, colour)

    def carry(self, frm: Zone, to: Zone, colour: Colour, slide: bool, in_air: Callable[[], Steps] | None = None) -> Steps:
        """Lift from ``frm``, maybe slide over the points between, put down on ``to``;
        ``in_air`` is performed while the checker is in the hand (the next roll thrown).
        A checker handed over when hit enters from the hand, not from its bar or pool."""
        if frm == WAITING[checker_of(colour)] and self._holds_handed(colour):
            yield from self._from_hand(to, colour, in_air)
            return
        yield from self._lift(frm, colour)
        yield self.pause(self.behaviour.hesitate)
        if in_air is not None:
            yield from in_air()
        if slide and frm in LINES and to in LINES:
            for zone in _between(frm, to)[:3]:
                try:
                    self.board.place(zone, checker_of(colour))
                except ValueError:  # a full stack: the hand goes over it
                    continue
                yield self.rng.uniform(0.03, 0.1) / self.behaviour.speed
                self.board.lift(zone, checker_of(colour))
                yield self._s(0.02)
        yield from self._place(to, colour)

    # -- a whole play ----------------------------------------------------------------------
    def perform(
        self,
        position: Position,
        roll: Roll,
        play: Play,
        done: int = 0,
        throw_next: Callable[[], None] | None = None,
        rush: bool = False,
    ) -> Performance:
        """Make ``play`` on the board from ``position``, with a person's detours; the first
        ``done`` moves already stand on the board (made before a restart).

        ``throw_next`` throws the next player's dice: called (at ``early_throw_rate``) while
        the last checker is still in the hand; the return value says whether it was.
        ``rush``: no thinking before the first move (the hand is already over the board)."""
        colour = position.turn
        behaviour = self.behaviour
        thought = self.pause(behaviour.think)
        yield 0.0 if rush else thought
        attempt_at = self.rng.randrange(len(play) + 1) if self.rng.random() < behaviour.illegal_rate else -1
        if behaviour.hand_over_rate:
            self.handover.allowed = self.rules.result(self.rules.apply(position, play)) is None
            entering = sum(move.frm == BAR for move in play[done:])
            if self._holds_handed(colour) and (self.handover.more_than(colour, entering) or attempt_at >= 0):
                # down on the bar or pool first when the play does not enter them all, or
                # before an illegal attempt (with a checker in the hand, the attempt's board
                # may be a legal one: that checker entered, the attempt's own in the hand)
                yield from self.put_down_handed(colour)
        early = throw_next is not None and attempt_at != len(play) and bool(play) and self.chance(behaviour.early_throw_rate)
        thrown = False

        def throw() -> Steps:
            nonlocal thrown
            assert throw_next is not None
            throw_next()
            thrown = True
            # the checker comes down just after the dice: well within the grace time, so the
            # roll over the unfinished play is never warned as "more must be played"
            yield self.rng.uniform(0.05, 0.4) / behaviour.speed

        board_position = position
        index = 0
        while index < len(play):
            move = play[index]
            if index < done:
                board_position = self.rules.apply(board_position, Play((move,))).with_turn(colour)
                index += 1
                continue
            group = self._chain(play, index)
            if index <= attempt_at < index + len(group):
                yield from self._illegal_attempt(position, roll, board_position)
            last = index + len(group) == len(play)
            in_air = throw if early and last else None
            if len(group) == 1:
                pair = index + 1 < len(play) and not last and self._pairable(play, index, attempt_at)
                pair = pair and not (self._holds_handed(colour) and BAR in (move.frm, play[index + 1].frm))
                if pair and self.chance(behaviour.two_at_once_rate):
                    second = play[index + 1]
                    yield from self._two_at_once(colour, move, second, throw if early and index + 2 == len(play) else None)
                    board_position = self.rules.apply(board_position, Play((move, second))).with_turn(colour)
                    index += 2
                    yield self.pause(behaviour.hesitate)
                    continue
                if self.rng.random() < behaviour.wrong_lift_rate:
                    yield from self._wrong_lift(board_position, move)
                yield from self.move(colour, move, in_air)
                if in_air is None and self.rng.random() < behaviour.takeback_rate:
                    yield from self._take_back_and_redo(colour, move)
            else:
                yield from self._move_through(colour, group, in_air)
            board_position = self.rules.apply(board_position, Play(group)).with_turn(colour)
            index += len(group)
            yield self.pause(behaviour.hesitate)
        if attempt_at == len(play) and play:
            # after the last move the board is complete: an extra move is always wrong
            yield from self._illegal_attempt(position, roll, board_position)
        return thrown

    def _chain(self, play: Play, index: int) -> tuple[Move, ...]:
        """The moves from ``index`` one checker makes in one carry: itself alone, or (at
        ``carry_through_rate``) with every following move that goes on from where it lands."""
        group = [play[index]]
        following = index + 1 < len(play) and play[index + 1].frm == play[index].to
        if following and self.chance(self.behaviour.carry_through_rate):
            for move in play[index + 1:]:
                if move.frm != group[-1].to:
                    break
                group.append(move)
        return tuple(group)

    @staticmethod
    def _pairable(play: Play, index: int, attempt_at: int) -> bool:
        """Whether moves ``index`` and ``index + 1`` may be lifted together: neither hits,
        the second does not go on from the first, and no illegal attempt comes between."""
        first, second = play[index], play[index + 1]
        return not first.hit and not second.hit and second.frm != first.to and attempt_at != index + 1

    def _two_at_once(self, colour: Colour, first: Move, second: Move, in_air: Callable[[], Steps] | None) -> Steps:
        """Lift the checkers of two moves together, then put them down one after the other."""
        checker = checker_of(colour)
        sources = [self._zone(colour, first.frm), self._zone(colour, second.frm)]
        self.board.hover(sources)
        yield self._s(0.05)
        for zone in sources:
            self.board.lift(zone, checker)
        yield self._s(0.05)
        self.board.unhover()
        yield self.pause(self.behaviour.hesitate)
        yield from self._place(self._zone(colour, first.to), colour)
        yield self.pause(self.behaviour.hesitate)
        if in_air is not None:
            yield from in_air()
        yield from self._place(self._zone(colour, second.to), colour)

    def move(self, colour: Colour, move: Move, in_air: Callable[[], Steps] | None = None) -> Steps:
        """One checker moved by hand, a hit blot carried to its bar or pool (before or after)."""
        frm, to = self._zone(colour, move.frm), self._zone(colour, move.to)
        opponent = colour.opponent
        slide = self.rng.random() < self.behaviour.slide_rate
        if move.hit and self.rng.random() < self.behaviour.hit_first_rate:
            # take the blot off first (to the bar, or held in the hand), then move in
            bar = WAITING[checker_of(opponent)]
            if self.chance(self.behaviour.blot_hold_rate):
                yield from self._lift(to, opponent)
                yield self.pause(self.behaviour.hesitate)
                yield from self.carry(frm, to, colour, slide)
                yield self.pause(self.behaviour.hesitate)
                if in_air is not None:  # the blot is the last checker in the hand
                    yield from in_air()
                if not self._hand_over(opponent):
                    yield from self._place(bar, opponent)
                return
            yield from self.carry(to, bar, opponent, slide=False)
            yield self.pause(self.behaviour.hesitate)
            yield from self.carry(frm, to, colour, slide, in_air)
            return
        yield from self.carry(frm, to, colour, slide, None if move.hit else in_air)
        if move.hit:
            yield self.pause(self.behaviour.hesitate)
            yield from self.carry(to, WAITING[checker_of(opponent)], opponent, slide=False, in_air=in_air)

    def _move_through(self, colour: Colour, moves: tuple[Move, ...], in_air: Callable[[], Steps] | None) -> Steps:
        """One checker carried straight over several dice (13/7/2*, 13/8*/2): each blot on
        the way is taken off before the hitter is lifted (to the bar, or held in the hand
        until it is down) or after it is down, as ``hit_first_rate`` and ``blot_hold_rate`` say."""
        behaviour = self.behaviour
        opponent = colour.opponent
        bar = WAITING[checker_of(opponent)]
        before: list[Zone] = []
        held: list[Zone] = []
        after: list[Zone] = []
        for move in moves:
            if not move.hit:
                continue
            blot = self._zone(colour, move.to)
            if self.rng.random() < behaviour.hit_first_rate:
                (held if self.chance(behaviour.blot_hold_rate) else before).append(blot)
            else:
                after.append(blot)
        for blot in before:
            yield from self.carry(blot, bar, opponent, slide=False)
            yield self.pause(behaviour.hesitate)
        for blot in held:
            yield from self._lift(blot, opponent)
            yield self.pause(behaviour.hesitate)
        # the next roll comes while the last checker to be put down is still in the hand
        last = "after" if after else "held" if held else "hitter"
        hitter_air = in_air if last == "hitter" else None
        yield from self.carry(self._zone(colour, moves[0].frm), self._zone(colour, moves[-1].to), colour, False, hitter_air)
        for n, _ in enumerate(held):
            yield self.pause(behaviour.hesitate)
            if in_air is not None and last == "held" and n == len(held) - 1:
                yield from in_air()
            if not self._hand_over(opponent):
                yield from self._place(bar, opponent)
        for n, blot in enumerate(after):
            yield self.pause(behaviour.hesitate)
            blot_air = in_air if n == len(after) - 1 else None
            yield from self.carry(blot, bar, opponent, slide=False, in_air=blot_air)

    def _wrong_lift(self, board_position: Position, move: Move) -> Steps:
        """Lift a checker that is not the one to move, think again, put it back."""
        colour = board_position.turn
        side = board_position.side(colour)
        others = [p for p in range(1, 26) if side[p] and p != move.frm and not (p == BAR and self._holds_handed(colour))]
        if not others:
            return
        zone = self._zone(colour, self.rng.choice(others))
        yield from self._lift(zone, colour)
        yield self.pause(self.behaviour.hesitate)
        yield from self._place(zone, colour)
        yield self.pause(self.behaviour.hesitate)

    def _take_back_and_redo(self, colour: Colour, move: Move) -> Steps:
        """Change one's mind: the checker goes back (the hit one too), then the move again."""
        frm, to = self._zone(colour, move.frm), self._zone(colour, move.to)
        opponent = colour.opponent
        yield self.pause(self.behaviour.hesitate)
        if move.hit:  # the hit checker comes back first, so the board never shows half a takeback
            yield from self.carry(WAITING[checker_of(opponent)], to, opponent, slide=False)  # from the hand if handed
        yield from self.carry(to, frm, colour, slide=False)
        yield self.pause(self.behaviour.hesitate)
        yield from self.move(colour, move)

    def _illegal_attempt(self, start: Position, roll: Roll, board_position: Position) -> Steps:
        """Move a checker where no legal play goes, wait for the warning, put it back."""
        colour = board_position.turn
        choice = wrong_move(self.rules, self._zone, start, roll, board_position, self.rng)
        if choice is None:
            return
        frm, to = choice
        yield from self.carry(frm, to, colour, slide=False)
        attempt = Attempt(colour, self.now())
        self.attempts.append(attempt)
        waited = 0.0
        while waited < self.behaviour.warning_patience:
            yield 0.1
            waited += 0.1
            if any(sound is Sound.WARNING and at >= attempt.start for at, sound in self.sounds()):
                attempt.warned = True
                break
        yield self.pause(self.behaviour.hesitate)
        attempt.end = self.now()
        yield from self.carry(to, frm, colour, slide=False)


def _between(frm: Zone, to: Zone) -> list[Zone]:
    """The points a sliding checker crosses on the way from ``frm`` to ``to``, along the
    track the checkers run (I to XII along one row, across the end, then 12 to 1): a hand
    slides a checker forward, never over the points behind it (the old nearest-index walk
    slid a checker crossing the end, XII to 7, backwards over XI, X, IX first)."""
    i, j = TRACK.index(frm), TRACK.index(to)
    step = 1 if j > i else -1
    return [TRACK[k] for k in range(i + step, j, step)]


TRACK: tuple[Zone, ...] = LINES[12:] + LINES[11::-1]
"""The points in the order the checkers run round the board: I to XII, then 12 to 1."""
