"""A game and a match: opening roll, turn order, passing, the doubling cube, the end and the score.

Pure bookkeeping over a rule set: every die comes in as an argument, so a game replays
exactly from its record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .base import GameResult, Opening, RuleSet
from .values import BLACK, WHITE, Colour, IllegalPlayError, Play, Position, Roll

if TYPE_CHECKING:
    from .turn import TurnMap


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn as it entered the record: who, which roll, which play, and the positions."""

    colour: Colour
    roll: Roll
    play: Play
    before: Position
    after: Position


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A doubling-cube action (backgammon): ``double``, ``take`` or ``drop`` by ``colour``."""

    colour: Colour
    action: str


class Game:
    """One game under a rule set: the position, the turns played, the cube and the result."""

    def __init__(self, rules: RuleSet, position: Position | None = None, *, cube_allowed: bool = True) -> None:
        self.rules = rules
        self.start = rules.validate(position) if position is not None else rules.start_position()
        self.position = self.start
        self.history: list[TurnRecord | CubeAction] = []
        self.opening: Opening | None = None
        self.pending_roll: Roll | None = None
        self.cube_value = 1
        self.cube_owner: Colour | None = None
        self.cube_allowed = rules.HAS_CUBE and cube_allowed
        self._offered_by: Colour | None = None
        self._dropped_by: Colour | None = None

    # -- opening ------------------------------------------------------------------------
    def throw_opening(self, first_die: int, second_die: int) -> Opening | None:
        """The opening throws of player 0 and player 1; None when equal (throw again).

        Sets who moves first; where the rules give the starter both dice, that roll
        becomes the first roll (``pending_roll``).
        """
        if self.history:
            raise IllegalPlayError("the opening roll comes before the first turn")
        opening = self.rules.resolve_opening(first_die, second_die)
        if opening is not None:
            self.opening = opening
            self.position = self.position.with_turn(opening.first)
            self.pending_roll = opening.roll
        return opening

    # -- turns ------------------------------------------------------------------------------
    @property
    def turn(self) -> Colour:
        """The colour to move."""
        return self.position.turn

    def legal_plays(self, roll: Roll) -> tuple[Play, ...]:
        """The legal plays for ``roll`` now."""
        return self.rules.legal_plays(self.position, roll)

    def play(self, roll: Roll, play: Play) -> TurnRecord:
        """Play one turn; an empty play passes, and is legal only when nothing can be played."""
        self._check_open()
        if self.pending_roll is not None and sorted(roll.dice) != sorted(self.pending_roll.dice):
            raise IllegalPlayError(f"the first roll is {self.pending_roll}, not {roll}")
        canonical = self.rules.legal_play_for(self.position, roll, play)
        if canonical is None:
            if not play.moves:
                raise IllegalPlayError(f"{self.turn.value} cannot pass with {roll}: a play exists")
            raise IllegalPlayError(f"{' '.join(map(str, play.moves))} is not a legal play for {roll}")
        before = self.position
        after = self.rules.apply(before, play)
        record = TurnRecord(self.turn, roll, play, before, after)
        self.history.append(record)
        self.position = after
        self.pending_roll = None
        return record

    def record(self, turn_map: TurnMap, play: Play | int) -> TurnRecord:
        """Play one turn whose play comes from ``turn_map`` (the map of this very turn): the
        play, or the key of the complete board it leaves.  The same as ``play`` without
        generating the legal plays again: the play is checked against the map's own moves.
        An empty play passes, when the map has no legal play."""
        self._check_open()
        roll = turn_map.roll
        if self.pending_roll is not None and sorted(roll.dice) != sorted(self.pending_roll.dice):
            raise IllegalPlayError(f"the first roll is {self.pending_roll}, not {roll}")
        if (turn_map.position is not self.position and turn_map.position != self.position) or (
            turn_map.rules is not self.rules and turn_map.rules != self.rules
        ):  # the same objects as a rule (the turn's map built from this game): no comparison
            raise IllegalPlayError("the turn map is not of this game's position")
        if isinstance(play, int):
            key: int | None = play
            play = turn_map.play_to(play)
        else:
            key = turn_map.end_of(play)
            if key is None:
                if not play.moves:
                    raise IllegalPlayError(f"{self.turn.value} cannot pass with {roll}: a play exists")
                raise IllegalPlayError(f"{' '.join(map(str, play.moves))} is not a legal play for {roll}")
        before = self.position
        after = self.rules.position_after(key, turn_map.mover)
        record = TurnRecord(self.turn, roll, play, before, after)
        self.history.append(record)
        self.position = after
        self.pending_roll = None
        return record

    def undo(self) -> TurnRecord | CubeAction:
        """Take back the last turn or cube action."""
        if not self.history:
            raise IllegalPlayError("nothing to take back")
        last = self.history.pop()
        if isinstance(last, TurnRecord):
            self.position = last.before
        else:
            self._replay_cube()
        return last

    # -- the doubling cube (backgammon) --------------------------------------------------------
    def may_double(self, colour: Colour) -> bool:
        """May ``colour`` offer the cube before rolling now?"""
        return (
            self.cube_allowed
            and self.result() is None
            and self._offered_by is None
            and colour is self.turn
            and self.cube_owner in (None, colour)
        )

    @property
    def offered_by(self) -> Colour | None:
        """The colour whose double waits to be taken or dropped (None: no offer stands)."""
        return self._offered_by

    def cube(self, colour: Colour, action: str) -> CubeAction:
        """Record ``double`` (by the player to roll), ``take`` or ``drop`` (by the other)."""
        if action == "double":
            if not self.may_double(colour):
                raise IllegalPlayError(f"{colour.value} may not double now")
        elif action in ("take", "drop"):
            if self._offered_by is None or colour is self._offered_by:
                raise IllegalPlayError(f"{colour.value} has no double to {action}")
        else:
            raise IllegalPlayError(f"unknown cube action {action!r}")
        record = CubeAction(colour, action)
        self.history.append(record)
        self._replay_cube()
        return record

    def _replay_cube(self) -> None:
        self.cube_value, self.cube_owner, self._offered_by, self._dropped_by = 1, None, None, None
        for item in self.history:
            if isinstance(item, CubeAction):
                if item.action == "double":
                    self._offered_by = item.colour
                elif item.action == "take":
                    self.cube_value *= 2
                    self.cube_owner = item.colour
                    self._offered_by = None
                else:
                    self._dropped_by = item.colour

    # -- the end --------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.result() is not None:
            raise IllegalPlayError("the game is over")
        if self._offered_by is not None:
            raise IllegalPlayError("a double is waiting to be taken or dropped")

    def result(self) -> GameResult | None:
        """The winner and the points won (cube included), or None while the game goes on."""
        if self._dropped_by is not None:
            return GameResult(self._dropped_by.opponent, self.cube_value, "drop")
        result = self.rules.result(self.position)
        if result is None:
            return None
        return GameResult(result.winner, result.points * self.cube_value, result.kind)

    @property
    def is_over(self) -> bool:
        """Has someone won?"""
        return self.result() is not None

    def turns(self) -> list[TurnRecord]:
        """The turns played, without cube actions."""
        return [item for item in self.history if isinstance(item, TurnRecord)]


@dataclass
class Match:
    """A match to ``length`` points (0: a single unlimited session), with the Crawford rule."""

    rules: RuleSet
    length: int = 1
    score: dict[Colour, int] = field(default_factory=lambda: {WHITE: 0, BLACK: 0})
    games: list[Game] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    crawford_played: bool = False

    def __post_init__(self) -> None:
        if self.length < 0:
            raise IllegalPlayError(f"a match is to 1 point or more (or 0 for unlimited), not {self.length}")

    def is_crawford_game(self) -> bool:
        """The first game after a player reaches match point minus one: no doubling."""
        if not self.rules.HAS_CUBE or self.length <= 1 or self.crawford_played:
            return False
        return any(points == self.length - 1 for points in self.score.values())

    def new_game(self) -> Game:
        """Start the next game."""
        if self.winner() is not None:
            raise IllegalPlayError("the match is over")
        if len(self.results) < len(self.games):
            raise IllegalPlayError("the current game is not over and scored")
        crawford = self.is_crawford_game()
        if crawford:
            self.crawford_played = True
        game = Game(self.rules, cube_allowed=not crawford)
        self.games.append(game)
        return game

    def finish_game(self) -> GameResult:
        """Add the current game's result to the score."""
        result = self.games[-1].result() if len(self.results) < len(self.games) else None
        if result is None:
            raise IllegalPlayError("no finished, unscored game to score")
        self.results.append(result)
        self.score[result.winner] += result.points
        return result

    def winner(self) -> Colour | None:
        """The colour that has reached the match length."""
        if self.length == 0:
            return None
        for colour, points in self.score.items():
            if points >= self.length:
                return colour
        return None
