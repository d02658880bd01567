"""Recovery from a wrong board that has stood its grace time with the next roll held: the
nearest legal explanation before the board is guided back.

Fast hands make boards no held roll's search explains: the mover puts a warned move right
and finishes while the next player, who threw at once, is already making a wrong move of
its own.  The mover's side then shows a complete play (its blots perhaps hit since) and
the wrong part is the next player's.  Pure: a turn's tracker and a board reading in, a
complete board out.
"""

from __future__ import annotations

from .rules.values import CHECKERS
from .tracking import BoardReading, Tracker


def finished_by_side(turn: Tracker, reading: BoardReading) -> int | None:
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
    now = reading.side(turn.mover)
    if sum(now) != CHECKERS:
        return None  # a checker of the mover's in a hand: its play may not be done
    if now == turn.map.sides_of(turn.map.start)[0]:
        return None  # nothing of the play shown: a play entering only blots hit since is no explanation
    # with every checker of the mover's on the board, the complete boards it may have come
    # from with only its blots gone since are those whose blots the next player hit, on the
    # bar or pool now (``CompleteBoards.finished_before``: none moved on by the mover later)
    found = turn.reach.complete.finished_before(turn.key(reading), CHECKERS, mover_later=False)
    return found[0] if len(found) == 1 else None


__all__ = ["finished_by_side"]
