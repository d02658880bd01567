"""What the boards seen say of the mover's complete plays, for a held roll's search
(``controller.held``): which plays are an explanation at all, which only when nothing else
is (``strict``), and in which order they are tried.

Every rule here reads evidence a ``Tracker`` kept of the boards it judged (the bar's
counts, blots seen off their points, a hand seen at work, the complete board last seen)
and what the boards since the mover's roll showed (``SinceRoll``).  Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules.reach import MOVER
from .rules.state import OPP, count, mask
from .rules.turn import TurnMap
from .rules.values import BAR, CHECKERS
from .tracking import BoardReading, Tracker

MAX_TRIED = 6
"""Complete plays tried per turn of a run, the fewest of the mover's checkers gone first."""


@dataclass(frozen=True, slots=True)
class SinceRoll:
    """What every board since the mover's roll showed of the opponent's checkers
    (``controller.seen``): a hit takes its blot off its point and onto the bar or pool."""

    standing: int
    """A packed board whose opponent's side holds one checker on each point every board
    since showed held one: a blot there was never taken off, so never hit (unless a hit
    and an entry on that very point both went unseen: tried only when nothing else is)."""
    bar: int
    """The most of the opponent's checkers its bar or pool showed (15 once it was hidden):
    no more than at the start, and a blot hit that is neither there nor in a hand now nor
    back on its point was carried by its owner to another point, not hit and entered."""
    hits: int = 0
    """The most of the opponent's checkers its bar or pool showed from the next player's
    roll to the mover's next (only the mover's play puts them there, and its hand is done
    by then: its hits, not taken back)."""
    off_early: int = CHECKERS
    """The most of the opponent's checkers the boards since the mover's roll showed off their
    points up to ``ROLL_READ`` before the next roll was read: a blot lifted later may be in
    its owner's hand, the roll read late (15: not known)."""
    unseen: int = 0
    """A packed board whose opponent's side holds one checker on each point left since
    and no later than a board that showed several zones changed at once
    (``Seen.left_unseen``): boards went unseen after that blot left, and it may have lain
    on the bar or pool and entered again unseen."""
    never_emptied: int | None = None
    """A packed board whose opponent's side holds one checker on each point no board since
    showed empty with its zone read (``Seen.emptied``): a blot hit there left it, if at
    all, only while a hand hid it; a play hitting blots the boards saw leave goes first."""


