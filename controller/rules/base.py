"""The rule-set base class: legal plays, applying and taking back plays, scoring hooks.

A rule set is a small immutable object (name and options).  Subclasses set class-level
flags and override a few hooks (``_may_bear_off``, ``play_allowed``, ``score``...), so a
new game joins through the registry without touching the generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product, repeat
from types import MappingProxyType
from typing import ClassVar, Iterable, Mapping, Sequence

from . import state as st
from .geometry import Geometry, trictrac_geometry
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

Path = tuple[Move, ...]
_OPPONENT_SHIFT = st.SHIFT[st.OPP]
_SET_WHITE, _SET_BLACK, _SET_TURN = Position.white.__set__, Position.black.__set__, Position.turn.__set__  # type: ignore[attr-defined]
"""The slots of a ``Position`` set directly, past its frozen ``__setattr__`` and its checks."""

_BAR_SHIFT = st.BAR_SHIFT
_OPP_SHIFT_BITS = st.SHIFT[st.OPP]
_BAR_BIT = st.UNIT[BAR]
_BOARD, _BOARD_AND_BAR, _ONES = st.BOARD, st.BOARD_AND_BAR, st.ONES
_ALL_ONES = st.low_bits(range(52))
_FROM_BOARD_AND_BAR = tuple(st.ONES & st.BOARD_AND_BAR & mask for mask in st.UP_TO)
_FROM_BOARD = tuple(st.ONES & st.BOARD & mask for mask in st.UP_TO)
"""``_FROM_...[top]``: the origins on points 1 to ``top`` (the bar included or not)."""
_ALIGN = tuple(st.SHIFT[st.OPP - die] for die in range(7))
"""Shifting a key right by ``_ALIGN[die]`` brings the opponent on my point ``p - die`` to field ``p``."""
_LANDING = tuple(st.mask(range(die + 1, BAR + 1)) for die in range(7))
"""The origins a move of ``die`` leaves on the board (not bearing off)."""
_BEAR_OFF = tuple(st.ONES & st.UP_TO[die] & ~1 for die in range(7))
"""The origins from which a move of ``die`` bears off (points 1 to ``die``)."""
_FEW = 4
"""Up to this many origins the generator walks them one by one; above, it looks their moves up."""
_CHUNK_FIELDS = 9
_NONE: tuple[tuple[Move, ...], tuple[int, ...]] = ((), ())
_CHUNK_LIMIT = 4096
"""The most patterns a table keeps (games meet about a thousand a table; the memory stays bounded)."""
_CHUNK_MASK = (1 << (4 * _CHUNK_FIELDS)) - 1
_CHUNKS: tuple[list[dict[int, tuple[tuple[Move, ...], tuple[int, ...]]]], ...] = tuple(
    [{}, {}, {}] for _ in range(7)
)
"""``_CHUNKS[die][c][bits]``: the moves of ``die`` from points ``9c`` to ``9c + 8`` whose
fields in ``bits`` are marked (first bit: a checker may go, second bit: it hits), high point
first, and the change each makes to a key.  Filled as patterns come up (at most 3 ** 9 a
table, far fewer in games)."""


def _chunk(table: dict[int, tuple[tuple[Move, ...], tuple[int, ...]]], die: int, chunk: int, bits: int
           ) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """Find and keep the moves of one pattern (see ``_CHUNKS``); a full table starts afresh."""
    if len(table) >= _CHUNK_LIMIT:
        table.clear()
    found = table[bits] = _chunk_moves(die, chunk, bits)
    return found


_DELTAS: tuple[list[dict[int, tuple[int, ...]]], ...] = tuple([{}, {}, {}] for _ in range(7))
"""``_DELTAS[die][c][bits]``: the key changes alone of ``_CHUNKS[die][c][bits]`` (what
``successors_of`` needs), kept the same way."""


def _chunk_deltas(table: dict[int, tuple[int, ...]], die: int, chunk: int, bits: int) -> tuple[int, ...]:
    """Find and keep the key changes of one pattern (see ``_DELTAS``); a full table starts afresh."""
    if len(table) >= _CHUNK_LIMIT:
        table.clear()
    found = table[bits] = _chunk_moves(die, chunk, bits)[1]
    return found


def _threes(die: int, group: int) -> dict[int, tuple[tuple[Move, ...], tuple[int, ...]]]:
    """Every pattern of the three fields ``3 * group`` to ``3 * group + 2`` (points up to the
    bar) with its moves of ``die``, high point first, and their key changes."""
    fields = [f for f in range(3) if 3 * group + f <= BAR]
    table = {}
    for marks in product((0, 1, 3), repeat=len(fields)):  # no move, a move, a move that hits
        moves = []
        for field, mark in sorted(zip(fields, marks), reverse=True):
            if mark:
                moves.append((st.STEP_HIT if mark == 3 else st.STEP_PLAIN)[die][3 * group + field])
        bits = sum(mark << (4 * field) for field, mark in zip(fields, marks))
        table[bits] = tuple(move for move, _ in moves), tuple(delta for _, delta in moves)
    return table


_THREES = tuple(tuple(_threes(die, group) for group in range(9)) for die in range(7))
"""``_THREES[die][g][bits]``: the moves of every pattern of three fields, all found at
import (27 a table), from which a nine-field pattern met for the first time is put together."""


def _chunk_moves(die: int, chunk: int, bits: int) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """The moves and key changes of one nine-field pattern: its three three-field patterns'."""
    threes = _THREES[die]
    high = threes[3 * chunk + 2][bits >> 24 & 0xFFF]
    middle = threes[3 * chunk + 1][bits >> 12 & 0xFFF]
    low = threes[3 * chunk][bits & 0xFFF]
    return high[0] + middle[0] + low[0], high[1] + middle[1] + low[1]


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


