"""The rule-set base class: legal plays, applying and taking back plays, scoring hooks.

A rule set is a small immutable object (name and options).  Subclasses set class-level
flags and override a few hooks (``_may_bear_off``, ``play_allowed``, ``score``...), so a
new game joins through the registry without touching the generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from types import MappingProxyType
from typing import ClassVar, Mapping, Sequence

from . import state as st
from .geometry import Geometry, trictrac_geometry
from .movegen import MoveGenerator
from .values import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    WHITE,
    Colour,
    IllegalPlayError,
    Move,
    Play,
    Position,
    PositionError,
    Roll,
    UnknownRuleSetError,
)

_OPPONENT_SHIFT = st.SHIFT[st.OPP]
_SET_WHITE, _SET_BLACK, _SET_TURN = Position.white.__set__, Position.black.__set__, Position.turn.__set__  # type: ignore[attr-defined]
"""The slots of a ``Position`` set directly, past its frozen ``__setattr__`` and its checks."""

_OPP_SHIFT_BITS = st.SHIFT[st.OPP]
_BOARD, _BOARD_AND_BAR, _ONES = st.BOARD, st.BOARD_AND_BAR, st.ONES

def _possible(key: int) -> bool:
    """No point of the packed board holds both colours, and not both sides are all off:
    ``RuleSet.validate``'s checks, with a few masks."""
    x = key & _BOARD
    y = (key >> _OPP_SHIFT_BITS) & _BOARD  # the opponent on my points 1-24
    if (x | x >> 1 | x >> 2 | x >> 3) & (y | y >> 1 | y >> 2 | y >> 3) & _ONES:
        return False
    return not (key & 15 == CHECKERS and (key >> _OPP_SHIFT_BITS) & 15 == CHECKERS)


