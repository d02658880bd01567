"""The engine's cube decisions: double or not (or too good to double), take or pass.

Pure: from the engine's cubeless ``Evaluation`` of the position the doubler is to roll in
(win, gammon and backgammon chances) and the cube's state, nothing else.

**Money play** (a session, match length 0): Janowski's cubeful approximation.  With ``W``
and ``L`` the average cubeless value of the games the doubler wins and loses (gammons
and backgammons counted) and ``p`` the chance to win, the cubeful equity is a mix, by the
cube efficiency ``x`` (``EFFICIENCY``, 0.68 as Janowski and gnubg take for an ordinary
position), of the dead cube (``pW - (1-p)L``, cubeless) and the fully live cube: a straight
line between the points where the cube is turned (the doubler's cash point
``(L + 1) / (W + L + 1/2)``, where the equity is +1, and the take point
``(L - 1/2) / (W + L + 1/2)``, where it is -1), and beyond the cash point a line on to
``W`` at p = 1: the side too good to double plays on for its gammons.  The three equities
compared (in units of the cube now, for the doubler) are no double (the cube centred or
owned), double/take (the taker owns the doubled cube, a line from its redouble point to
``2W`` at p = 1) and double/pass (+1).  Without gammons this gives a take point of 21.4 %
and an initial double from about 69 %, as the literature has it for x = 0.68.

**Match play**: every outcome (win or lose 1, 2 or 3 times the cube) is priced by its match
winning chance from the Kazaross-XG2 table (``controller.engine.met``), normalised so
that winning the cube's points now is +1 and losing them -1; ``W`` and ``L`` come from those
prices, and the same formulas apply, with the live part dropped where a cube is dead (the
taker who wins the match with the doubled cube gains nothing by redoubling; the doubler who
wins the match with the cube as it is gains nothing by doubling).  No doubling in the
Crawford game; after it the trailer doubles at once (the leader's cube is worth nothing);
the leader's take or free drop then follows from the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from controller.rules.game import Game, Match
from controller.rules.values import Colour, Position

from .met import MatchEquityTable, kazaross_xg2

EFFICIENCY = 0.68
"""Janowski's cube efficiency x for an ordinary position (0: dead cube, 1: fully live)."""
MAX_CUBE = 4096
"""The records' limit (``controller.records.mat_model.MAX_CUBE``): no double past it."""


class Evaluation(Protocol):
    """What the decisions read of an evaluation (``controller.engine.Evaluation``): the side
    to roll's chance to win, and to win and lose at least each point level cubeless."""

    @property
    def win(self) -> float: ...

    @property
    def wins_at_least(self) -> dict[int, float]: ...

    @property
    def losses_at_least(self) -> dict[int, float]: ...


class Evaluator(Protocol):
    """An engine that judges positions (``controller.engine.Engine``)."""

    def evaluate(self, position: Position) -> Evaluation: ...


class CubeAction(Enum):
    """The doubler's proper action with the cube, and what the opponent should answer."""

    NO_CUBE = "no cube access"
    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD = "too good: play on"


@dataclass(frozen=True)
class CubeState:
    """The cube as the player to roll (the would-be doubler) sees it."""

    value: int = 1
    owner: bool | None = None
    """None: centred; True: the doubler owns it; False: the opponent does (no double)."""
    away: tuple[int, int] | None = None
    """In a match: the doubler's and the opponent's points to go; None: money play."""
    crawford: bool = False
    """The Crawford game: no doubling."""
    post_crawford: bool = False
    """A game after the Crawford game."""


@dataclass(frozen=True)
class CubeDecision:
    """The equities compared (for the doubler, in units of the cube now) and the action."""

    action: CubeAction
    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def doubles(self) -> bool:
        """Does the doubler offer the cube?"""
        return self.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS)

    @property
    def takes(self) -> bool:
        """Should the opponent take a double (the doubler gets no more by a take than by a pass)?"""
        return self.double_take <= self.double_pass


@dataclass(frozen=True)
class _Outcomes:
    """The cubeless outcome chances by points (1, 2, 3 times the cube) for the doubler."""

    win: float
    wins: tuple[tuple[int, float], ...]
    losses: tuple[tuple[int, float], ...]


