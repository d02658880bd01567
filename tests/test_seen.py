"""What the board has shown (``controller.seen.Seen``): the last snapshot, and which points
held a colour's checker on every board since a time."""

from __future__ import annotations

from controller.rules.registry import get_rule_set
from controller.rules.values import Colour, Position
from controller.seen import Seen
from controller.tracking import BoardReader, BoardReading
from hal.interfaces import BoardSnapshot, ZoneReading

RULES = get_rule_set("backgammon")
READER = BoardReader(RULES, RULES.geometry(None))
START = Position.from_counts({7: 1, 13: 5, 8: 3, 6: 6}, {22: 1, 21: 2, 13: 4, 8: 3, 6: 5})


def _without(reading: BoardReading, colour: Colour, point: int, hidden: tuple[str, ...] = ()) -> BoardReading:
    side = list(reading.side(colour))
    side[point] = 0
    white, black = (tuple(side), reading.black) if colour is Colour.WHITE else (reading.white, tuple(side))
    return BoardReading(white, black, hidden)


def test_a_point_left_or_hidden_since_a_time_no_longer_stands() -> None:
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 2.0)  # the blot lifted
    seen.note(snapshot, _without(reading, Colour.BLACK, 21, hidden=("IV",)), 3.0)  # a zone hidden
    seen.note(snapshot, reading, 4.0)
    assert seen.snapshot is snapshot
    def left(colour: Colour, since: float) -> set[int]:
        held = START.side(colour)
        return {point for point, count in enumerate(seen.standing(colour, since)) if 0 < point < 25 and held[point]
                and not count}

    assert left(Colour.BLACK, 0.5) == {22, 21}  # 22 lifted, 21 hidden; the rest stood
    assert left(Colour.BLACK, 2.5) == {21}
    assert left(Colour.BLACK, 3.5) == set()
    assert left(Colour.WHITE, 0.5) == set()
    white = seen.standing(Colour.WHITE, 0.5)
    assert white[0] == white[25] == 0


def test_a_checker_that_came_to_an_empty_point_and_stood_there_never_left_it() -> None:
    """A blot that arrives after the roll and stands was not hit: its point being empty
    before it came is no sign of a hit (backgammon 870626118: White's 24/22 came just
    before Black's turn, and Black's 6/5/2 past it was read as 6/3*/2)."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 1.0)  # the point empty
    seen.note(snapshot, reading, 2.0)  # the blot arrives
    seen.note(snapshot, reading, 3.0)
    assert seen.standing(Colour.BLACK, 0.5)[22] == 1


def test_a_point_no_board_since_showed_holding_a_checker_does_not_stand() -> None:
    """Rally-hitting 1010030301 (illegal 1.0): Black's blot moved off its point illegally
    before White's roll, put back and hit between two boards; every board since the roll
    showed the point empty, so nothing says the blot stood there unhit (the hit, pool/19*/14,
    was read as pool/20/14)."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 2.0)  # carried off before the roll
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 3.0)  # (back and hit unseen)
    assert seen.standing(Colour.BLACK, 2.5)[22] == 0
    assert seen.standing(Colour.BLACK, 2.5)[21] == 1  # never left
    assert seen.standing(Colour.BLACK, 2.5)[5] == 0  # never held one: no blot stood there


