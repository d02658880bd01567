"""Recovery (issue 8): a wrong board that has stood its grace time with the next roll held,
whose mover's side shows a complete play, is the next player's wrong move after the mover
finished; the mover's play is recorded and the warning goes to the next player.  The pure
part (``controller.recovery``) against the turn maps, and the scene found at 20x."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_kit import B, W, opened
from strategies import turns

from controller.machine import Phase
from controller.recovery import finished_by_side
from controller.rules.values import BAR
from controller.tracking import BoardReading, Tracker
from hal.interfaces import Button


def hit_since(done: tuple[int, ...], now: tuple[int, ...]) -> int | None:
    """The oracle: how many of side ``done``'s blots side ``now`` shows hit since (on the bar
    or pool, all else the same); None when ``now`` is not ``done`` so changed."""
    hits = 0
    for point in range(1, BAR):
        if now[point] != done[point]:
            if done[point] != 1 or now[point] != 0:
                return None
            hits += 1
    return hits if now[0] == done[0] and now[BAR] == done[BAR] + hits else None


def reading_of(turn_map, key: int, hits: tuple[int, ...] = ()) -> BoardReading:  # type: ignore[no-untyped-def]
    """The board of complete board ``key`` (the mover's blots on ``hits`` since sent to the
    bar or pool), as the board reader gives it."""
    mine, theirs = (list(side) for side in turn_map.sides_of(key))
    for point in hits:
        mine[point] -= 1
        mine[BAR] += 1
    sides = {turn_map.mover: tuple(mine), turn_map.mover.opponent: tuple(theirs)}
    return BoardReading(sides[W], sides[B])


@settings(max_examples=60, deadline=None)
@given(turns(), st.data())
def test_the_complete_play_a_side_shows_is_found_blots_hit_or_not(turn, data) -> None:  # type: ignore[no-untyped-def]
    """Every complete board of a turn read back (some of the mover's blots hit since) gives
    that complete board when no other fits, else none; a board whose mover's side no complete
    play has gives none."""
    turn_map = turn[3]
    tracker = Tracker(turn_map)
    ends = list(turn_map.complete_keys())
    if not ends:
        return
    key = data.draw(st.sampled_from(ends))
    mine, theirs = turn_map.sides_of(key)
    blots = [p for p in range(1, BAR) if mine[p] == 1]
    hits = tuple(data.draw(st.lists(st.sampled_from(blots), unique=True, max_size=2))) if blots else ()
    reading = reading_of(turn_map, key, hits)
    found = finished_by_side(tracker, reading)
    if reading.side(turn_map.mover) == turn_map.sides_of(turn_map.start)[0]:
        assert found is None  # the play's checkers all hit back (or no move): nothing shown
        return
    fitting = [k for k in ends if hit_since(turn_map.sides_of(k)[0], reading.side(turn_map.mover)) is not None]
    assert key in fitting
    if len(fitting) == 1:
        assert found == key
    else:  # plays to the same side, hitting different blots, or sides the same hits make alike
        assert found is None
    if found is not None:
        assert hit_since(turn_map.sides_of(found)[0], reading.side(turn_map.mover)) == len(hits)
    # one of the mover's checkers put back where it started: no complete play shows that side
    # (unless it is a blot back on the bar, as if hit)
    start = turn_map.sides_of(turn_map.start)[0]
    if mine != start and not hits:
        moved = [p for p in range(len(mine)) if mine[p] > start[p]]
        back = [p for p in range(len(mine)) if mine[p] < start[p]]
        wrong = list(mine)
        wrong[moved[0]] -= 1
        wrong[back[0]] += 1
        if not any(hit_since(turn_map.sides_of(k)[0], tuple(wrong)) is not None for k in ends):
            other = {turn_map.mover: tuple(wrong), turn_map.mover.opponent: theirs}
            assert finished_by_side(tracker, BoardReading(other[W], other[B])) is None


def test_the_oracle_counts_blots_on_the_bar_and_nothing_else() -> None:
    done = (0,) * 6 + (5, 1, 3) + (0,) * 4 + (5,) + (0,) * 10 + (1, 0)
    hit = list(done)
    hit[7], hit[BAR] = 0, 1
    assert hit_since(done, done) == 0
    assert hit_since(done, tuple(hit)) == 1
    moved = list(done)
    moved[7], moved[6] = 0, 6  # the blot moved on: no hit
    assert hit_since(done, tuple(moved)) is None
    stack = list(done)
    stack[8], stack[BAR] = 2, 1  # a checker of a stack on the bar: no blot hit
    assert hit_since(done, tuple(stack)) is None


def test_the_next_players_wrong_move_after_a_play_put_right_is_warned_as_its_own() -> None:
    """Found at 20x a person's pace (trictrac 510000148, noise 7.5, a wrong move tried every
    turn): Black's wrong 24 to 7 was warned; White threw 6-1 at once; Black put it right and
    played 13/8 24/23, and White hit with 8/2* and tried a wrong 13/5, all before the board
    settled.  Black was warned again, its play never recorded and the game lost for good.
    Now Black's play is recorded, White alone is warned, and White's play once put right."""
    s = opened(dice=(3, 1))  # White's 8/5 6/5
    s.move(s.zone(W, 8), s.zone(W, 5), W)
    s.move(s.zone(W, 6), s.zone(W, 5), W)
    s.press(Button.DONE)
    s.throw(5, 1)
    assert s.message.startswith("Black to play"), s.message
    s.move(s.zone(B, 24), s.zone(B, 7), B)  # wrong: 17 pips with 5-1
    s.advance(1.5)
    assert s.warnings() == 1, s.message
    s.throw(6, 1)  # White throws while the warning stands
    quick = 0.02
    s.move(s.zone(B, 7), s.zone(B, 24), B, settle=quick)  # put right
    s.move(s.zone(B, 13), s.zone(B, 8), B, settle=quick)
    s.move(s.zone(B, 24), s.zone(B, 23), B, settle=quick)
    s.move(s.zone(W, 2), s.zone(B, BAR), B, settle=quick)  # White's hand takes the blot on its 2
    s.move(s.zone(W, 8), s.zone(W, 2), W, settle=quick)  # 8/2*
    s.move(s.zone(W, 13), s.zone(W, 5), W, settle=quick)  # wrong: 8 pips with the 1 left
    s.advance(1.4)  # the grace time (1 s) and a little: White warned at once, not a grace time later
    black = [e for e in s.entries("turn") if e["colour"] == "black"]
    assert [e["play"] for e in black] == ["13/8 24/23"], black
    assert s.warnings() == 2 and s.controller.game.turn is W, s.message
    s.move(s.zone(W, 5), s.zone(W, 13), W)
    s.move(s.zone(W, 6), s.zone(W, 5), W)
    s.advance(1.5)
    s.press(Button.DONE)
    assert s.phase is Phase.AWAIT_ROLL, s.phase
    white = [e["play"] for e in s.entries("turn") if e["colour"] == "white"]
    assert white == ["8/5 6/5", "8/2* 6/5"], white
