"""What the board has shown (``controller.seen.Seen``): the last snapshot, and which points
held a colour's checker on every board since a time."""

from __future__ import annotations

from controller.rules.registry import get_rule_set
from controller.rules.values import Colour, Position
from controller.seen import Seen
from controller.tracking import BoardReader, BoardReading

RULES = get_rule_set("backgammon")
READER = BoardReader(RULES, RULES.geometry(None))
START = Position.from_counts({7: 1, 13: 5, 8: 3, 6: 6}, {22: 1, 21: 2, 13: 4, 8: 3, 6: 5})


def _without(reading: BoardReading, colour: Colour, point: int, hidden: tuple[str, ...] = ()) -> BoardReading:
    side = list(reading.side(colour))
    side[point] = 0
    white, black = (tuple(side), reading.black) if colour is Colour.WHITE else (reading.white, tuple(side))
    return BoardReading(white, black, hidden)


def test_a_point_holding_its_checkers_on_every_board_since_stands() -> None:
    seen = Seen()
    reading = READER.position_reading(START)
    snapshot = READER.snapshot_of(START)
    seen.note(snapshot, reading, 1.0)
    seen.note(snapshot, _without(reading, Colour.BLACK, 22), 2.0)  # the blot lifted
    seen.note(snapshot, _without(reading, Colour.BLACK, 21, hidden=("IV",)), 3.0)  # a zone hidden
    seen.note(snapshot, reading, 4.0)
    assert seen.snapshot is snapshot
    black = seen.standing(Colour.BLACK, 0.5)
    held = {point for point, count in enumerate(black) if count}
    assert held == {13, 8, 6}  # 22 lifted, 21 hidden, the rest never held a black checker
    assert {point for point, count in enumerate(seen.standing(Colour.BLACK, 2.5)) if count} == {22, 13, 8, 6}
    assert {point for point, count in enumerate(seen.standing(Colour.BLACK, 3.5)) if count} == {22, 21, 13, 8, 6}
    white = seen.standing(Colour.WHITE, 0.5)
    assert {point for point, count in enumerate(white) if count} == {7, 13, 8, 6}
    assert white[0] == white[25] == 0


def test_the_most_a_bar_showed_since_a_time_counts_a_hidden_bar_as_full() -> None:
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
    assert seen.bar_shown(Colour.WHITE, 3.5) == 15  # hidden: it may have held any
    assert seen.bar_shown(Colour.BLACK, 3.5) == 0