def test_the_most_a_bar_showed_since_a_time_counts_a_hidden_bar_as_holding_every_checker_unseen() -> None:
    """A hidden bar or pool may hold every checker of its colour not seen elsewhere: not 15
    (a dropout over a pool of eleven made any hit shown: rally-hitting 1250537516)."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    assert seen.bar_shown(Colour.BLACK, 0.0) == 0  # no board yet
    seen.note(snapshot, reading, 1.0)
    black = list(reading.black)
    black[22], black[25] = 0, 1
    seen.note(snapshot, BoardReading(reading.white, tuple(black)), 2.0)  # the blot on the bar
    seen.note(snapshot, reading, 3.0)
    assert seen.bar_shown(Colour.BLACK, 0.5) == 1
    assert seen.bar_shown(Colour.BLACK, 2.5) == 0
    assert seen.bar_shown(Colour.WHITE, 0.5) == 0
    seen.note(snapshot, BoardReading(reading.white, reading.black, ("wait-white",)), 4.0)
    assert seen.bar_shown(Colour.WHITE, 3.5) == 0  # hidden, every white checker seen elsewhere
    white = list(reading.white)
    white[6] -= 2  # two in a hand
    seen.note(snapshot, BoardReading(tuple(white), reading.black, ("wait-white",)), 5.0)
    assert seen.bar_shown(Colour.WHITE, 4.5) == 2  # hidden: it may hold those two
    assert seen.bar_shown(Colour.BLACK, 3.5) == 0


def test_a_point_left_before_a_board_with_several_zones_changed_at_once_may_hide_a_bar_visit() -> None:
    """Rally-hitting 871026130 (noise 7.5): a blot hit, laid on its pool and entered again,
    none of it on a board that stood (the sensors kept miscounting), and the board after
    differed in four zones from the one before.  One hand action changes one zone; three or
    more at once (readable on both boards) mark changes unseen between, and a blot gone from
    its point no later than that may have visited its bar or pool unseen (``left_unseen``);
    one gone after it may not (rally-hitting 750622518: a jump elsewhere before White lifted
    its own blot excused an illegal move as that blot hit and entered)."""
    seen = Seen()
    snapshot = READER.snapshot_of(START)
    zones = snapshot.as_dict()
    seen.note(snapshot, READER.read(snapshot), 1.0)

    def unseen(since: float) -> set[int]:
        return {point for point, flag in enumerate(seen.left_unseen(Colour.BLACK, since)) if flag}

    blot = READER.zone_of(Colour.BLACK, 22)
    gone = dict(zones)
    gone[blot] = ZoneReading(0, 0)  # Black's blot lifted: one zone
    board = BoardSnapshot.from_zones(gone)
    seen.note(board, READER.read(board), 2.0)
    assert unseen(0.5) == set()
    moved = dict(gone)
    moved[READER.zone_of(Colour.WHITE, 13)] = ZoneReading(4, 0)
    moved[READER.zone_of(Colour.WHITE, 9)] = ZoneReading(1, 0)
    two = BoardSnapshot.from_zones(moved)
    seen.note(two, READER.read(two), 3.0)
    assert unseen(0.5) == set()  # two zones: a checker carried, its lift and put-down unseen
    hidden = dict(moved)
    for point in (7, 8, 6):
        hidden[READER.zone_of(Colour.WHITE, point)] = None
    dropout = BoardSnapshot.from_zones(hidden)
    seen.note(dropout, READER.read(dropout), 4.0)
    assert unseen(0.5) == set()  # zones hidden are no change seen
    jump = dict(moved)
    jump[READER.zone_of(Colour.WHITE, 13)] = ZoneReading(3, 0)
    jump[READER.zone_of(Colour.WHITE, 9)] = ZoneReading(0, 0)
    jump[READER.zone_of(Colour.WHITE, 10)] = ZoneReading(2, 0)
    board = BoardSnapshot.from_zones(jump)
    seen.note(board, READER.read(board), 5.0)
    assert unseen(0.5) == {22} and unseen(2.5) == set()  # left at 2.0, before the jump at 5.0
    assert seen.jumped_since(4.5) and not seen.jumped_since(5.5)
    # (left only after its owner's roll was read, at 1.5: its owner's to move, no unseen visit)
    assert not any(seen.left_unseen(Colour.BLACK, 0.5, until=1.5)) and seen.left_unseen(Colour.BLACK, 0.5, 2.5)[22]
    again = dict(jump)
    again[READER.zone_of(Colour.BLACK, 21)] = ZoneReading(0, 1)  # another blot lifted after it
    board = BoardSnapshot.from_zones(again)
    seen.note(board, READER.read(board), 6.0)
    assert unseen(0.5) == {22}


def test_a_point_read_empty_is_emptied_a_hidden_one_is_not() -> None:
    """``Seen.never_emptied``: the points no board since a time read empty of a colour's
    checkers after one with some; a zone only hidden was not read (a play hitting blots
    the boards saw leave is tried before one hitting a blot only hidden a moment:
    rally-hitting 1351440542 at 8x)."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 2.0)  # the blot lifted in full view
    zone = READER.zone_of(Colour.BLACK, 21)
    hidden = _without(reading, Colour.BLACK, 21, hidden=(zone,))
    seen.note(snapshot, BoardReading(hidden.white, hidden.black, hidden.unreadable, hidden_black=(21,)), 3.0)
    seen.note(snapshot, reading, 4.0)
    never = seen.never_emptied(Colour.BLACK, 1.5)
    assert never[22] == 0 and never[21] == 1 and never[13] == 1 and never[0] == never[25] == 0
    assert seen.hits_shown(1.5).left[1] >> 21 & 1  # (left or hidden: a hit may have been)
    assert seen.never_emptied(Colour.BLACK, 2.5)[22] == 1  # not since then