class Evidence:
    """The rules a held roll's search applies to the mover's complete boards, for one board
    (``reading``, packed as ``board``) judged from one turn."""

    def __init__(self, turn: Tracker, turn_map: TurnMap, reading: BoardReading, board: int, last_legal: int,
                 since: SinceRoll | None, strict: bool, lenient: bool = False) -> None:
        self.turn, self.map, self.board = turn, turn_map, board
        self.since, self.strict, self.lenient = since, strict, lenient
        """``strict``: the doubtful hits left out too; ``lenient``: only the hits the bar
        showed kept (a hit it never showed is no bar to a play; a blot on every board since
        the roll, off its owner's entry points, is still not hit: ``keeps_hits``)."""
        reach = turn.reach
        # a play the board showed with blots on the bar or pool hit them: a play that leaves
        # them on their points is no explanation (an illegal move making its board looks so)
        self.hit_shown = opponent_bar(last_legal)
        start_bar = opponent_bar(turn_map.start)
        # the most of the opponent's checkers the bar or pool showed since the roll (or shows
        # off their points now, or showed off them before their owner's roll): a play putting
        # more there hit a blot that never reached it
        # (a blot seen off before its owner's roll counts, though the last half second before
        # the roll was read: the hitter's hand taking a blot late looks the same as its owner
        # lifting it, and a hit refused loses the game: trictrac 1031430942)
        self.bar_most = None if since is None else max(
            since.bar, reading.off_points(turn_map.mover.opponent), start_bar, turn.shown.off_seen)
        before = self.before = turn.shown.before_roll
        self.bar_before = 0 if before is None or (before not in turn_map and reach.explain(before) is None) \
            else opponent_bar(before)
        # the mover's play stood complete on the last board before the next roll: a blot still
        # on its point there was hit after the roll only if a board since showed that play, or
        # showed it on the bar or pool before its owner had moved (a hand taking it off late)
        self.done_before = before if before is not None and turn_map.is_complete(before) else None
        last_legal = self.last_legal = last_shown(turn, turn_map, last_legal)
        """The complete board last seen (else the state the board last showed)."""
        # the play stood part made on the board, or a hand was last seen at work on a part of it
        # (9/3 made, 17 in the hand): its ends come first (18/17 seen, then the board one turn on,
        # equally 20/19 then 19/17 or 18/17 then 20/18: it was 18/17)
        part = turn.lifted_seen[0] if turn.lifted_seen is not None else last_legal
        self.part_made = reach.complete.reachable_from(part) if part != turn_map.start and not turn_map.is_complete(part) \
            else frozenset()
        self.held_from = turn.lifted_evidence()
        self.hits_seen = 0 if since is None else since.hits
        """The most of the opponent's checkers the bar or pool showed from the next player's
        roll to the mover's next (a turn begun from a held roll judged only the boards since)."""
        self.off_shown = max(reading.off_points(turn_map.mover.opponent), turn.shown.bar_seen, self.hits_seen)
        """The most of the opponent's checkers seen off their points: in a hand or on the bar
        or pool now, on the bar or pool on a board this turn judged, or hit since the roll."""

    def late_hit(self, key: int) -> bool:
        """Does ``key`` hit a blot still on its point with the play complete before the next
        roll, no board since showing that play, nor the blot on the bar or pool before its
        owner moved on?  (A hand may take it late; its owner may as well have moved it.)"""
        done, turn = self.done_before, self.turn
        return (done is not None and key != turn.complete_seen and key & MOVER == done & MOVER
                and turn.reach.standing_hits(key, done) > 0
                and max(turn.shown.bar_unmoved, self.hits_seen) < opponent_bar(key))

    def moved_not_hit(self, key: int) -> bool:
        """More blots ``key`` hits than the bar or pool ever showed (or showed off their
        points before their owner's roll: a hitter's hand takes them then), and one of them
        gone from its point with no hitter standing there: that one moved, not hit (another
        hit the bar showed does not make it a hit)."""
        return (self.bar_most is not None and opponent_bar(key) > self.bar_most
                and self.turn.reach.hits_moved(key, self.board, self.since.unseen))  # type: ignore[union-attr]

    def keeps_shown(self, key: int) -> bool:
        """Does ``key`` hit every blot the bar or pool showed hit?"""
        hits = opponent_bar(key)
        if hits < self.hit_shown:
            return False
        # (the bar showed a blot hit before the next roll that this play leaves standing?)
        return not self.bar_before or hits - self.turn.reach.standing_hits(key, self.before) >= self.bar_before  # type: ignore[arg-type]

    def keeps_hits(self, key: int) -> bool:
        """Is ``key`` an explanation at all (and, ``strict``, before any other)?"""
        if not self.keeps_shown(key) or (not self.lenient and self.moved_not_hit(key)):
            return False
        # a blot every board since showed on its point, off the points its owner enters on,
        # was not hit (a hit and an entry on that very point might both go unseen, but not a
        # hit there and another checker come: an illegal move looks so, rally-hitting
        # 1030330909: Black's 18 to 20 read as White's 16/12*/6, Black's pool/20 18/12)
        # (so even when nothing else explains the board: the stateful hands test, rally-hitting,
        # White's illegal 24/23 read as pool/24 23/18* over Black's blot on 18 that stood on
        # every board, Black's 2-5 entering and hitting back, both rolls thrown over it)
        since = self.since
        beyond_entry = _BEYOND_ENTRY[self.map.rules.MIRRORED]
        if since is not None and self.turn.reach.hits_standing(key, since.standing & beyond_entry):
            return False
        # first the plays hitting as many as the bar or pool has shown (only the mover hits
        # them there; a hit taken back is rarer), no blot that never left its point, and no
        # late hit no board showed
        return not self.strict or (opponent_bar(key) >= self.turn.shown.hit_bar and not self.late_hit(key)
                                   and (since is None or not self.turn.reach.hits_standing(key, since.standing)))

    def doubtful(self, key: int) -> bool:
        """A play ruled out only for a hit the bar never showed or a late hit no board showed:
        while it explains a board as well, a hand at work there decides nothing."""
        return not self.keeps_hits(key) and self.keeps_shown(key) and (self.moved_not_hit(key) or self.late_hit(key))

    def moves_held(self, key: int) -> bool:
        """Does ``key``'s play move on the checkers last seen in a hand (before the mover
        rolled again)?"""
        if not self.held_from:
            return True
        mover = self.map.sides_of(key)[0]
        return all(mover[point] <= most for point, most in self.held_from)

    def shown_first(self, keys: list[int]) -> list[int]:
        """``keys`` with the plays the board showed first: the mover's side seen whole (the
        opponent's side wrong), then the ends of the play seen part made, then the plays
        that hit as many as the bar or pool has shown (a blot taken off before its hitter),
        then the plays whose hits the boards saw leave their points (a zone read empty, not
        hidden: rally-hitting 1351440542 at 8x, White's pool/24*/20 with the 24 blot taken
        off first in full view, read as pool/21*/20 over a blot on 21 only hidden a moment),
        then the plays moving on the checkers last seen in a hand before the mover rolled
        again (``Tracker.lifted_evidence``), then the play first seen whole with a checker
        in a hand after the mover rolled again (``Tracker.complete_after``); among equals
        the play that began the run last found (``Tracker.run_seen``: a board a hand keeps
        changing follows that run, and a search cut short by its budget tries it first)."""
        turn = self.turn
        side, bar_shown = turn.side_seen, turn.shown.bar_seen
        hidden = None if self.since is None else self.since.never_emptied
        return sorted(keys, key=lambda key: (side is not None and key & MOVER != side, key not in self.part_made,
                                             opponent_bar(key) < bar_shown,
                                             hidden is not None and turn.reach.hits_standing(key, hidden),
                                             not self.moves_held(key), key != turn.complete_after,
                                             key != turn.run_seen))

    def unshown_hit(self, key: int) -> bool:
        """With a complete board seen: does ``key`` go the same way and hit a blot that play
        only passed, the board never having shown that blot on its bar or pool, nor in a hand?
        (A blot carried straight from its point to another is a move, not a hit and an entry,
        however far on the board is.)"""
        last_legal, turn, before = self.last_legal, self.turn, self.before
        reach, bar = turn.reach, self.off_shown
        if self.lenient or not self.map.is_complete(last_legal):
            return False  # no complete board was seen: no hit is ruled out for want of its blot on the bar
        if (key != last_legal and key & MOVER == last_legal & MOVER
                and opponent_bar(key) <= opponent_bar(last_legal) <= turn.shown.bar_seen
                and reach.hits_standing(key, last_legal)):
            # the play seen complete with its blots on the bar or pool in view, and another of
            # the same checkers hitting a blot it left standing: the blots hit were those seen
            # (trictrac 1611448342 at 3x, serial: 9/8*/4* seen with both blots on the bar, read
            # as 9/5*/4* once Black's hand lifted its 5 after its roll, the game lost; a blot
            # seen only in a hand may be its owner's: test_held's 6/5*/1 for 6/2*/1)
            return True
        # (a play hitting no more than the one seen hit no blot that one passed: 6/5*/1
        # for 6/2*/1, each over a blot)
        if key & MOVER != last_legal & MOVER or opponent_bar(key) <= (
                bar if key == last_legal else max(bar, opponent_bar(last_legal))):
            return False
        # never on the bar at once: hit only if the board showed that many off their
        # points (on the bar, in a hand), and none of them stands on its point again
        # (those still on their points on the last board before the next roll were hit
        # after it, if at all: no board showed them off before the roll)
        # (a blot the last board before its owner's roll showed off its point, back on it
        # since, entered there)
        unseeable = 0 if before is None or key != turn.complete_seen else reach.standing_hits(key, before)
        return opponent_bar(key) - unseeable > turn.shown.off_seen or (
            reach.hits_standing(key, self.board) and not (before is not None and reach.hits_back(key, self.board, before)))

    def near(self, finished: list[int]) -> list[int]:
        """The complete boards of ``finished`` (the plays the board may show as they were left)
        to try, in order: the complete board last seen first of all."""
        near = self.shown_first([key for key in finished if self.keeps_hits(key)])[:MAX_TRIED]
        last_legal = self.last_legal
        if not self.map.is_complete(last_legal):
            return near
        seen = last_legal & MOVER
        alike = [key for key in near if key != last_legal and key & MOVER == seen and not self.unshown_hit(key)]
        # (a blot off its point only just before the roll was read may be in its owner's
        # hand: serial rally-hitting 1040331209, pool/21/16 read as pool/20*/16)
        early = CHECKERS if self.since is None else self.since.off_early
        off_before = max(0 if self.before is None else min(_opponent_off(self.before), early), self.hits_seen)
        first = [last_legal]
        if self.unshown_hit(last_legal) and alike:
            # and the other way round: a hit the board never showed on the bar or pool, its
            # blot back on its point (only lifted: the next player's hand, not the hitter's)
            # is the play that passed it (8/4/1 over 8/5*/1, the blot lifted and put back)
            first = [alike[0], last_legal]
        elif opponent_bar(last_legal) < off_before:
            # the last board before the next player's roll showed a blot off its point that
            # this play leaves standing, or the bar or pool showed more hit than it makes:
            # shown whole since, the blot was back (its owner entering on that very point),
            # and the play hitting it comes first
            hitting = [key for key in alike if opponent_bar(key) >= off_before]
            first = hitting[:1] + first
        return first + [key for key in near if key not in first and not self.unshown_hit(key)]


_BEYOND_ENTRY = {
    mirrored: mask([OPP + point for point in range(1, BAR) if point not in (range(1, 7) if mirrored else range(19, 25))])
    for mirrored in (False, True)
}
"""By whether the sides are mirrored: the opponent's fields of the mover's points its hit
checkers do not enter on (the mover's home points when mirrored, else the points 19-24
both sides number alike)."""


def last_shown(turn: Tracker, turn_map: TurnMap, last_legal: int) -> int:
    """The complete board last seen: ``last_legal`` when it is one, else the tracker's
    ``complete_seen`` (the board went back since: a hit undoing the play), else
    ``last_legal`` (no complete board seen)."""
    if not turn_map.is_complete(last_legal) and turn.complete_seen is not None:
        return turn.complete_seen
    return last_legal


def opponent_bar(key: int) -> int:
    """The opponent's checkers on the bar (or in the pool) in a packed board."""
    return count(key, OPP + BAR)


def _opponent_off(key: int) -> int:
    """The opponent's checkers off their points in a packed board: on the bar (or in the
    pool), or in a hand (missing)."""
    on_board = sum(count(key, OPP + field) for field in range(BAR + 1))
    return count(key, OPP + BAR) + max(CHECKERS - on_board, 0)