def _outcomes(evaluation: Evaluation) -> _Outcomes:
    """Each outcome's chance: winning exactly 1, 2, 3 ... points cubeless, and losing them."""

    def bands(total: float, at_least: dict[int, float]) -> tuple[tuple[int, float], ...]:
        levels = sorted(at_least)
        chances = [total] + [max(0.0, at_least[level]) for level in levels]
        points = [1] + levels
        return tuple(
            (points[i], max(0.0, chances[i] - (chances[i + 1] if i + 1 < len(chances) else 0.0)))
            for i in range(len(points))
        )

    win = min(1.0, max(0.0, evaluation.win))
    return _Outcomes(win, bands(win, evaluation.wins_at_least), bands(1.0 - win, evaluation.losses_at_least))


def _dead(p: float, w: float, l: float) -> float:
    """Cubeless equity."""
    return p * w - (1.0 - p) * l


def _centred(p: float, w: float, l: float) -> float:
    """Fully live, the cube in the middle: -1 at the take point and +1 at the cash point, a
    straight line between; past either, the side too good plays on for its gammons (a line
    to -L at p = 0, to W at p = 1)."""
    take, cash = (l - 0.5) / (w + l + 0.5), (l + 1.0) / (w + l + 0.5)
    if p >= cash:
        return _past_cash(p, w, cash)
    if p <= take:
        return -l + p * (l - 1.0) / take if take > 0 else -l
    return -1.0 + 2.0 * (p - take) / (cash - take)


def _owned(p: float, w: float, l: float) -> float:
    """Fully live, the doubler owns the cube: from -L at p = 0 to +1 (a cash) at the cash
    point, then on to W at p = 1 (too good, playing on)."""
    cash = (l + 1.0) / (w + l + 0.5)
    return _past_cash(p, w, cash) if p >= cash else p * (w + l + 0.5) - l


def _past_cash(p: float, w: float, cash: float) -> float:
    """Past the cash point: +1 (the cash) at it, W (every game won) at p = 1; above +1 only
    with gammons to play for, which is when a position is too good to double."""
    return 1.0 + (p - cash) * (w - 1.0) / (1.0 - cash) if cash < 1.0 else 1.0


def _taken(p: float, w2: float, l2: float, pass2: float) -> float:
    """Fully live, the opponent owns the doubled cube (values in units of the cube before the
    double): -``pass2`` (a redouble passed) at the redouble point, up to ``w2`` at p = 1."""
    scale = pass2  # the doubled cube's points, in these units (2 in money play)
    ws, ls = w2 / scale, l2 / scale
    redouble = (ls - 0.5) / (ws + ls + 0.5)
    if redouble >= 1.0:
        return -pass2
    return max(-pass2, -pass2 + (p - redouble) * (w2 + pass2) / (1.0 - redouble))


def _averages(outcomes: _Outcomes, price_win: dict[int, float], price_loss: dict[int, float]) -> tuple[float, float]:
    """W and L: the average value of a win and of a loss, by the given prices of each outcome."""
    p = outcomes.win
    w = sum(chance * price_win[k] for k, chance in outcomes.wins) / p if p > 1e-9 else price_win[1]
    l = sum(chance * price_loss[k] for k, chance in outcomes.losses) / (1 - p) if p < 1 - 1e-9 else price_loss[1]
    return w, l