@dataclass(frozen=True, slots=True)
class Opening:
    """The outcome of the opening throws: who moves first, with which colour and roll.

    ``winner`` is the index (0 or 1) of the player whose single die was higher;
    ``first`` the colour that moves first; ``roll`` the first roll, or ``None`` when the
    starter rolls afresh (the rally).
    """

    winner: int
    first: Colour
    roll: Roll | None


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the winner and the points won (before any cube)."""

    winner: Colour
    points: int
    kind: str


class RuleSet(MoveGenerator):
    """One set of rules.  Instances are immutable and compare by name and options; the
    move generation it inherits (``movegen.MoveGenerator``) asks its hooks."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    OPTIONS: ClassVar[Mapping[str, bool]] = MappingProxyType({})
    MIRRORED: ClassVar[bool] = True
    """White's point p and Black's point 25 - p are the same physical point (trictrac)."""
    HAS_CUBE: ClassVar[bool] = False
    START_QUARTER: ClassVar[str | None] = None
    """The start quarter played when none is chosen (the rally), or None."""

    __slots__ = ("_options",)

    def __init__(self, **options: bool) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(sorted(self.OPTIONS)) or "none"
            raise UnknownRuleSetError(f"rule set {self.name!r} has no option {unknown[0]!r} (options: {known})")
        values = dict(self.OPTIONS)
        for key, value in options.items():
            if not isinstance(value, bool):
                raise UnknownRuleSetError(f"option {key!r} of {self.name!r} is true or false, not {value!r}")
            values[key] = value
        self._options: Mapping[str, bool] = MappingProxyType(values)

    # -- identity -------------------------------------------------------------------
    @property
    def options(self) -> Mapping[str, bool]:
        """Every option of this rule set with its value."""
        return self._options

    def changed_options(self) -> dict[str, bool]:
        """The options that differ from the defaults."""
        return {k: v for k, v in self._options.items() if v != self.OPTIONS[k]}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._options == other._options  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._options.items()))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.changed_options().items())
        return f"{type(self).__name__}({args})"

    # -- positions ------------------------------------------------------------------
    def start_position(self) -> Position:
        """The position at the start of a game, White to move."""
        raise NotImplementedError

    def geometry(self, start_quarter: str | None = None) -> Geometry:
        """Where each colour's own points lie on the physical board."""
        if start_quarter is not None:
            raise UnknownRuleSetError(f"{self.name} has no start quarter to choose")
        return trictrac_geometry()

    def opponent_point(self, point: int) -> int:
        """The opponent's own number for the physical point that is ``point`` for me."""
        return 25 - point if self.MIRRORED else point

    def validate(self, position: Position) -> Position:
        """Return ``position`` if it is possible under these rules, else raise PositionError."""
        if _possible(self.board_key(position)):
            return position
        return self._name_fault(position)

    def _name_fault(self, position: Position) -> Position:
        """``validate`` one check at a time, to name what is wrong (the position if nothing is)."""
        for point in range(1, 25):
            white = position.white[point]
            black = position.black[self.opponent_point(point)]
            if white and black:
                raise PositionError(
                    f"White's point {point} and Black's point {self.opponent_point(point)} are one point, "
                    f"holding {white} white and {black} black checkers"
                )
        for colour in (WHITE, BLACK):
            side = position.side(colour)
            if side[OFF] == CHECKERS:
                other = position.side(colour.opponent)
                if other[OFF] == CHECKERS:
                    raise PositionError("both players cannot have borne off all their checkers")
        return position

    def validate_key(self, position: Position, key: int) -> Position:
        """``validate(position)`` given its packed board ``key`` (``board_key``): the same
        answer, found with a few masks; the checks are run one by one only to name a fault
        (or when a subclass adds checks of its own)."""
        if type(self).validate is not RuleSet.validate:
            return self.validate(position)
        return position if _possible(key) else self._name_fault(position)

    # -- packed boards (controller.rules.state) ----------------------------------------
    def board_key(self, position: Position) -> int:
        """The packed board of ``position`` seen by its mover: the key the generator works on."""
        return self.key_of(position.side(position.turn), position.side(position.turn.opponent))

    def key_of(self, mover: Sequence[int], opponent: Sequence[int]) -> int:
        """The packed board of these counts (each side in its own numbering, 26 each, at
        most 15), even counts no position allows (checkers in a hand, a hit under way)."""
        return st.pack(mover, opponent, self.MIRRORED)

    def position_of(self, key: int, mover: Colour) -> Position:
        """The position a packed board (seen by ``mover``) stands for, ``mover`` to move."""
        mine, theirs = st.unpack(key, self.MIRRORED)
        if mover is WHITE:
            return Position(mine, theirs, mover)
        return Position(theirs, mine, mover)

    def position_after(self, key: int, mover: Colour) -> Position:
        """The position a packed board (seen by ``mover``) leaves once ``mover`` has played:
        the opponent to move.  Built without the checks of ``Position()``: only for keys the
        generator made (a legal play's end), which are possible boards."""
        mine, theirs = st.unpack(key, self.MIRRORED)
        result = object.__new__(Position)
        _SET_WHITE(result, mine if mover is WHITE else theirs)
        _SET_BLACK(result, theirs if mover is WHITE else mine)
        _SET_TURN(result, mover.opponent)
        return result

    # -- hooks ------------------------------------------------------------------------
    # -- public API ---------------------------------------------------------------------
    def legal_plays(self, position: Position, roll: Roll) -> tuple[Play, ...]:
        """Every legal play, one per distinct resulting position; empty when the turn passes."""
        _, plays = self.final_plays(self.board_key(position), roll)
        return tuple(Play(path) for path in plays.values())

    def legal_results(self, position: Position, roll: Roll) -> dict[Position, Play]:
        """The legal plays keyed by the position each leaves (the opponent to move)."""
        _, plays = self.final_plays(self.board_key(position), roll)
        mover = position.turn
        after = mover.opponent
        white_moves = mover is WHITE
        # Thousands of end boards: the mover's sides split all at once (``st.mover_sides``),
        # the opponent's kept while no hit changes it, each position built without the
        # checks of ``Position()`` (the generator makes only possible boards).
        new = object.__new__
        set_white, set_black, set_turn = _SET_WHITE, _SET_BLACK, _SET_TURN
        last_bits, theirs = -1, ()  # type: int, tuple[int, ...]
        positions: list[Position] = []
        add = positions.append
        for mine, key in zip(st.mover_sides(plays), plays):
            bits = key >> _OPPONENT_SHIFT
            if bits != last_bits:
                last_bits, theirs = bits, st.unpack(key, self.MIRRORED)[1]
            result = new(Position)
            set_white(result, mine if white_moves else theirs)
            set_black(result, theirs if white_moves else mine)
            set_turn(result, after)
            add(result)
        return dict(zip(positions, map(tuple.__new__, repeat(Play), plays.values())))

    def _step(self, state: int, move: Move, min_bar: int = -1) -> tuple[Move, int]:
        """Apply one move by its origin and die, checking only that the checker may go there."""
        for made, child in zip(*self.successors(state, move.die, min_bar)):
            if made.frm == move.frm:
                if made.to != move.to:
                    break
                return made, child
        raise IllegalPlayError(f"move {move} (die {move.die}) is not possible here")

    def apply(self, position: Position, play: Play) -> Position:
        """The position after ``play`` (each move checked to be possible), opponent to move.

        This checks every single move but not the dice-usage rule: see ``is_legal``.
        """
        state = self.board_key(position)
        for move in play.moves:
            state = self._step(state, move)[1]
        return self.position_of(state, position.turn).with_turn(position.turn.opponent)

    def take_back(self, position: Position, play: Play) -> Position:
        """Undo ``play``: the position before it, with its mover to move again."""
        mover = position.turn.opponent
        state = self.board_key(position.with_turn(mover))
        for move in reversed(play.moves):
            if not (state >> st.SHIFT[move.to]) & 15:
                raise IllegalPlayError(f"cannot take back {move}: no checker on {move.to}")
            state += st.UNIT[move.frm] - st.UNIT[move.to]
            if move.hit:
                if not (state >> st.SHIFT[26 + BAR]) & 15:
                    raise IllegalPlayError(f"cannot take back the hit of {move}: no checker to return")
                state += st.UNIT[26 + move.to] - st.OPP_BAR_UNIT
        return self.validate(self.position_of(state, mover))

    def is_legal(self, position: Position, roll: Roll, play: Play) -> bool:
        """Is ``play`` one of the legal plays for ``roll``?"""
        return self.legal_play_for(position, roll, play) is not None

    def legal_play_for(self, position: Position, roll: Roll, play: Play) -> Play | None:
        """The canonical legal play that leaves the same position as ``play``, if any."""
        start = self.board_key(position)
        used, plays = self.final_plays(start, roll)
        if len(play.moves) != used:
            return None
        if used == 0:
            return Play()
        spare = list(roll.dice)
        for die in play.dice_used:
            if die not in spare:
                return None
            spare.remove(die)
        state = start
        try:
            for move in play.moves:
                state = self._step(state, move)[1]
        except IllegalPlayError:
            return None
        found = plays.get(state)
        return Play(found) if found is not None else None

    # -- end of game -------------------------------------------------------------------------
    def result(self, position: Position) -> GameResult | None:
        """The finished game's result, or None while it goes on."""
        winner = position.winner()
        if winner is None:
            return None
        points, kind = self.score(position, winner)
        return GameResult(winner, points, kind)

    def score(self, position: Position, winner: Colour) -> tuple[int, str]:
        """Points won by ``winner`` in this final position, and the name of the win."""
        raise NotImplementedError

    def resolve_opening(self, first_die: int, second_die: int) -> Opening | None:
        """Who starts, from the single dice thrown by player 0 and player 1; None to throw again.

        Player 0 holds White unless the rules give White to the higher throw.
        """
        for die in (first_die, second_die):
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise IllegalPlayError(f"a die shows 1 to 6, not {die!r}")
        if first_die == second_die:
            return None
        winner = 0 if first_die > second_die else 1
        return self._opening(winner, Roll(first_die, second_die) if winner == 0 else Roll(second_die, first_die))

    def _opening(self, winner: int, roll: Roll) -> Opening:
        return Opening(winner, WHITE if winner == 0 else BLACK, roll)