class RuleSet:
    """One set of rules.  Instances are immutable and compare by name and options."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    OPTIONS: ClassVar[Mapping[str, bool]] = MappingProxyType({})
    MIRRORED: ClassVar[bool] = True
    """White's point p and Black's point 25 - p are the same physical point (trictrac)."""
    HITTING: ClassVar[bool] = True
    """A single opposing checker can be hit; otherwise any opposing checker closes a point."""
    ENTER_ALL_FIRST: ClassVar[bool] = True
    """Every checker on the bar must enter before any other checker moves."""
    HAS_CUBE: ClassVar[bool] = False
    START_QUARTER: ClassVar[str | None] = None
    """The start quarter played when none is chosen (the rally), or None."""
    PLAY_BANS: ClassVar[bool] = False
    """Some plays are refused as a whole (``play_allowed``: the rally's entries and bans)."""
    ENTRY_COMPULSORY: ClassVar[bool] = False
    """While the bar or pool holds a checker a play must enter one (``play_allowed`` refuses
    the others): the last die of a turn that has entered none need only try entries."""

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
    def _may_bear_off(self, state: int, point: int, die: int) -> bool:
        """May a checker on ``point`` (1-6) leave the board with ``die``?"""
        raise NotImplementedError

    def bear_off_points(self, state: int, die: int, candidates: int) -> int:
        """Which of ``candidates`` (the mover's occupied points 1 to ``die``, a bit per
        field) may bear off with ``die``: ``_may_bear_off`` of each, which a rule set may
        answer for all at once (the generator asks for every board that has candidates)."""
        allowed = 0
        for point in range(die, 0, -1):
            bit = st.UNIT[point]
            if candidates & bit and self._may_bear_off(state, point, die):
                allowed |= bit
        return allowed

    def entry_limit(self, roll: Roll) -> int | None:
        """How many checkers one turn may enter, or None for no limit (a hook: the rally limits)."""
        return None

    def play_allowed(self, start: int, end: int) -> bool:
        """May a play that turns packed board ``start`` into ``end`` be made (entries, bans)?
        A hook: only rule sets with ``PLAY_BANS`` refuse any."""
        return True

    def allowed_ends(self, start: int, ends: Iterable[int]) -> list[int]:
        """The boards of ``ends`` (in order) that ``play_allowed`` lets a play from ``start``
        leave: the turn map asks once for a whole level, which rule sets may answer faster."""
        if not self.PLAY_BANS:
            return list(ends)
        allowed = self.play_allowed
        return [end for end in ends if allowed(start, end)]

    # -- the generator -----------------------------------------------------------------
    def single_moves(self, key: int, die: int, min_bar: int = -1, top: int = BAR) -> list[tuple[Move, int]]:
        """Every single move of ``die`` from the packed board ``key``, with the key it leaves.

        Entries are allowed only while the bar holds more than ``min_bar`` checkers; only
        checkers on points up to ``top`` move (doubles are generated high point first).
        Dice-usage rules are not applied here: see ``final_plays``.
        """
        return list(zip(*self.successors(key, die, min_bar, top)))

    def successors(self, key: int, die: int, min_bar: int = -1, top: int = BAR) -> tuple[tuple[Move, ...], list[int]]:
        """``single_moves`` as two parallel sequences, the moves and the keys they leave
        (highest origin first): the generator's inner loop, with no pair built per move.

        Which points are closed or hold a blot is found for every origin at once: the
        opponent's fields shifted onto the origins ``die`` points above them.
        """
        state = key
        above = state >> 1 | state >> 2 | state >> 3
        two = above & _ALL_ONES  # every field holding two or more
        occupied = (above | state) & _ALL_ONES  # every field holding one or more
        bar = (state >> _BAR_SHIFT) & 15
        if bar and self.ENTER_ALL_FIRST:
            sources = _BAR_BIT
        else:
            sources = occupied & (_FROM_BOARD_AND_BAR if bar > min_bar else _FROM_BOARD)[top]
        # field p of a mask shifted right by _ALIGN[die]: the opponent's field on my point p - die
        align = _ALIGN[die]
        high = sources & ~((two if self.HITTING else occupied) >> align) & _LANDING[die]
        code = high | (high & occupied >> align) << 1 if self.HITTING else high  # a hit: the field's second bit
        off = sources & _BEAR_OFF[die]
        if off:  # bearing off: the rules decide each checker
            off = self.bear_off_points(state, die, off)
        if sources.bit_count() <= _FEW:  # a few checkers to move: one by one
            moves_: list[Move] = []
            keys_: list[int] = []
            plain, hitting = st.STEP_PLAIN[die], st.STEP_HIT[die]
            hits = code >> 1
            while sources:
                low = sources.bit_length() - 1
                bit = 1 << low
                sources ^= bit
                point = low >> 2
                if point > die:
                    if not high & bit:
                        continue
                    move, delta = hitting[point] if hits & bit else plain[point]
                elif off & bit:
                    move, delta = plain[point]
                else:
                    continue
                moves_.append(move)
                keys_.append(state + delta)
            return moves_, keys_  # type: ignore[return-value]
        # the moves and key changes of each nine points' pattern, found once and kept
        low_table, middle_table, high_table = _CHUNKS[die]
        bits = code >> 72
        moves, deltas = (high_table.get(bits) or _chunk(high_table, die, 2, bits)) if bits else _NONE
        bits = (code >> 36) & _CHUNK_MASK
        if bits:
            found = middle_table.get(bits) or _chunk(middle_table, die, 1, bits)
            moves += found[0]
            deltas += found[1]
        bits = code & _CHUNK_MASK
        if bits:
            found = low_table.get(bits) or _chunk(low_table, die, 0, bits)
            moves += found[0]
            deltas += found[1]
        if off:
            plain = st.STEP_PLAIN[die]
            while off:
                last = off.bit_length() - 1
                off ^= 1 << last
                move, delta = plain[last >> 2]
                moves += (move,)
                deltas += (delta,)
        return moves, [state + delta for delta in deltas]

    def successors_of(
        self, boards: Iterable[int], die: int, min_bar: int = -1, enter_only: int = -1
    ) -> tuple[list[int], list[int]]:
        """The keys ``successors(board, die, min_bar)`` leaves from each board, in one call
        and one list, board after board; and where each board's keys start in it (one entry
        a board, then the list's length).  The turn map expands a whole level at once: the
        tables and flags are looked up once, and no move and no list a board is built
        (``successors`` pairs the moves up for the few boards asked about).  A board whose
        bar holds ``enter_only`` checkers moves only from the bar (the last die of a play
        that must still enter, see ``ENTRY_COMPULSORY``)."""
        starts: list[int] = []
        mark = starts.append
        reached: list[int] = []
        add = reached.append
        align, landing, bear_off = _ALIGN[die], _LANDING[die], _BEAR_OFF[die]
        low_table, middle_table, high_table = _DELTAS[die]
        plain = st.STEP_PLAIN[die]
        hitting = self.HITTING
        bar_first = self.ENTER_ALL_FIRST
        bear_off_points = self.bear_off_points
        all_ones, bar_shift, bar_bit, chunk_mask = _ALL_ONES, _BAR_SHIFT, _BAR_BIT, _CHUNK_MASK
        with_bar, without_bar = _FROM_BOARD_AND_BAR[BAR], _FROM_BOARD[BAR]
        for state in boards:
            mark(len(reached))
            above = state >> 1 | state >> 2 | state >> 3
            occupied = (above | state) & all_ones
            bar = (state >> bar_shift) & 15
            if bar and bar_first:
                sources = bar_bit
            elif bar == enter_only:
                sources = bar_bit if bar > min_bar else 0
            else:
                sources = occupied & (with_bar if bar > min_bar else without_bar)
            if hitting:
                high = sources & ~(above >> align) & landing
                code = high | (high & occupied >> align) << 1
            else:
                code = sources & ~(occupied >> align) & landing
            # the key changes of each nine points' pattern, high points first (as ``successors``)
            bits = code >> 72
            if bits:
                for delta in high_table.get(bits) or _chunk_deltas(high_table, die, 2, bits):
                    add(state + delta)
            bits = (code >> 36) & chunk_mask
            if bits:
                for delta in middle_table.get(bits) or _chunk_deltas(middle_table, die, 1, bits):
                    add(state + delta)
            bits = code & chunk_mask
            if bits:
                for delta in low_table.get(bits) or _chunk_deltas(low_table, die, 0, bits):
                    add(state + delta)
            low = sources & bear_off
            if low:  # bearing off: the rules decide each checker
                low = bear_off_points(state, die, low)
                while low:
                    last = low.bit_length() - 1
                    low ^= 1 << last
                    add(state + plain[last >> 2][1])
        mark(len(reached))
        return starts, reached

    def final_plays(self, key: int, roll: Roll) -> tuple[int, dict[int, Path]]:
        """The legal plays from the packed board ``key`` as ``(dice used, {end key: moves})``.

        One play per distinct end board; ``(0, {})`` if the turn passes.
        """
        start = key
        limit = self.entry_limit(roll)
        bar0 = (start >> st.BAR_SHIFT) & 15
        min_bar = -1 if limit is None else bar0 - limit
        allowed = self.play_allowed
        if roll.is_double:
            # With one die size the moves of a play can always be ordered from the highest
            # origin down (a move never opens the way for a checker above it), so each
            # state only tries origins up to the last one used on the way to it.
            die = roll.first
            levels: list[dict[int, Path]] = []
            frontier: dict[int, Path] = {start: ()}
            for _ in range(4):
                nxt: dict[int, Path] = {}
                for node, path in frontier.items():
                    top = path[-1].frm if path else BAR
                    for move, child in zip(*self.successors(node, die, min_bar, top)):
                        known = nxt.get(child)
                        if known is None or known[-1].frm < move.frm:
                            nxt[child] = path + (move,)
                if not nxt:
                    break
                levels.append(nxt)
                frontier = nxt
            for used in range(len(levels), 0, -1):
                plays = {s: p for s, p in levels[used - 1].items() if allowed(start, s)}
                if plays:
                    return used, plays
            return 0, {}
        a, b = roll.first, roll.second
        first: dict[tuple[int, int], Path] = {}
        for die, rest in ((a, b), (b, a)):
            for move, child in zip(*self.successors(start, die, min_bar)):
                key = (child, rest)
                if key not in first:
                    first[key] = (move,)
        second: dict[int, Path] = {}
        for (node, rest), path in first.items():
            for move, child in zip(*self.successors(node, rest, min_bar)):
                if child not in second:
                    second[child] = path + (move,)
        plays = {s: p for s, p in second.items() if allowed(start, s)}
        if plays:
            return 2, plays
        singles = [(s, p) for (s, _), p in first.items() if allowed(start, s)]
        if not singles:
            return 0, {}
        high = roll.high
        if any(p[0].die == high for _, p in singles):
            singles = [(s, p) for s, p in singles if p[0].die == high]
        return 1, dict(singles)

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
