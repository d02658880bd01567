"""Recovery from a wrong board that has stood its grace time with the next roll held: the
nearest legal explanation before the board is guided back.

Fast hands make boards no held roll's search explains: the mover puts a warned move right
and finishes while the next player, who threw at once, is already making a wrong move of
its own.  The mover's side then shows a complete play (its blots perhaps hit since) and
the wrong part is the next player's.  Pure: a turn map and a board reading in, a complete
board out.
"""

from __future__ import annotations

from .rules.turn import TurnMap
from .rules.values import BAR, CHECKERS, Colour
from .tracking import BoardReading


def hit_since(done: tuple[int, ...], now: tuple[int, ...]) -> int | None:
    """How many of side ``done``'s blots side ``now`` shows hit since (on the bar or pool,
    all else the same); None when ``now`` is not ``done`` so changed."""
    hits = 0
    for point in range(1, BAR):
        if now[point] != done[point]:
            if done[point] != 1 or now[point] != 0:
                return None
            hits += 1
    return hits if now[0] == done[0] and now[BAR] == done[BAR] + hits else None


def finished_by_side(turn_map: TurnMap, reading: BoardReading, mover: Colour) -> int | None:
    """The one complete board whose mover's side ``reading`` shows (its blots perhaps hit
    since by the next player), every zone read, every checker of the mover's on the board and
    its side not as the turn began (a play whose every checker was hit back shows nothing);
    None when there is none or more than one: plays to the same side hitting different blots
    on the way, or sides the same hits make alike.  The next player's hand has been at work on
    its own checkers, so neither their side nor the boards before tell which blots the mover
    hit (rally-hitting 1250537516: White's 21/15* pool/21, Black lifting its blot on White's
    19 for its own 1-3, would have been taken for pool/19*/15*)."""
    if reading.unreadable or reading.mixed or reading.overfull or reading.foreign:
        return None
    now = reading.side(mover)
    if sum(now) != CHECKERS:
        return None  # a checker of the mover's in a hand: its play may not be done
    if now == turn_map.sides_of(turn_map.start)[0]:
        return None  # nothing of the play shown: a play entering only blots hit since is no explanation
    found = [key for key in turn_map.complete_keys() if hit_since(turn_map.sides_of(key)[0], now) is not None]
    return found[0] if len(found) == 1 else None


__all__ = ["finished_by_side", "hit_since"]