def test_checkers_put_down_from_hands_at_once_are_no_boards_gone_unseen() -> None:
    """Hands putting lifted checkers back on several points in one board change several
    zones, but no move went unseen: only the zones changed beyond the checkers put down
    count (the stateful hands test, rally-hitting: everything lifted put back in one board
    with White's 18/16 was taken for boards gone unseen, and any hit for one that may
    have been)."""
    seen = Seen()
    snapshot = READER.snapshot_of(START)
    zones = snapshot.as_dict()
    seen.note(snapshot, READER.read(snapshot), 1.0)
    lifted = dict(zones)
    for point in (13, 8, 6):
        counts = zones[READER.zone_of(Colour.WHITE, point)]
        lifted[READER.zone_of(Colour.WHITE, point)] = ZoneReading(counts.white - 1, counts.black)
    board = BoardSnapshot.from_zones(lifted)
    seen.note(board, READER.read(board), 2.0)
    assert seen.jumped_since(1.5)  # three checkers gone at once: lifted unseen one by one
    moved = dict(zones)  # all three put back, and a fourth checker moved: four zones changed
    moved[READER.zone_of(Colour.WHITE, 7)] = ZoneReading(0, 0)  # 7/5
    counts = zones[READER.zone_of(Colour.WHITE, 5)]
    moved[READER.zone_of(Colour.WHITE, 5)] = ZoneReading(counts.white + 1, counts.black)
    board = BoardSnapshot.from_zones(moved)
    seen.note(board, READER.read(board), 3.0)
    assert not seen.jumped_since(2.5)  # five zones changed, three checkers put down: one move


def test_the_points_read_empty_between_two_times_count_neither_hidden_zones_nor_points_filled_again() -> None:
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 2.0)  # the blot lifted: read empty
    seen.note(snapshot, reading, 2.5)  # and put back
    hidden = _without(reading, Colour.BLACK, 21)
    seen.note(snapshot, BoardReading(hidden.white, hidden.black, hidden_black=(21,)), 3.0)  # hidden: not read
    seen.note(snapshot, reading, 3.5)
    seen.note(snapshot, _without(reading, Colour.BLACK, 13), 4.0)

    def emptied(since: float, until: float) -> set[int]:
        bits = seen.emptied_between(Colour.BLACK, since, until)
        return {point for point in range(1, 25) if bits >> point & 1}

    assert emptied(0.0, 10.0) == {13}  # (22 shown again since)
    assert emptied(1.5, 2.4) == {22}
    assert emptied(1.5, 3.9) == set()
    assert emptied(2.1, 3.9) == set()
    assert emptied(3.9, 4.0) == {13}
    assert seen.emptied_between(Colour.WHITE, 0.0, 10.0) == 0


def test_the_points_held_through_a_time_are_those_every_board_standing_then_read_holding_some() -> None:
    """``Seen.holding_through``: the boards standing from one time to another, a hidden point not read holding
    (rally-hitting 1942658278: White's blot on 24 hidden a moment and read there again before
    White's roll was not hit by Black's turn before it)."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    hidden = _without(reading, Colour.BLACK, 21)
    seen.note(snapshot, BoardReading(hidden.white, hidden.black, hidden_black=(21,)), 2.0)  # hidden
    seen.note(snapshot, reading, 2.5)  # read holding again
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 3.0)  # the blot lifted

    def holding(until: float, since: float | None = None) -> set[int]:
        bits = seen.holding_through(Colour.BLACK, until if since is None else since, until)
        return {point for point in range(1, 25) if bits >> point & 1}

    whole = {point for point in range(1, 25) if reading.black[point]}
    assert 21 in whole and 22 in whole
    assert holding(0.5) == set()  # no board yet
    assert holding(1.0) == holding(1.9) == whole
    assert holding(2.2) == whole - {21}
    assert holding(2.7) == whole
    assert holding(9.0) == whole - {22}
    assert holding(2.7, since=1.5) == whole - {21}  # hidden a moment between
    assert holding(3.5, since=2.7) == whole - {22}


def test_a_point_read_empty_after_a_dropout_over_it_was_emptied() -> None:
    """A point read holding some, then hidden, then read empty: it was emptied (the boards
    that read it say so, whatever dropouts came between).  Rally-hitting 373911218 (blots
    handed over): Black's blot on 15 lifted under a dropout over its zone, read empty the
    next board, was no blot gone before Black's roll, and White's 20/15*/12 was read
    20/17/12, a false warning."""
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    zone = READER.zone_of(Colour.BLACK, 22)
    hidden = _without(reading, Colour.BLACK, 22, hidden=(zone,))
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, BoardReading(hidden.white, hidden.black, hidden.unreadable, hidden_black=(22,)), 2.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 3.0)  # read: empty
    assert seen.emptied_between(Colour.BLACK, 2.5, 3.5) >> 22 & 1
    assert seen.never_emptied(Colour.BLACK, 2.5)[22] == 0
    seen.note(snapshot, BoardReading(hidden.white, hidden.black, hidden.unreadable, hidden_black=(22,)), 4.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 5.0)  # empty before and after: not emptied again
    assert not seen.emptied_between(Colour.BLACK, 3.5, 5.5) >> 22 & 1