def decide(evaluation: Evaluation, cube: CubeState, efficiency: float = EFFICIENCY,
           table: MatchEquityTable | None = None) -> CubeDecision:
    """The doubler's proper cube action in the position ``evaluation`` judges (for the player
    to roll), and whether the opponent should take (``CubeDecision.takes``)."""
    outcomes = _outcomes(evaluation)
    p, c = outcomes.win, cube.value
    points = sorted({k for k, _ in outcomes.wins} | {k for k, _ in outcomes.losses})
    if cube.away is None:  # money: outcomes priced by points, in units of the cube
        win1 = loss1 = {k: float(k) for k in points}
        win2 = loss2 = {k: 2.0 * k for k in points}
        pass2, live_now, live_taken = 2.0, efficiency, efficiency
    else:
        met = table if table is not None else kazaross_xg2()
        a, b = cube.away
        later = cube.crawford or cube.post_crawford

        def price(k: int) -> float:  # match chance after the doubler wins (k > 0) or loses k points
            return met.mwc(a - k, b, later) if k > 0 else met.mwc(a, b + k, later)

        high, low = price(c), price(-c)
        span = (high - low) / 2.0 if high > low else 1.0
        middle = (high + low) / 2.0

        def unit(m: float) -> float:
            return (m - middle) / span

        win1 = {k: unit(price(k * c)) for k in points}
        loss1 = {k: -unit(price(-k * c)) for k in points}
        win2 = {k: unit(price(2 * k * c)) for k in points}
        loss2 = {k: -unit(price(-2 * k * c)) for k in points}
        pass2 = -unit(price(-2 * c))
        live_now = efficiency if a > c else 0.0  # winning the cube's points now does not end the match
        live_taken = efficiency if b > 2 * c else 0.0  # the taker may still gain by redoubling
    w, l = _averages(outcomes, win1, loss1)
    w2, l2 = _averages(outcomes, win2, loss2)
    live = _owned(p, w, l) if cube.owner else _centred(p, w, l)
    no_double = live_now * live + (1 - live_now) * _dead(p, w, l)
    double_take = live_taken * _taken(p, w2, l2, pass2) + (1 - live_taken) * _dead(p, w2, l2)
    return CubeDecision(_action(cube, no_double, double_take), no_double, double_take)


def _action(cube: CubeState, no_double: float, double_take: float) -> CubeAction:
    """What the doubler does with these equities (double/pass is +1)."""
    if cube.owner is False or cube.crawford or cube.value * 2 > MAX_CUBE:
        return CubeAction.NO_CUBE
    passes = double_take > 1.0
    if cube.post_crawford and cube.away is not None and cube.away[1] == 1 and cube.away[0] > 1 and cube.owner is None:
        return CubeAction.DOUBLE_PASS if passes else CubeAction.DOUBLE_TAKE  # the trailer doubles at once
    if passes:
        return CubeAction.TOO_GOOD if no_double > 1.0 else CubeAction.DOUBLE_PASS
    return CubeAction.DOUBLE_TAKE if double_take > no_double else CubeAction.NO_DOUBLE


def cube_state(game: Game, match: Match, colour: Colour) -> CubeState:
    """The cube of ``game`` (of ``match``) as ``colour``, to roll, sees it."""
    owner = None if game.cube_owner is None else game.cube_owner is colour
    crawford = game.rules.HAS_CUBE and not game.cube_allowed
    if match.length == 0:
        return CubeState(game.cube_value, owner)
    away = (match.length - match.score[colour], match.length - match.score[colour.opponent])
    post = match.crawford_played and not crawford and match.length > 1
    return CubeState(game.cube_value, owner, away, crawford, post)


def cube_action(engine: Evaluator, game: Game, match: Match) -> str:
    """The engine's cube action in ``game`` (of ``match``): for the side to roll when no offer
    stands, ``double`` or ``no double``; for the side answering one, ``take`` or ``drop``."""
    doubler = game.offered_by or game.turn
    if game.offered_by is None and not game.may_double(doubler):
        return "no double"
    decision = decide(engine.evaluate(game.position.with_turn(doubler)), cube_state(game, match, doubler))
    if game.offered_by is not None:
        return "take" if decision.takes else "drop"
    return "double" if decision.doubles else "no double"


def offers(evaluation: Evaluation, cube: CubeState) -> bool:
    """Should the player to roll double?"""
    return decide(evaluation, cube).doubles


def takes(evaluation: Evaluation, cube: CubeState) -> bool:
    """Should the opponent take the double?  ``evaluation`` and ``cube`` are the doubler's
    (the position with the doubler to roll, the cube as before the double)."""
    return decide(evaluation, cube).takes


__all__ = ["EFFICIENCY", "CubeAction", "CubeDecision", "CubeState", "cube_action", "cube_state", "decide", "offers", "takes"]
