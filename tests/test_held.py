"""Which finished play a board shows when the next rolls were thrown before it was seen
(``controller.held.finished_play``), on boards built from positions."""

from __future__ import annotations

from controller import held
from controller.held import Finished, SinceRoll, Undecided, finished_play
from controller.rules.base import RuleSet
from controller.rules.registry import get_rule_set
from controller.rules.turn import TurnMap
from controller.rules.turn import turn_map as turn_map_for
from controller.rules.values import Colour, Move, Play, Position, Roll
from controller.seen import Seen
from controller.rules.reach import MOVER
from controller.tracking import BoardReader, BoardReading, Kind, Tracker
from hal.interfaces import BoardSnapshot

RULES = get_rule_set("backgammon")
CLOSED = Position.from_counts({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, {13: 6, 8: 5, 6: 3}, black_bar=1)
"""White to move; Black on the bar against White's closed board: every Black roll passes."""


def test_a_pass_between_two_plays_of_the_same_player_is_followed() -> None:
    """White played 6-5 (seen complete), Black's 6-6 passed on the closed board, White threw
    3-1 and has moved 8/5 already: the board is two plays of White's ahead of its roll, and
    White's 6-5 is the play that explains it."""
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    done = turn_map.end_of(first)
    assert done is not None
    after = RULES.apply(CLOSED, first)
    assert TurnMap(RULES, after, Roll(6, 6)).passes
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3),)))
    reader = BoardReader(RULES, RULES.geometry(None))
    reading = reader.position_reading(board)
    found = finished_play(Tracker(turn_map), (Roll(6, 6), Roll(3, 1)), reading, done)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == done


def test_without_the_roll_after_the_pass_nothing_is_decided() -> None:
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    done = turn_map.end_of(first)
    after = RULES.apply(CLOSED, first)
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3),)))
    reading = BoardReader(RULES, RULES.geometry(None)).position_reading(board)
    assert finished_play(Tracker(turn_map), (Roll(6, 6),), reading, done) is None


def test_a_pass_and_the_mover_moving_on_before_the_play_was_ever_seen_is_followed() -> None:
    """The same, but the board never showed White's 6-5 complete (a hand over it, a quick
    player): the board two plays on is still explained by it, through Black's pass."""
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    after = RULES.apply(CLOSED, first)
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3), Move(6, 5, 1))))
    reading = BoardReader(RULES, RULES.geometry(None)).position_reading(board)
    found = finished_play(Tracker(turn_map), (Roll(6, 6), Roll(3, 1)), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)


# -- boards several turns on, the mover's play never seen complete (issue 8) ----------------------------

START = RULES.start_position()
READER = BoardReader(RULES, RULES.geometry(None))


def _play(position: Position, roll: Roll, want=lambda play: True) -> Play:
    """The first legal play of ``roll`` that ``want`` accepts."""
    return next(p for p in RULES.legal_plays(position, roll) if want(p))


def _run(*turns: tuple[Roll, Play]) -> Position:
    position = START
    for roll, play in turns:
        assert RULES.is_legal(position, roll, play), (roll, play)
        position = RULES.apply(position, play)
    return position


def test_the_mover_moving_again_two_turns_on_is_followed() -> None:
    """White's 3-1 (never seen complete: a dropout), Black's 6-4, and White's 6-5 all made
    before the board is read again: White's 3-1 is the play, whatever White did since."""
    first = Play((Move(8, 5, 3), Move(6, 5, 1)))
    second = Play((Move(24, 18, 6), Move(13, 9, 4)))
    third = Play((Move(24, 18, 6), Move(18, 13, 5)))  # no other split of the moves makes this board
    board = _run((Roll(3, 1), first), (Roll(6, 4), second), (Roll(6, 5), third))
    turn_map = TurnMap(RULES, START, Roll(3, 1))
    found = finished_play(Tracker(turn_map), (Roll(6, 4), Roll(6, 5)), READER.position_reading(board), turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)


def test_three_turns_on_is_followed_settled_or_with_a_checker_in_the_hand() -> None:
    """Four turns made unseen (White, Black, White, Black): the board settled decides White's
    play, and so does the board with Black's last checker still in the hand (one run of turns
    explains it)."""
    rolls = (Roll(3, 1), Roll(6, 4), Roll(2, 1), Roll(5, 2))
    made: list[tuple[Roll, Play]] = []
    position = START
    for roll in rolls:
        play = _play(position, roll, lambda p: not any(m.hit for m in p))
        made.append((roll, play))
        position = RULES.apply(position, play)
    turn_map = TurnMap(RULES, START, rolls[0])
    tracker = Tracker(turn_map)
    reading = READER.position_reading(position)
    found = finished_play(tracker, rolls[1:], reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(made[0][1])
    last = made[-1][1][-1]  # Black's last checker lifted again: in the hand
    black = list(position.black)
    black[last.to] -= 1
    lifted = BoardReading(position.white, tuple(black))
    found = finished_play(Tracker(turn_map), rolls[1:], lifted, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(made[0][1])


def test_a_blot_hit_between_the_movers_turns_is_followed() -> None:
    """White's 6-4 leaves blots, Black hits one, White enters with the next roll: the board
    shows White's side moved on from a play it never showed."""
    first = Play((Move(24, 18, 6), Move(13, 9, 4)))
    after = RULES.apply(START, first)
    second = _play(after, Roll(6, 1), lambda p: any(m.hit for m in p))
    third = _play(RULES.apply(after, second), Roll(3, 1), lambda p: p[0].frm == 25)
    board = _run((Roll(6, 4), first), (Roll(6, 1), second), (Roll(3, 1), third))
    turn_map = TurnMap(RULES, START, Roll(6, 4))
    found = finished_play(Tracker(turn_map), (Roll(6, 1), Roll(3, 1)), READER.position_reading(board), turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)


def _entering() -> tuple[RuleSet, Position, TurnMap, BoardReader]:
    """Rally-hitting, White to move with 6-1, each side with 13 in the pool and two blots."""
    rally = get_rule_set("rally-hitting")
    white = [0] * 26
    white[15], white[23], white[25] = 1, 1, 13
    black = [0] * 26
    black[11], black[19], black[25] = 1, 1, 13
    start = Position(tuple(white), tuple(black), Colour.WHITE)
    return rally, start, TurnMap(rally, start, Roll(6, 1)), BoardReader(rally, rally.geometry(None))


def test_a_board_showing_the_movers_side_as_before_the_roll_decides_nothing() -> None:
    """Rally-hitting (the tracker's state machine found it): White to move with 6-1, Black
    throws 1-1 and the board shows White's side as before the roll, Black's moved by one.  A
    White entry hit at once by Black explains it, and so does a hand knocking Black's checkers
    about: nothing shows that White played, so no play is decided (the boards to come tell).
    With White's next roll held as well, Black has finished its turn (it threw no roll of its
    own before White's): White's entries were hit, and the run settles (trictrac 940728221,
    all hands, noise 5: Black's bar/20/18, never on a board, hit at once by White's 11/7*
    12/7; the turn was left open while eight rolls piled up, and the game was lost)."""
    rally, start, turn_map, reader = _entering()
    checked = 0
    for key in turn_map.states():
        if not turn_map.is_complete(key):
            continue
        after = rally.apply(start, turn_map.play_to(key))
        for hit in rally.legal_plays(after, Roll(1, 1)):
            for n in range(1, len(hit) + 1):
                board = rally.apply(after, Play(hit[:n])) if n < len(hit) else rally.apply(after, hit)
                if board.white != start.white:
                    continue
                reading = reader.position_reading(board)
                found = finished_play(Tracker(turn_map), (Roll(1, 1),), reading, turn_map.start)
                assert not isinstance(found, Finished), (turn_map.play_to(key), hit[:n])
                checked += 1
                if n == len(hit):
                    found = finished_play(Tracker(turn_map), (Roll(1, 1), Roll(2, 1)), reading, turn_map.start)
                    assert isinstance(found, Finished), (turn_map.play_to(key), hit)
                    followed = rally.apply(start, found.play)
                    assert any(rally.apply(followed, again).black == board.black
                               for again in rally.legal_plays(followed, Roll(1, 1)))
    assert checked


def test_a_blot_passed_then_hit_by_the_movers_next_turn_is_left_to_the_boards_to_come() -> None:
    """White's 6-3 goes 13/7/4 past a black blot on White's 10 (the board showed that play),
    Black's roll passes on White's closed board, and White's next roll begins with the blot
    taken off first: the board is 13/10*/4 to the letter, and also 13/7/4 with the next turn's
    hit under way.  Nothing is decided on it (the hitter's move will tell); with no roll after
    Black's, the board is simply 13/10*/4."""
    from controller.held import explained_from_seen

    start = Position.from_counts({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, {13: 5, 15: 1, 8: 5, 6: 3}, black_bar=1)
    turn_map = TurnMap(RULES, start, Roll(6, 3))
    seen = turn_map.end_of(Play((Move(13, 7, 6), Move(7, 4, 3))))
    hit = turn_map.end_of(Play((Move(13, 10, 3, True), Move(10, 4, 6))))
    assert seen is not None and hit is not None
    after = RULES.apply(start, turn_map.play_to(seen))
    assert TurnMap(RULES, after, Roll(5, 2)).passes
    board = READER.position_reading(turn_map.position_of(hit))
    assert explained_from_seen(Tracker(turn_map), (Roll(5, 2), Roll(3, 1)), board, seen, hit)
    assert not explained_from_seen(Tracker(turn_map), (Roll(5, 2),), board, seen, hit)


def test_a_run_of_turns_where_an_entry_is_hit_back_is_followed_to_its_end() -> None:
    """Trictrac, found by the stateful hands test: Black's 4-2 (bar/23 6/2*), White's 1-1
    entering (bar/24/23*/22/21) and Black's 1-2 hitting that checker back (bar/24 6/4*) all
    made under a dropout.  White's side is then as before White's roll, yet the run of turns
    settles: Black's 4-2 is decided, and White's 1-1 with it (its turn begun on this board)."""
    trictrac = get_rule_set("trictrac")
    start = Position((0,) * 6 + (5, 0, 3, 0, 1, 0, 0, 5) + (0,) * 9 + (1, 0, 0),
                     (0,) * 6 + (4, 0, 3, 0, 0, 0, 0, 5) + (0,) * 4 + (1, 0, 0, 0, 0, 0, 1, 1), Colour.BLACK)
    plays = [(Roll(4, 2), Play((Move(25, 23, 2), Move(6, 2, 4, True)))),
             (Roll(1, 1), Play((Move(25, 24, 1), Move(24, 23, 1, True), Move(23, 22, 1), Move(22, 21, 1)))),
             (Roll(2, 1), Play((Move(25, 24, 1), Move(6, 4, 2, True))))]
    position = start
    for roll, play in plays:
        assert trictrac.is_legal(position, roll, play)
        position = trictrac.apply(position, play)
    reading = BoardReader(trictrac, trictrac.geometry(None)).position_reading(position)
    turn_map = TurnMap(trictrac, start, Roll(4, 2))
    found = finished_play(Tracker(turn_map), (Roll(1, 1), Roll(2, 1)), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(plays[0][1])
    after = trictrac.apply(start, plays[0][1])
    white = TurnMap(trictrac, after, Roll(1, 1))
    found = finished_play(Tracker(white), (Roll(2, 1),), reading, white.start, observed=False)
    assert isinstance(found, Finished) and white.end_of(found.play) == white.end_of(plays[1][1])


def test_a_play_hitting_no_more_than_the_play_seen_is_no_hit_unshown() -> None:
    """Backgammon, found by a 5x soak with hitting hands (seed 850525515, noise 5): White's
    4-1 from 6 lands on a Black blot either way, 6/5*/1 or 6/2*/1.  The board showed 6/2*/1
    (the hit under way, the blot in a hand), then Black entered on the blot point of 5 and
    moved 13/7: only 6/5*/1 explains that.  It had been ruled out as a hit the bar never
    showed, although the play seen hits as many; the game was lost from its ninth play."""
    start = Position.from_counts({24: 2, 13: 5, 8: 3, 6: 5}, {23: 1, 20: 1, 13: 5, 8: 3, 6: 5})
    turn_map = TurnMap(RULES, start, Roll(4, 1))
    seen = turn_map.end_of(Play((Move(6, 2, 4, True), Move(2, 1, 1))))
    played = Play((Move(6, 5, 1, True), Move(5, 1, 4)))
    assert seen is not None and turn_map.end_of(played) is not None
    after = RULES.apply(start, played)
    board = RULES.apply(after, Play((Move(25, 20, 5), Move(13, 7, 6))))
    found = finished_play(Tracker(turn_map), (Roll(6, 5),), READER.position_reading(board), seen)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(played)


def test_the_run_followed_on_an_earlier_board_is_tried_first_further_on() -> None:
    """Four turns made unseen after White's 13/10/9: the search's work budget runs out among
    White's other plays before it reaches that one.  Once a board nearer the start was
    explained by it (the tracker keeps the run it followed, ``Tracker.run_seen``), the board
    further on follows the same run first and is explained (trictrac 780423412 at 5x went
    astray from play 150 this way, the next player's hands always at work)."""
    rolls = (Roll(3, 1), Roll(6, 4), Roll(2, 1), Roll(5, 2))
    first = Play((Move(13, 10, 3), Move(10, 9, 1)))
    position = RULES.apply(START, first)
    boards = []
    for roll in rolls[1:]:
        position = RULES.apply(position, _play(position, roll, lambda p: not any(m.hit for m in p)))
        boards.append(READER.position_reading(position))
    turn_map = TurnMap(RULES, START, rolls[0])
    assert finished_play(Tracker(turn_map), rolls[1:], boards[-1], turn_map.start) is None  # the budget runs out
    tracker = Tracker(turn_map)
    found = finished_play(tracker, rolls[1:2], boards[0], turn_map.start)
    assert isinstance(found, Finished) and tracker.run_seen == turn_map.end_of(first)
    tracker.kept.clear()  # not what was kept: the run it followed
    found = finished_play(tracker, rolls[1:], boards[-1], turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)


def test_the_run_last_found_is_tried_however_far_down_the_order_its_play_comes(monkeypatch) -> None:
    """The plays tried per turn of a run are cut to the first ``MAX_TRIED_FAR`` in the
    evidence's order; the run a search last found (``Tracker.run_seen``) goes on even when
    its play comes after the cut (trictrac 1840255207 with hit blots handed over: the turn a
    search had just followed to a board judged that board again and found nothing)."""
    rolls = (Roll(3, 1), Roll(6, 4), Roll(2, 1))
    first = Play((Move(13, 10, 3), Move(10, 9, 1)))
    position = RULES.apply(START, first)
    for roll in rolls[1:]:
        position = RULES.apply(position, _play(position, roll, lambda p: not any(m.hit for m in p)))
    board = READER.position_reading(position)
    turn_map = TurnMap(RULES, START, rolls[0])
    end = turn_map.end_of(first)
    monkeypatch.setattr(held, "MAX_TRIED_FAR", 1)
    tracker = Tracker(turn_map)
    found = finished_play(tracker, rolls[1:], board, turn_map.start)
    assert not isinstance(found, Finished) or turn_map.end_of(found.play) != end  # another play first
    tracker = Tracker(turn_map)
    tracker.run_seen = end
    # another play the evidence puts first (seen whole with a checker in a hand later on)
    tracker.complete_after = next(key for key in tracker.reach.complete.finished_before(tracker.key(board), 4, mover_later=True)
                                  if key != end and turn_map.is_complete(key))
    found = finished_play(tracker, rolls[1:], board, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == end


def test_a_roll_held_since_and_the_turn_it_begins_keep_the_run_the_search_followed() -> None:
    """The turns a search builds after the mover's play are kept by the rolls they used: a
    roll held since finds the same tracker (what it judged, the run it found there), and
    the finished play hands it on to the turn the held roll begins (``Tracker.following``).
    Backgammon 860325809 was lost when a roll held since, then the turn begun, searched
    afresh and took another run of turns for the same boards."""
    rolls = (Roll(3, 1), Roll(6, 4), Roll(6, 5), Roll(2, 1))
    first = Play((Move(8, 5, 3), Move(6, 5, 1)))
    second = Play((Move(24, 18, 6), Move(13, 9, 4)))
    third = Play((Move(24, 18, 6), Move(18, 13, 5)))  # no other split of the moves makes this board
    position = RULES.apply(START, first)
    board = READER.position_reading(_run((rolls[0], first), (rolls[1], second), (rolls[2], third)))
    turn_map = TurnMap(RULES, START, rolls[0])
    tracker = Tracker(turn_map)
    found = finished_play(tracker, rolls[1:3], board, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)
    follower = found.follower
    assert follower is not None and follower.map.start == RULES.board_key(position)
    assert follower.run_seen == follower.map.end_of(second)
    end = turn_map.end_of(first)
    assert end is not None
    kept = held._follower(tracker, end, rolls[1:], [held.MAX_WORK])  # one more roll held since
    assert kept is not None and kept[0] is follower and kept[1] == rolls[2:]
    begun = Tracker.following(turn_map_for(RULES, position, rolls[1]), follower)
    assert begun.run_seen == follower.run_seen and begun.kept is follower.kept
    assert begun.complete_seen is None and begun.shown.bar_seen == 0  # the search's readings are not its evidence
    other = Tracker.following(turn_map_for(RULES, position, Roll(6, 5)), follower)
    assert other.run_seen is None and other.kept == {}


def _hidden(position: Position, *points: int) -> BoardReading:
    """The reading of ``position`` with the zones of White's ``points`` unreadable."""
    snapshot = READER.snapshot_of(position)
    zones = snapshot.as_dict()
    for point in points:
        zones[READER.zone_of(Colour.WHITE, point)] = None
    return READER.read(BoardSnapshot.from_zones(zones))


def test_a_board_partly_hidden_that_one_complete_play_fits_alone_shows_that_plays_side() -> None:
    """A play that stood complete only while a zone was hidden (a dropout, a hand over it)
    is evidence as a board wrong only on the opponent's side is (``Tracker.side_seen``):
    rally-hitting 900227006 at 5x, noise 7.5, read White's 1-5 16/15 7/2 as 17/16 7/2 when
    its next 1-5 went 17/16 15/10, the only board showing the first complete having the 16
    hidden.  Two plays fitting the readable zones show neither."""
    roll = Roll(3, 1)
    turn_map = TurnMap(RULES, START, roll)
    made = RULES.apply(START, Play((Move(8, 5, 3), Move(6, 5, 1))))
    tracker = Tracker(turn_map)
    reading = _hidden(made, 5)
    assert reading.hidden(Colour.WHITE) == (5,) and tracker.judge(reading).kind is Kind.HIDDEN
    assert tracker.side_seen == turn_map.end_of(Play((Move(8, 5, 3), Move(6, 5, 1)))) & MOVER
    tracker = Tracker(turn_map)
    tracker.judge(_hidden(RULES.apply(START, Play((Move(8, 5, 3), Move(8, 7, 1)))), 8, 7, 5, 4))
    assert tracker.side_seen is None  # 8/5 8/7 or 8/4: the readable zones are as at the start


# -- a blot that never left its point was not hit (trictrac and backgammon 860225806) -------------

PASSED_START = Position.from_counts({7: 1, 13: 5, 8: 3, 6: 6}, {22: 1, 21: 2, 13: 4, 8: 3, 6: 5})
"""White to move with 4-2: 7/5/1 passes Black's blot on White's 3, 7/3*/1 hits it."""


def _since(turn_map: TurnMap, blot_left: bool, bar: int = 0) -> SinceRoll:
    """What ``finished_play`` takes as ``since``, from boards a ``Seen`` noted: each showing
    Black's side as at the start, one with the blot's point hidden if ``blot_left``, and
    Black's bar showing ``bar`` checkers at most."""
    seen = Seen()
    reading = READER.position_reading(PASSED_START)
    seen.note(READER.snapshot_of(PASSED_START), reading, 1.0)
    if blot_left:
        black = list(reading.black)
        black[22] = 0
        seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, tuple(black), ("III",)), 2.0)
    if bar:
        black = list(reading.black)
        black[22], black[25] = 0, bar
        seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, tuple(black)), 3.0)
    points = seen.standing(Colour.BLACK, 0.5)
    return SinceRoll(turn_map.key_of((0,) * len(points), points), seen.bar_shown(Colour.BLACK, 0.5))


def test_a_blot_on_every_board_since_the_roll_was_passed_not_hit_and_entered_again() -> None:
    """The board shows White's 7/1 and Black's 21/16: 7/5/1 with Black's 3 to play, or
    7/3*/1 with Black's bar/22 21/16 complete, the same counts.  The blot stood on its point
    on every board since White's roll: 7/5/1.  With the point once seen empty (or hidden)
    both stay possible."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    after = RULES.apply(PASSED_START, passed)
    board = RULES.apply(after, Play((Move(21, 16, 5),)))
    reading = READER.position_reading(board)
    found = finished_play(Tracker(turn_map), (Roll(5, 3),), reading, turn_map.start,
                          since=_since(turn_map, blot_left=False))
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(passed)
    found = finished_play(Tracker(turn_map), (Roll(5, 3),), reading, turn_map.start,
                          since=_since(turn_map, blot_left=True))
    assert isinstance(found, Finished) and turn_map.end_of(found.play) in (turn_map.end_of(passed), turn_map.end_of(hit))
    found = finished_play(Tracker(turn_map), (Roll(5, 3),), reading, turn_map.start)
    assert isinstance(found, Finished)  # (without knowing the boards since: either)


def test_a_blot_carried_to_another_point_never_on_the_bar_was_moved_not_hit() -> None:
    """Rally-hitting 880726421 (serial link, illegal moves at every turn): White's 13/8
    16/13 stood complete, then Black lifted its blot on White's 11 before its roll was read
    and put it down where no Black play goes.  16/11*/8 with Black entering there explained
    that, and Black's illegal move went unwarned: the blot never reached the pool.  Here
    White's 7/1 passes Black's blot on its 3 and Black carries the blot 22/20 with 5-4 (no
    2 to play): with the bar never showing it nothing explains the board (the board
    warns); with the bar once showing it, 7/3*/1 and bar/20 do."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    entered = RULES.apply(RULES.apply(PASSED_START, hit), Play((Move(25, 20, 5),)))
    reading = READER.position_reading(entered)
    found = finished_play(Tracker(turn_map), (Roll(5, 4),), reading, turn_map.start,
                          since=_since(turn_map, blot_left=True))
    assert found is None
    found = finished_play(Tracker(turn_map), (Roll(5, 4),), reading, turn_map.start,
                          since=_since(turn_map, blot_left=True, bar=1))
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)


def test_a_blot_off_its_point_before_its_owners_roll_was_hit_though_the_bar_never_showed_it() -> None:
    """Trictrac 981029430 and 980329410 (noise 7.5, the games lost): the hitter's hand took
    the blot off before its owner had rolled, laid it on the bar and the owner entered it at
    once, all between two boards that stood.  The blot never reached the bar on a board, but
    its owner does not move a blot before rolling: a board showing it off its point then
    shows it hit (``OpponentShown.off_seen``), and 7/3*/1 with Black's bar/20 explains the board
    that 7/5/1 with Black's 22/20 explains as well."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    entered = RULES.apply(RULES.apply(PASSED_START, hit), Play((Move(25, 20, 5),)))
    reading = READER.position_reading(entered)
    tracker = Tracker(turn_map)
    start = READER.position_reading(PASSED_START)
    black = list(start.black)
    black[22] = 0  # the blot in the hitter's hand, before Black's roll
    assert tracker.judge(BoardReading(start.white, tuple(black))).kind is Kind.HIT_PENDING
    found = finished_play(tracker, (Roll(5, 2),), reading, turn_map.start, since=_since(turn_map, blot_left=True))
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)
    found = finished_play(Tracker(turn_map), (Roll(5, 2),), reading, turn_map.start,
                          since=_since(turn_map, blot_left=True))  # no board showed the blot off then
    assert isinstance(found, Finished) and turn_map.end_of(found.play) != turn_map.end_of(hit)


def test_a_late_hit_no_board_showed_leaves_a_hand_at_work_undecided() -> None:
    """Rally-hitting 981429442 (noise 7.5): White's 7/5/1 stood complete with Black's blot
    on its 3 before Black's roll.  Then the blot was gone, in a hand: Black's own (its play
    under way) or the one that took it late to the bar (7/3*/1, Black now entering).  The
    late hit is never taken while another play explains the board, but neither decides
    while the hand is at work (the boards to come may show Black entering).  (A late hit no
    board showed stays no explanation on its own: rally-hitting 940328209 excused an
    illegal move so; rally-hitting 981429442 is lost so, open in issue 8.)"""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    tracker = Tracker(turn_map)
    after = READER.position_reading(RULES.apply(PASSED_START, passed))
    assert tracker.judge(after).kind is Kind.COMPLETE  # the last board before Black's roll
    black = list(after.black)
    black[22] = 0  # the blot in a hand
    lifted = BoardReading(after.white, tuple(black))
    assert isinstance(finished_play(tracker, (Roll(5, 4),), lifted, tracker.complete_seen), Undecided)
    black[18] = 1  # Black's 22/18 with the 4: it was Black's own hand
    found = finished_play(tracker, (Roll(5, 4),), BoardReading(after.white, tuple(black)), tracker.complete_seen)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(passed)
    assert hit != passed


def test_a_blot_gone_and_entered_again_while_boards_went_unseen_may_have_been_hit() -> None:
    """The same boards, but a board since the blot left showed several zones changed at once
    (noisy sensors: rally-hitting 871026130 at noise 7.5, Black's 23/21* with White's blot
    laid on its pool and entered again by pool/22/18, none of it on a board that stood): the
    bar may have held the blot unseen, and 7/3*/1 with Black's bar/20 explains the board."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    entered = RULES.apply(RULES.apply(PASSED_START, hit), Play((Move(25, 20, 5),)))
    since = _since(turn_map, blot_left=True)
    unseen = [0] * 26
    unseen[22] = 1  # the blot's point left no later than a board several zones apart
    found = finished_play(Tracker(turn_map), (Roll(5, 4),), READER.position_reading(entered), turn_map.start,
                          since=SinceRoll(since.standing, since.bar, unseen=turn_map.key_of((0,) * 26, tuple(unseen))))
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)


def test_a_hit_the_pool_showed_comes_first_when_it_was_hit_back_and_entered_on_its_point() -> None:
    """Rally-hitting 860925827 (all careless habits; the game was lost from play 10): Black's
    pool/24/20*, its blot seen in White's pool, then White's pool/20* 16/12 hitting it back
    on the very point, and Black's 4-1 again: pool/21 11/10.  The board three turns on was
    read as Black's first 4-1 played pool/21 11/10, White's 16/12 under way: a shorter run,
    but one hitting nothing where the pool had shown a hit."""
    rules = get_rule_set("rally-hitting")
    start = Position.from_counts({20: 1, 19: 1, 16: 1}, {13: 1, 11: 1}, white_bar=12, black_bar=13,
                                 turn=Colour.BLACK)
    hit = Play((Move(25, 24, 1), Move(24, 20, 4, True)))
    back = Play((Move(25, 20, 5, True), Move(16, 12, 4)))
    again = Play((Move(25, 21, 4), Move(11, 10, 1)))
    board = rules.apply(rules.apply(rules.apply(start, hit), back), again)
    reading = BoardReader(rules, rules.geometry(None)).position_reading(board)
    turn_map = TurnMap(rules, start, Roll(1, 4))
    tracker = Tracker(turn_map)
    shorter = finished_play(tracker, (Roll(5, 4), Roll(4, 1)), reading, turn_map.start)
    assert isinstance(shorter, Finished) and not shorter.play.hits  # (nothing showed the hit)
    tracker = Tracker(turn_map)
    tracker.shown.bar_seen = tracker.shown.hit_bar = 13  # White's pool showed the blot hit: 12 before the roll
    found = finished_play(tracker, (Roll(5, 4), Roll(4, 1)), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)


def test_the_bar_counts_as_the_movers_hits_only_until_the_mover_rolls_again() -> None:
    """``OpponentShown.hit_bar``: the opponent's bar or pool is filled by the mover's play until
    the mover's next roll; its next play may hit too (780423412 with hitting hands lost the
    game when a later hit counted for the play before)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    reading = READER.position_reading(RULES.apply(PASSED_START, hit))
    tracker = Tracker(turn_map)
    tracker.judge(reading, turn_map.start, opponent_rolled=True, mover_rolled=True)
    assert (tracker.shown.bar_seen, tracker.shown.hit_bar) == (1, 0)
    tracker.judge(reading, turn_map.start, opponent_rolled=True)
    assert (tracker.shown.bar_seen, tracker.shown.hit_bar) == (1, 1)


def test_a_checker_lifted_after_the_mover_rolled_again_is_no_evidence_of_its_play_before() -> None:
    """``Tracker.lifted_seen`` (a play never shown complete is more likely the one moving the
    checkers last seen in a hand) counts only until the mover's next roll is held: then its
    hand is at its next play (trictrac 860125803: bar/22* 7/6, the board hidden when it
    stood complete, was read as bar/22* 12/11 after White lifted from 12 for its next turn)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    white = list(READER.position_reading(PASSED_START).white)
    white[13] -= 1  # a checker from 13 in the hand
    reading = BoardReading(tuple(white), READER.position_reading(PASSED_START).black)
    tracker = Tracker(turn_map)
    assert tracker.judge(reading, turn_map.start, opponent_rolled=True, mover_rolled=True).lifted == (13,)
    assert tracker.lifted_seen is None
    tracker.judge(reading, turn_map.start, opponent_rolled=True)
    assert tracker.lifted_seen is not None and tracker.lifted_seen[1] == (13,)


def test_a_complete_play_with_a_checker_lifted_after_the_mover_rolled_again_is_not_that_play_seen() -> None:
    """A board read as a complete play with a checker of the mover in a hand shows that play
    (``Tracker.complete_seen``) only until the mover's next roll is held: then its hand at
    its next play makes such boards of other plays (rally-hitting 861325839: Black's 5-2
    12/7 10/8, then 11/10/9 with its next 2-1 and the checker on 8 lifted, read as 12/7
    11/9 with a checker lifted from 10)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = RULES.apply(PASSED_START, Play((Move(7, 3, 4), Move(3, 1, 2))))
    white = list(passed.white)
    white[13] -= 1  # a checker from 13 in the hand
    reading = BoardReading(tuple(white), passed.black)
    tracker = Tracker(turn_map)
    verdict = tracker.judge(reading, turn_map.start, opponent_rolled=True, mover_rolled=True)
    assert verdict.kind is Kind.IN_HAND and turn_map.is_complete(verdict.key) and verdict.lifted == (13,)
    assert tracker.complete_seen is None
    assert tracker.complete_after == verdict.key  # the first such board: tried first when nothing else tells
    other = list(white)
    other[13], other[8] = other[13] + 1, other[8] - 1  # the next board: a checker from 8 in the hand
    later = tracker.judge(BoardReading(tuple(other), passed.black), turn_map.start, opponent_rolled=True,
                          mover_rolled=True)
    assert later.kind is Kind.IN_HAND and tracker.complete_after == verdict.key  # (the first one stays)
    tracker.judge(reading, turn_map.start, opponent_rolled=True)
    assert tracker.complete_seen == verdict.key


def test_a_complete_play_with_a_checker_lifted_after_the_next_roll_does_not_replace_the_play_shown() -> None:
    """Rally-hitting 1070432113 (the game lost): White's bar/20*/19 stood complete, Black's
    blot on its way to the pool; Black threw, entered it back on 20 and its hand took White's
    blot on 16 off first: the board read as bar/24/19 with White's 16 lifted, and that play
    became "the play the board showed".  Once the next player has rolled, its hand may hold
    the mover's checker and its own stand where its play put them: a board shown complete
    before stays the play shown.  Here White's 10/5*/4 shown, then Black's bar/20 and White's
    blot on 24 lifted: 10/9/4 with a checker lifted."""
    start = Position.from_counts({10: 1, 24: 1, 6: 5, 8: 3, 13: 5}, {20: 1, 24: 1, 6: 5, 8: 3, 13: 5})
    turn_map = TurnMap(RULES, start, Roll(5, 1))
    hit, passed = (turn_map.end_of(Play(moves)) for moves in (
        (Move(10, 5, 5, True), Move(5, 4, 1)), (Move(10, 9, 1), Move(9, 4, 5))))
    assert hit is not None and passed is not None and hit != passed
    tracker = Tracker(turn_map)
    shown = READER.position_reading(turn_map.position_of(hit))
    assert tracker.judge(shown, turn_map.start).kind is Kind.COMPLETE and tracker.complete_seen == hit
    after = turn_map.position_of(passed)  # Black's blot entered back on its point
    white = list(after.white)
    white[24] -= 1  # and White's blot on 24 in Black's hand
    verdict = tracker.judge(BoardReading(tuple(white), after.black), turn_map.start, opponent_rolled=True)
    assert verdict.kind is Kind.WRONG  # Black's entry: the held search's (the runs of turns)
    assert tracker.complete_seen == hit
    tracker = Tracker(turn_map)
    tracker.judge(shown, turn_map.start)
    black = list(after.black)
    black[20], black[25] = 0, 1  # the blot still on the bar: no entry
    verdict = tracker.judge(BoardReading(tuple(white), tuple(black)), turn_map.start, opponent_rolled=True)
    # White's 24 stood when Black threw and is gone since: Black's hand at work (the held
    # search's), not White's 10/9/4 with a checker lifted, and not the play seen either
    assert verdict.kind is Kind.WRONG and tracker.complete_seen == hit
    tracker.judge(BoardReading(tuple(white), after.black), turn_map.start)  # before the roll: that play, seen
    assert tracker.complete_seen == passed


def test_a_board_short_of_the_play_shown_complete_after_the_mover_rolled_again_is_no_hand_at_work() -> None:
    """Rally-hitting 1051031530 (illegal moves at every turn): Black's pool/23/21*/19*/17*
    stood complete; both players rolled again and Black carried its checker from 17 back to
    23, an illegal move that stood four seconds unwarned: the board read as pool/23 with the
    blots on 21 and 17 taken off before the hitter came, a hand at work on the turn.  Once
    the play stood complete and the mover has rolled again, a board short of it is wrong for
    the turn (the turns after it explain it, if anything does); so it is once the play stood
    complete on the last board before the next player's roll (its hand lifts nothing after
    that roll).  Here White's 7/3*/1 shown, then the board before the roll with Black's blot
    on the bar (the hit before the hitter)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    hit = RULES.apply(PASSED_START, Play((Move(7, 3, 4, True), Move(3, 1, 2))))
    black = list(READER.position_reading(PASSED_START).black)
    black[22], black[25] = 0, 1  # the blot on the bar, White's checker still on 7
    early = BoardReading(READER.position_reading(PASSED_START).white, tuple(black))
    for rolled_again in (False, True):
        tracker = Tracker(turn_map)
        assert tracker.judge(READER.position_reading(hit), turn_map.start).kind is Kind.COMPLETE
        verdict = tracker.judge(early, tracker.complete_seen, opponent_rolled=True, mover_rolled=rolled_again)
        assert verdict.kind is Kind.WRONG
    tracker = Tracker(turn_map)  # seen complete, then White's 1 lifted before Black threw: its hand at work
    assert tracker.judge(READER.position_reading(hit), turn_map.start).kind is Kind.COMPLETE
    white = list(READER.position_reading(hit).white)
    white[1] -= 1
    tracker.judge(BoardReading(tuple(white), READER.position_reading(hit).black), tracker.complete_seen)
    assert tracker.judge(early, tracker.complete_seen, opponent_rolled=True).kind is Kind.HIT_PENDING
    tracker = Tracker(turn_map)  # never seen complete: the hand may still be at this turn
    assert tracker.judge(early, turn_map.start, opponent_rolled=True, mover_rolled=True).kind is Kind.HIT_PENDING


def test_a_blot_in_a_hand_once_its_owner_has_rolled_does_not_show_the_play_hitting_it() -> None:
    """A board read as a complete play with the blot it hits in a hand shows that play
    (``complete_seen``) only until the blot's owner has rolled: then its own hand starting
    its turn lifts it as well (rally-hitting 920127603, illegal moves at every turn: Black's
    pool/19/17, shown complete, was read as pool/23*/17 when White lifted its blot on 23 for
    its own 2-1, and the game was lost from play 5).  Once the bar has shown the blot, the
    hit was shown: its owner lifting it from there to enter is no evidence against it."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    board = RULES.apply(PASSED_START, passed)
    black = list(board.black)
    black[22] -= 1  # White's hand: Black's blot on White's 3 lifted
    reading = BoardReading(board.white, tuple(black))
    tracker = Tracker(turn_map)
    tracker.judge(READER.position_reading(board), turn_map.start)
    assert tracker.complete_seen == turn_map.end_of(passed)
    verdict = tracker.judge(reading, turn_map.start, opponent_rolled=True)
    assert verdict.kind is Kind.HIT_PENDING and verdict.key != turn_map.end_of(passed)
    assert tracker.complete_seen == turn_map.end_of(passed)
    tracker = Tracker(turn_map)
    verdict = tracker.judge(reading, turn_map.start)
    assert verdict.kind is Kind.HIT_PENDING and tracker.complete_seen == verdict.key  # before its roll: a hit
    on_bar = list(black)
    on_bar[25] += 1
    tracker = Tracker(turn_map)
    tracker.judge(BoardReading(board.white, tuple(on_bar)), turn_map.start)  # the bar showed the blot
    tracker.complete_seen = None
    verdict = tracker.judge(reading, turn_map.start, opponent_rolled=True)  # lifted off the bar to enter
    assert verdict.kind is Kind.HIT_PENDING and tracker.complete_seen == verdict.key


def test_a_hand_last_seen_at_work_on_part_of_a_play_puts_that_plays_ends_first() -> None:
    """The board showed 13/7 with White's checker from 21 in the hand (``lifted_seen``),
    then, a dropout hiding the rest, the board after White's next roll: 13/7 21/19 then
    19/11 explains it, and so do 21/15 13/11 then 15/7 and 13/7 13/11 then 21/13.  The
    part seen made is the play's start, as a part that stood on the board is (rally-hitting
    860625818: 9/3 17/15 read as 17/11 9/7).  Black, on the bar against a closed board,
    passes."""
    start = Position.from_counts({21: 1, 13: 2, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {13: 5, 8: 3, 7: 5},
                                 black_bar=1, black_off=1)
    turn_map = TurnMap(RULES, start, Roll(6, 2))
    part = RULES.apply(start, Play((Move(13, 7, 6),))).with_turn(Colour.WHITE)
    white = list(part.white)
    white[21] -= 1
    tracker = Tracker(turn_map)
    assert tracker.judge(BoardReading(tuple(white), part.black), turn_map.start).kind is Kind.IN_HAND
    made = Play((Move(13, 7, 6), Move(21, 19, 2)))
    after = RULES.apply(RULES.apply(start, made), Play(()))
    board = RULES.apply(after, Play((Move(19, 14, 5), Move(14, 11, 3))))
    found = finished_play(tracker, (Roll(4, 6), Roll(5, 3)), READER.position_reading(board), turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(made)
    found = finished_play(Tracker(turn_map), (Roll(4, 6), Roll(5, 3)), READER.position_reading(board), turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) != turn_map.end_of(made)  # nothing seen


def test_a_blot_on_its_point_on_the_last_board_before_the_next_roll_is_hit_after_it_only_if_a_board_shows_it() -> None:
    """A hit the bar never showed is ruled out when the boards before the next player's roll
    showed fewer checkers off their points than the play hits (``OpponentShown.off_seen``).  A blot
    still on its point on the last board before that roll was hit after it, if at all: only
    a board after the roll showing that play with the blot in a hand (``complete_seen``)
    makes it an explanation (trictrac 780423412, noise 7.5: Black's 13/11*/8*, the blot on
    11 taken off after White's roll, was read as 13/10/8*).  Without one, the next player's
    own hand moved it, and an illegal move is not excused as that hit and an entry
    (rally-hitting 940328209, illegal moves at every turn: White's 15/12/7* stood complete,
    Black moved its blot on 10 wrongly, read as 15/10*/7* and Black entering: game lost).
    Here White's 13/7*/2* after 13/8/2* stood complete, Black entering both."""
    start = Position.from_counts({13: 5, 8: 3, 6: 6, 24: 1}, {18: 1, 23: 1, 13: 4, 8: 3, 6: 6})
    turn_map = TurnMap(RULES, start, Roll(6, 5))
    one = Play((Move(13, 8, 5), Move(8, 2, 6, True)))
    two = Play((Move(13, 7, 6, True), Move(7, 2, 5, True)))
    seen = turn_map.end_of(one)
    entered = RULES.apply(RULES.apply(start, two), Play((Move(25, 22, 3), Move(25, 21, 4))))
    reading = READER.position_reading(entered)
    board = RULES.apply(start, one)
    black = list(board.black)
    black[18] -= 1  # after White's roll, Black's blot on White's 7 in a hand, the bar showing the other
    lifted = BoardReading(board.white, tuple(black))
    for shown in (False, True):
        tracker = Tracker(turn_map)
        assert tracker.judge(READER.position_reading(board), turn_map.start).kind is Kind.COMPLETE
        if shown:
            verdict = tracker.judge(lifted, seen, opponent_rolled=True)
            assert verdict.kind is Kind.HIT_PENDING and tracker.complete_seen == turn_map.end_of(two)
        assert seen is not None and tracker.judge(reading, seen, opponent_rolled=True).kind is Kind.WRONG
        assert tracker.shown.off_seen == 1 and tracker.shown.before_roll == seen
        found = finished_play(tracker, (Roll(4, 3),), reading, seen)
        if shown:
            assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(two)
        else:
            assert not isinstance(found, Finished) or turn_map.end_of(found.play) != turn_map.end_of(two)


def test_a_blot_the_bar_showed_hit_before_the_next_roll_is_not_traded_for_another() -> None:
    """The last board before the next player's roll showed one blot off its point and on the
    bar, another still on its point: a play hitting the other one instead is no explanation
    (rally-hitting 940228206, illegal moves at every turn: White's pool/19*/15, the blot on 19
    seen on the pool, then Black's illegal move of its blot on 21, read as pool/21*/15 and a
    legal entry).  Here White's bar/19*/15 with Black's blots on 21 and 19; Black's 4-3 then
    bar/21 4/3 (illegal) makes the board White's bar/21*/15 and Black's bar/21 6/3 would."""
    start = Position.from_counts({13: 5, 8: 3, 6: 5, 24: 1}, {4: 1, 6: 1, 13: 5, 8: 3, 24: 5}, white_bar=1)
    turn_map = TurnMap(RULES, start, Roll(6, 4))
    made = Play((Move(25, 19, 6, True), Move(19, 15, 4)))
    other = Play((Move(25, 21, 4, True), Move(21, 15, 6)))
    after = RULES.apply(start, other)
    board = RULES.apply(after, Play((Move(25, 21, 4), Move(6, 3, 3))))
    reading = READER.position_reading(board)
    hit_first = list(start.black)
    hit_first[6], hit_first[25] = 0, 1  # the blot on 19 on the bar, White's entering checker in the hand
    white = list(start.white)
    white[25] = 0
    before = BoardReading(tuple(white), tuple(hit_first))
    found = finished_play(Tracker(turn_map), (Roll(4, 3),), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(other)  # nothing seen
    tracker = Tracker(turn_map)
    assert tracker.judge(before, turn_map.start).kind is Kind.HIT_PENDING
    found = finished_play(tracker, (Roll(4, 3),), reading, turn_map.start)
    assert not isinstance(found, Finished) or turn_map.end_of(found.play) != turn_map.end_of(other)


def test_a_second_blot_the_bar_never_showed_was_moved_by_its_owner_though_the_first_was_hit() -> None:
    """Trictrac and backgammon 970329109 (serial link, illegal moves at every turn: games
    lost): White's 15/9/4* stood complete, its blot on the bar, and after Black's 6-6 Black
    carried its blot on White's 10 to White's 6 (illegal); 15/10*/4* with Black entering on
    its 6 explained that board, since the bar had shown a hit.  A play hitting more blots
    than the bar ever showed, one of them gone with no hitter on its point, moved that one,
    whatever other hit the bar showed.  Here White's 7/5/1* passes Black's blot on its 3
    and hits the one on its 1; Black moves the passed blot 22/20 with 5-4 (illegal), which
    7/3*/1* and Black's bar/20 explain; with the bar once showing both, they do."""
    start = Position.from_counts({7: 1, 13: 5, 8: 3, 6: 6}, {24: 1, 22: 1, 21: 2, 13: 3, 8: 3, 6: 5})
    turn_map = TurnMap(RULES, start, Roll(4, 2))
    one = Play((Move(7, 5, 2), Move(5, 1, 4, True)))
    two = Play((Move(7, 3, 4, True), Move(3, 1, 2, True)))
    board = RULES.apply(start, one)
    black = list(READER.position_reading(board).black)
    black[22], black[20] = 0, 1  # Black's illegal 22/20
    moved = BoardReading(READER.position_reading(board).white, tuple(black))
    assert READER.position_reading(RULES.apply(RULES.apply(start, two), Play((Move(25, 20, 5),)))) == moved
    for most in (1, 2):
        tracker = Tracker(turn_map)
        seen = Seen()
        for time, position in enumerate((start, board), 1):
            reading = READER.position_reading(position)
            seen.note(READER.snapshot_of(position), reading, float(time))
            tracker.judge(reading, turn_map.start)
        assert tracker.complete_seen == turn_map.end_of(one) and tracker.shown.off_seen == 1
        lifted = list(READER.position_reading(board).black)
        lifted[22] = 0  # after Black's roll, the blot in a hand: two with one blot still to reach the bar
        seen.note(READER.snapshot_of(board), BoardReading(moved.white, tuple(lifted)), 3.0)
        assert tracker.judge(BoardReading(moved.white, tuple(lifted)), turn_map.end_of(one),
                             opponent_rolled=True).kind is Kind.HIT_PENDING
        assert tracker.complete_seen == turn_map.end_of(two)
        if most == 2:
            lifted[25] = 2  # the bar shows it
            seen.note(READER.snapshot_of(board), BoardReading(moved.white, tuple(lifted)), 4.0)
            tracker.judge(BoardReading(moved.white, tuple(lifted)), turn_map.end_of(one), opponent_rolled=True)
        points = seen.standing(Colour.BLACK, 0.5)
        since = SinceRoll(turn_map.key_of((0,) * len(points), points), seen.bar_shown(Colour.BLACK, 0.5))
        assert since.bar == most
        found = finished_play(tracker, (Roll(5, 4),), moved, turn_map.end_of(one), since=since)
        if most == 1:
            assert found is None
        else:
            assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(two)


def test_the_run_a_hand_at_work_was_followed_on_stays_followed_while_another_settles_only_deeper() -> None:
    """Rally-hitting 990729721 (illegal moves at every turn, noise 7.5: game lost from play
    150).  Black's 4/off then 10/8 with 4-2, White's 2-2 passing (its last checker on its 1
    bears off only with a 1), and Black's 8/5/1* with 4-3 taking that checker off first:
    each board with it in the hand was a hit under way on that run.  When White's 6-1 came,
    3/1* 4/off, White's pool/23/21/19/17 and Black's 10/7/3 explained the same board with
    White's hand at work on its 6-1, and that run was taken.  The run the boards followed,
    a hand still at work on it, is kept; the board with the checker in the pool decides."""
    rules = get_rule_set("rally-hitting")
    reader = BoardReader(rules, rules.geometry(None))
    start = Position.from_counts({1: 1}, {14: 1, 12: 1, 10: 1, 8: 1, 4: 1, 3: 1, 2: 5}, turn=Colour.BLACK,
                                 white_off=14, black_off=4)
    turn_map = TurnMap(rules, start, Roll(4, 2))
    made = Play((Move(10, 8, 2), Move(4, 0, 4)))
    after = rules.apply(start, made)
    assert not rules.legal_plays(after, Roll(2, 2))  # White's 2-2 passes
    after_43 = rules.apply(after.with_turn(Colour.BLACK), Play((Move(8, 5, 3), Move(5, 1, 4, True))))

    def lifted(position: Position) -> BoardReading:
        """``position`` with White's last checker in a hand."""
        reading = reader.position_reading(position)
        return BoardReading((*reading.white[:25], 0), reading.black) if position.bar(Colour.WHITE) else \
            BoardReading((reading.white[0], 0, *reading.white[2:]), reading.black)

    tracker = Tracker(turn_map)
    verdict = tracker.judge(reader.position_reading(rules.apply(start, Play((Move(4, 0, 4),)))), turn_map.start)
    assert verdict.kind is Kind.LEGAL and verdict.key is not None
    rolls = (Roll(2, 2), Roll(4, 3), Roll(6, 1))
    assert isinstance(finished_play(tracker, rolls[:2], lifted(after), verdict.key), Undecided)
    assert tracker.run_seen == turn_map.end_of(made)
    assert isinstance(finished_play(tracker, rolls, lifted(after_43), verdict.key), Undecided)
    found = finished_play(tracker, rolls, reader.position_reading(after_43), verdict.key)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(made)


def test_a_hit_the_bar_never_showed_explains_a_board_the_players_have_thrown_again_over() -> None:
    """Rally-hitting 981429442 (noise 7.5: game lost).  Black's pool/22/18 stood complete
    passing White's blot; after White's roll Black's hand took the blot to the pool late and
    White entered it at once, between two boards.  A late hit no board showed is no
    explanation while the boards to come may still tell (an illegal move looks the same and
    is taken back once warned: rally-hitting 940328209, trictrac 970329109), but once the
    next roll is thrown too over a board only that hit explains, settled, and no warning
    stands, the players have played on from it (``played_on``; with a warning standing the
    board is being put right: rally-hitting 750622518 took a warned illegal move so).  Here
    White's 7/5/1 passes Black's blot on its 3 and Black's 5-4 shows bar/20 13/9: with 5-4
    alone nothing explains it; with White's 6-1 thrown as well, 7/3*/1 does, unwarned."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    entered = RULES.apply(RULES.apply(PASSED_START, hit), Play((Move(25, 20, 5), Move(13, 9, 4))))
    reading = READER.position_reading(entered)
    for rolls, played_on in (((Roll(5, 4),), True), ((Roll(5, 4), Roll(6, 1)), False),
                             ((Roll(5, 4), Roll(6, 1)), True)):
        tracker = Tracker(turn_map)
        assert tracker.judge(READER.position_reading(RULES.apply(PASSED_START, passed))).kind is Kind.COMPLETE
        found = finished_play(tracker, rolls, reading, tracker.complete_seen, since=_since(turn_map, blot_left=True),
                              played_on=played_on)
        if len(rolls) == 1 or not played_on:
            assert found is None
        else:
            assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)


def test_a_blot_the_pool_showed_hit_before_the_next_roll_is_hit_though_this_turn_never_saw_it() -> None:
    """Rally-hitting 991229736 (noise 7.5: game lost).  After a takeback White played its 5-3
    again as pool/22*/17: the hitter carried straight, its hand laid Black's blot on the pool
    (one board showed it there) and Black entered it on 22 with its next 4-3, all before the
    board that began White's turn anew.  That turn's boards showed pool/20/17 complete with
    the blot on its point, and a hit no board of the turn showed was ruled out.  A blot the
    bar or pool showed hit since the mover's roll and before its next (``SinceRoll.hits``)
    was hit: the play hitting it comes first, and is no late hit.  Here White's 7/5/1 and
    7/3*/1, and Black's 4-3 shows 13/9 with its blot back on White's 3 (bar/22 13/9, or 13/9
    with the 3 to play)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    board = RULES.apply(PASSED_START, passed)
    after = RULES.apply(RULES.apply(PASSED_START, hit), Play((Move(25, 22, 3), Move(13, 9, 4))))
    reading = READER.position_reading(after)
    assert reading == READER.position_reading(RULES.apply(board, Play((Move(13, 9, 4),))))
    for shown in (0, 1):
        seen = Seen()
        seen.note(READER.snapshot_of(PASSED_START), READER.position_reading(PASSED_START), 1.0)
        if shown:
            black = list(READER.position_reading(board).black)
            black[22], black[25] = 0, 1  # the blot on the pool
            seen.note(READER.snapshot_of(board), BoardReading(READER.position_reading(board).white, tuple(black)), 2.0)
        seen.note(READER.snapshot_of(board), READER.position_reading(board), 3.0)
        points = seen.standing(Colour.BLACK, 0.5)
        since = SinceRoll(turn_map.key_of((0,) * len(points), points), seen.bar_shown(Colour.BLACK, 0.5),
                          seen.bar_between(Colour.BLACK, 0.5, 3.5))
        assert since.hits == shown
        tracker = Tracker(turn_map)  # the turn begun anew: it saw only the board with the blot back
        assert tracker.judge(READER.position_reading(board), turn_map.start).kind is Kind.COMPLETE
        found = finished_play(tracker, (Roll(4, 3),), reading, tracker.complete_seen, since=since)
        assert isinstance(found, Finished)
        assert turn_map.end_of(found.play) == turn_map.end_of(hit if shown else passed)


def test_the_bar_between_two_times_is_read_from_the_boards_kept() -> None:
    """``Seen.bar_between``: the most a colour's bar or pool showed from one time to another,
    the board standing at the first counting (when hidden, every checker of the colour not
    seen elsewhere; 0 with no board by then)."""
    seen = Seen()
    reading = READER.position_reading(PASSED_START)
    for time, on_bar in ((1.0, 0), (2.0, 2), (3.0, 1)):
        black = list(reading.black)
        black[25] = on_bar
        seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, tuple(black)), time)
    assert [seen.bar_between(Colour.BLACK, a, b) for a, b in ((0, 1.5), (0, 5), (2.5, 5), (4, 5))] == [0, 2, 2, 1]
    black = list(reading.black)
    black[25], black[8] = 0, 0  # the pool hidden (read as empty), three checkers not seen
    seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, tuple(black), ("wait-black",)), 6.0)
    assert seen.bar_between(Colour.BLACK, 5, 7) == 3
    # only the boards that read it: a hidden bar with checkers in a hand shows no hit
    # (backgammon 1940358209, a blot lifted by its owner read as hit on that)
    assert seen.bar_between(Colour.BLACK, 5, 7, read=True) == 1  # the board standing at 5 (3.0) showed 1
    assert seen.bar_between(Colour.BLACK, 1.5, 7, read=True) == 2


def test_the_whole_boards_between_two_times_are_read_from_the_boards_kept() -> None:
    """``Seen.whole_between``: the boards with no zone hidden after one time up to another,
    the latest first (a turn begun after the next roll reads the boards before that roll)."""
    seen = Seen()
    reading = READER.position_reading(PASSED_START)
    black = list(reading.black)
    black[25] = 1
    lifted = BoardReading(reading.white, tuple(black))
    seen.note(READER.snapshot_of(PASSED_START), reading, 1.0)
    seen.note(READER.snapshot_of(PASSED_START), lifted, 2.0)
    seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, reading.black, ("wait-black",)), 3.0)
    assert list(seen.whole_between(0.5, 2.5)) == [(2.0, lifted), (1.0, reading)]
    assert list(seen.whole_between(0.5, 3.5)) == [(2.0, lifted), (1.0, reading)]
    assert list(seen.whole_between(0.5, 1.5)) == [(1.0, reading)]
    assert list(seen.whole_between(1.0, 1.5)) == [] and list(seen.whole_between(0, 0.5)) == []


def test_a_blot_lifted_only_just_before_the_next_roll_was_read_may_be_its_owners_hand() -> None:
    """Serial rally-hitting 1040331209 (illegal moves at every turn): Black's pool/21/16 stood
    complete past White's blot on 20; White's hand lifted that blot to move it (wrongly) and
    its roll was read 0.09 s later over the link; the blot went back to its point and White
    played on.  The last board before the roll showed the blot off its point, so the play
    hitting it (pool/20*/16, White entering on 20) came first.  A roll is read up to
    ``ROLL_READ`` late: a blot off its point only on boards that recent may be in its owner's
    hand (``SinceRoll.off_early``), and the play seen complete stays first.  Here White's
    7/5/1 passing Black's blot on 3 against 7/3*/1, Black's 4-3 showing 13/9 with the blot
    on its point (13/9 with the 3 to play, or bar/22 13/9)."""
    turn_map = TurnMap(RULES, PASSED_START, Roll(4, 2))
    passed = Play((Move(7, 5, 2), Move(5, 1, 4)))
    hit = Play((Move(7, 3, 4, True), Move(3, 1, 2)))
    board = RULES.apply(PASSED_START, passed)
    reading = READER.position_reading(RULES.apply(board, Play((Move(13, 9, 4),))))
    black = list(READER.position_reading(board).black)
    black[22] = 0  # the blot in a hand
    lifted = BoardReading(READER.position_reading(board).white, tuple(black))
    for read_at, first in ((3.2, passed), (4.0, hit)):  # the roll read 0.2 s, or 1 s, after the lift
        seen = Seen()
        seen.note(READER.snapshot_of(PASSED_START), READER.position_reading(PASSED_START), 1.0)
        seen.note(READER.snapshot_of(board), READER.position_reading(board), 2.0)
        seen.note(READER.snapshot_of(board), lifted, 3.0)
        tracker = Tracker(turn_map)
        assert tracker.judge(READER.position_reading(board), turn_map.start).kind is Kind.COMPLETE
        assert tracker.judge(lifted, turn_map.end_of(passed)).kind is Kind.HIT_PENDING  # before the roll was read
        seen.note(READER.snapshot_of(board), READER.position_reading(board), 5.0)  # the blot back
        points = seen.standing(Colour.BLACK, 0.5)
        since = SinceRoll(turn_map.key_of((0,) * len(points), points), seen.bar_shown(Colour.BLACK, 0.5),
                          seen.bar_between(Colour.BLACK, read_at, 99.0), seen.off_between(Colour.BLACK, 0.5, read_at - 0.5))
        assert since.off_early == (0 if first is passed else 1)
        found = finished_play(tracker, (Roll(4, 3),), reading, turn_map.end_of(passed), since=since)
        assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)


def test_the_most_checkers_off_their_points_between_two_times_are_read_from_the_boards_kept() -> None:
    """``Seen.off_between``: the most of a colour's checkers on its bar or pool or in a hand
    on the whole boards after one time up to another (a board with a zone hidden is not
    read; none with no board then)."""
    seen = Seen()
    reading = READER.position_reading(PASSED_START)
    black = list(reading.black)
    black[22] = 0
    seen.note(READER.snapshot_of(PASSED_START), reading, 1.0)
    seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, tuple(black)), 2.0)
    seen.note(READER.snapshot_of(PASSED_START), BoardReading(reading.white, reading.black, ("III",)), 3.0)
    spans = ((0.0, 0.5), (0.5, 1.5), (0.5, 2.5), (2.5, 2.7), (0.5, 3.5), (3.5, 5.0))
    assert [seen.off_between(Colour.BLACK, a, b) for a, b in spans] == [0, 0, 1, 0, 1, 0]
    assert seen.off_between(Colour.WHITE, 0.5, 2.5) == 0


def test_a_play_moving_the_checker_last_seen_in_a_hand_goes_before_one_the_board_shows_as_left() -> None:
    """Rally-hitting 1010830325 (noise 7.5): Black's hand was seen holding its checker from 15
    while playing 6-1; the board showed the play next with Black at work on its next roll,
    the checker it had moved on again in its hand.  That board shows pool/19 21/20 as it was
    left but for its blot on 20 in a hand (the run pool/19 21/20, then 20/14/11) as well as
    pool/19 15/14 with 21/15 made and 14/11 in hand; the first, tried before any run that
    goes deeper, was taken.  The runs are tried in the evidence's order, the play moving the
    checker last seen in a hand first.  Here White's 5-1: 6/1 8/7 (its checker on 8 seen in
    a hand) then 14/8 7/4, against 6/1 14/13 then 13/7/4."""
    start = Position.from_counts({14: 2, 8: 1, 6: 6, 5: 6}, {6: 5, 5: 5, 4: 5})
    turn_map = TurnMap(RULES, start, Roll(5, 1))
    moved = Play((Move(6, 1, 5), Move(8, 7, 1)))
    left = Play((Move(6, 1, 5), Move(14, 13, 1)))
    after = RULES.apply(start, moved)
    black_roll, next_roll = Roll(2, 1), Roll(6, 3)
    black_play = _play(after.with_turn(Colour.BLACK), black_roll)
    real = RULES.apply(RULES.apply(after.with_turn(Colour.BLACK), black_play).with_turn(Colour.WHITE),
                       Play((Move(14, 8, 6),)))
    white = list(READER.position_reading(real).white)
    white[7] -= 1  # 7/4 in the hand
    reading = BoardReading(tuple(white), READER.position_reading(real).black)
    other = RULES.apply(RULES.apply(start, left).with_turn(Colour.BLACK), black_play)
    shown = list(READER.position_reading(other).white)
    shown[13] -= 1  # 13/7/4 begun: the board shows the other play as left but for its blot in a hand
    assert tuple(shown) == reading.white
    tracker = Tracker(turn_map)
    part = RULES.apply(start, Play((Move(6, 1, 5),)))
    held_8 = list(READER.position_reading(part).white)
    held_8[8] -= 1  # the checker on 8 in a hand, 6/1 made
    assert tracker.judge(BoardReading(tuple(held_8), READER.position_reading(part).black)).kind is Kind.IN_HAND
    found = finished_play(tracker, (black_roll, next_roll), reading, tracker.map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(moved)


def test_a_blot_that_stood_on_its_point_off_the_entry_points_was_not_hit_and_replaced() -> None:
    """Rally-hitting 1030330909 (the game lost): White's 16/10/6 stood complete past Black's
    blot on 12, Black rolled and moved a checker from 18 to 20, backwards.  That board is
    White's 16/12*/6 with Black entering on 20 and playing 18/12, the blot's point filled
    by another checker, and was taken so (every board since had shown the blot on 12).  A
    hit and an entry on that very point may both go unseen, but a blot off the points its
    owner enters on must leave its point to be hit: one every board since showed there was
    not hit, and the board is warned about.  Here backgammon: White's 16/10/6 past Black's
    blot on its 12, Black's 5-3 carrying its checker on White's 9 to White's 5."""
    start = Position.from_counts({16: 1, 13: 4, 8: 3, 6: 5, 24: 2}, {13: 1, 16: 1, 8: 3, 7: 3, 6: 5, 5: 2})
    turn_map = TurnMap(RULES, start, Roll(6, 4))
    passed = Play((Move(16, 10, 6), Move(10, 6, 4)))
    hit = Play((Move(16, 12, 4, True), Move(12, 6, 6)))
    board = RULES.apply(start, passed)
    wrong = RULES.apply(RULES.apply(start, hit).with_turn(Colour.BLACK),
                        Play((Move(25, 20, 5), Move(16, 13, 3))))  # = Black's 16 carried to 20
    reading = READER.position_reading(wrong)
    black = list(READER.position_reading(board).black)
    black[16], black[20] = 0, 1
    assert reading.black == tuple(black)
    seen = Seen()
    for time, position in ((1.0, start), (2.0, board), (3.0, wrong)):
        seen.note(READER.snapshot_of(position), READER.position_reading(position), time)
        if time == 2.0:  # a hand over Black's bar after Black's roll, a checker not seen: it may have held one
            shown = READER.position_reading(position)
            black = list(shown.black)
            black[8] -= 1
            seen.note(READER.snapshot_of(position), BoardReading(shown.white, tuple(black), ("wait-black",)), 2.5)
    points = seen.standing(Colour.BLACK, 0.5)
    assert points[13] == 1  # the blot on every board
    since = SinceRoll(turn_map.key_of((0,) * len(points), points), seen.bar_shown(Colour.BLACK, 0.5),
                      seen.bar_between(Colour.BLACK, 2.2, 99.0))
    assert since.hits == 1
    tracker = Tracker(turn_map)
    assert tracker.judge(READER.position_reading(board), turn_map.start).kind is Kind.COMPLETE
    assert finished_play(tracker, (Roll(5, 3),), reading, tracker.complete_seen, since=since) is None
    found = finished_play(Tracker(turn_map), (Roll(5, 3),), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(hit)  # (boards unknown)



def _changed(reading: BoardReading, colour: Colour, changes: dict[str, int]) -> BoardReading:
    """``reading`` with ``colour``'s counts changed (``p22=0``: none on its point 22)."""
    side = list(reading.side(colour))
    for point, count in changes.items():
        side[int(point[1:])] = count
    return BoardReading(tuple(side), reading.black) if colour is Colour.WHITE else BoardReading(reading.white, tuple(side))


def test_the_hits_shown_are_points_seen_left_and_counts_the_bar_rose_above() -> None:
    """``Seen.hits_shown``: since a time, each colour's points a board showed left, and the
    counts its bar or pool rose above from the board standing then (a later turn of a run
    hits only a blot seen one way or the other: ``held._hits_left``)."""
    seen = Seen()
    reading = READER.position_reading(PASSED_START)

    def black(**changes: int) -> BoardReading:
        return _changed(reading, Colour.BLACK, changes)

    seen.note(READER.snapshot_of(PASSED_START), reading, 1.0)  # Black's 22 holds one, its bar none
    seen.note(READER.snapshot_of(PASSED_START), black(p22=0, p25=1), 2.0)  # the blot hit: 22 left, bar 1
    shown = seen.hits_shown(1.5)
    assert shown.left[1] == 1 << 22 and shown.left[0] == 0
    assert shown.rose == (0, 1) and not shown.jumped
    assert shown.hit_seen(Colour.BLACK, 22, 3) and shown.hit_seen(Colour.BLACK, 9, 0)
    assert not shown.hit_seen(Colour.BLACK, 9, 1) and not shown.hit_seen(Colour.WHITE, 9, 0)
    later = seen.hits_shown(2.5)  # nothing since: the bar at 1 stood, never rose
    assert later.left == (0, 0) and later.rose == (0, 0)
    seen.note(READER.snapshot_of(PASSED_START), black(p22=0, p25=0, p21=3), 3.0)  # entered again
    seen.note(READER.snapshot_of(PASSED_START), black(p22=0, p25=2, p21=1), 4.0)  # two hit at once
    assert seen.hits_shown(2.5).rose == (0, 0b11)  # from 0 (the board at 3.0) to 2
    assert seen.hits_shown(0.0).rose == (0, 0b11)


def test_a_blot_put_down_and_hit_between_two_boards_may_have_been_hit_once_its_side_was_in_a_hand() -> None:
    """``HitsShown.put_unseen``: a player's checker put down on an empty point and hit there
    before a board stood (blots handed over at 3x a person: backgammon 1860155804, White's
    13/7 and Black's 24/18* within 0.3 s) is never seen on its point; once a board showed
    that side's checkers in a hand, a hit on a point no board showed it holding may have
    been (never on a point a board showed it standing, nor a checker entered from its bar or
    pool and hit back: a board no different at all)."""
    seen = Seen()
    reading = READER.position_reading(START)

    def white(**changes: int) -> BoardReading:
        return _changed(reading, Colour.WHITE, changes)

    seen.note(READER.snapshot_of(START), reading, 1.0)
    assert not seen.hits_shown(0.5).hit_seen(Colour.WHITE, 7, 0)  # no hand at work yet
    seen.note(READER.snapshot_of(START), white(p13=3), 2.0)  # two lifted from 13
    seen.note(READER.snapshot_of(START), white(p13=3, p11=1), 3.0)  # one down on 11, the other unseen on 7
    shown = seen.hits_shown(1.5)
    assert shown.hit_seen(Colour.WHITE, 7, 0)  # put down on 7 and hit between two boards: may be
    assert not shown.hit_seen(Colour.WHITE, 11, 0)  # a board showed it standing on 11
    assert not shown.hit_seen(Colour.WHITE, 6, 0)  # nor 6, standing all along
    assert not shown.hit_seen(Colour.BLACK, 7, 0)  # Black's checkers were never in a hand
    assert not seen.hits_shown(2.5).hit_seen(Colour.WHITE, 7, 0)  # no more in a hand since 2.5
    seen.note(READER.snapshot_of(START), white(p13=3, p11=1, p25=1), 4.0)  # one on the bar
    seen.note(READER.snapshot_of(START), white(p13=3, p11=1, p24=1, p25=1), 5.0)  # and one more lifted
    shown = seen.hits_shown(4.5)
    assert shown.bar_at == (1, 0) and shown.hit_seen(Colour.WHITE, 7, 1)
    assert not shown.hit_seen(Colour.WHITE, 7, 0)  # a run entering it from the bar, hitting it unseen


def test_a_checker_of_the_mover_in_a_hand_after_the_other_passes_decides_nothing() -> None:
    """The stateful hands test (rally): White's 1-2 with 13/11 made and a checker lifted from
    the pool, both 1-1s thrown.  Black's 1-1 passes after pool/24 13/11, so that play with the
    24 lifted for White's next 1-1 explains the board, as does White's hand still at its
    pool/24: the search decided the first, recording a play the board never showed.  With
    the other's roll passing, the mover's checker in a hand is undecided."""
    rules = get_rule_set("rally")
    reader = BoardReader(rules, rules.geometry(None))
    start = Position.from_counts({13: 1, 19: 2}, {16: 1, 17: 1, 20: 2}, white_bar=12, black_bar=11)
    turn_map = TurnMap(rules, start, Roll(1, 2))
    part = rules.apply(start, Play((Move(13, 11, 2),)))
    white = list(part.white)
    white[25] -= 1  # a checker lifted from the pool
    lifted = BoardReading(tuple(white), part.black)
    after = rules.apply(start, Play((Move(25, 24, 1), Move(13, 11, 2)))).with_turn(Colour.BLACK)
    assert turn_map_for(rules, after, Roll(1, 1)).passes  # Black cannot move
    tracker = Tracker(turn_map)
    assert tracker.judge(reader.position_reading(part), turn_map.start).kind is Kind.LEGAL
    assert isinstance(finished_play(tracker, (Roll(1, 1), Roll(1, 1)), lifted, turn_map.start), Undecided)


def test_a_roll_that_landed_before_boards_judged_forgets_what_they_showed() -> None:
    """A roll read late (a serial link) says when it landed: what the boards judged since
    taught the tracker as boards before the roll (the complete board, the board before the
    roll) is forgotten, to be judged again as after it; boards before it are kept."""
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    reading = BoardReader(RULES, RULES.geometry(None)).position_reading(RULES.apply(CLOSED, first))
    for landed, forgotten in ((0.5, True), (1.0, False)):
        tracker = Tracker(turn_map)
        tracker.remember(1.0)
        assert tracker.judge(reading).kind is Kind.COMPLETE
        assert tracker.complete_seen == tracker.shown.before_roll == turn_map.end_of(first)
        assert tracker.rewind(landed) is forgotten
        kept = None if forgotten else turn_map.end_of(first)
        assert tracker.complete_seen == tracker.shown.before_roll == kept


def test_a_later_turn_leaving_standing_a_blot_seen_taken_before_its_owners_roll_explains_nothing() -> None:
    """A run of two turns (White's 6-5, then Black's 6-4 from its 13 past White's blots on
    18 and 16) on a board showing Black's 13/9*/3: without the boards' word it is that run;
    but with White's 18 seen taken before White's next roll (``gones``), Black's turn hit
    there, and a play leaving that blot standing explains nothing (rally-hitting 381711452,
    blots handed over at 5x: the follower's board judged settled, the game lost)."""
    start = Position.from_counts({13: 4, 8: 3, 6: 5, 18: 1, 16: 1, 24: 1}, {13: 5, 8: 3, 6: 5, 24: 2})
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    after = RULES.apply(start, first)
    turn_map = TurnMap(RULES, start, Roll(6, 5))
    via_16 = Play((Move(13, 9, 4, True), Move(9, 3, 6, False)))
    assert RULES.is_legal(after, Roll(6, 4), via_16)
    board = RULES.apply(after, via_16)
    reading = READER.position_reading(board)
    rolls = (Roll(6, 4), Roll(3, 1))
    found = finished_play(Tracker(turn_map), rolls, reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)
    taken_18 = 1 << 18  # White's 18 (Black's 7) read empty before White's roll
    found = finished_play(Tracker(turn_map), rolls, reading, turn_map.start, gones=(0, taken_18))
    assert not isinstance(found, Finished), found
    found = finished_play(Tracker(turn_map), rolls, reading, turn_map.start, gones=(0, 1 << 16))
    assert isinstance(found, Finished) and found.play == first  # the blot it hit seen taken: the same run


def test_the_play_the_board_showed_as_the_next_player_threw_is_shown_whatever_came_after() -> None:
    """Trictrac 48200814 (blots handed over, 5x): White's 22/18/13* stood as Black threw, the
    blot on 13 in White's hand; then Black lifted its other blot (on White's 17) for its own
    move, a board of 22/17*/13* with that blot in a hand, which became the complete board
    last seen.  A run from 22/18/13* is no run from a play never shown (``held._not_shown``,
    whose doubt makes the board wrong until it settles, warned falsely then); a run from
    another play, say 22/17*/13* read otherwise, stays one."""
    start = Position.from_counts({22: 1, 24: 4, 8: 4, 6: 6}, {8: 1, 12: 1, 13: 4, 6: 6, 2: 3})
    turn_map = TurnMap(RULES, start, Roll(5, 4))
    one = turn_map.end_of(Play((Move(22, 18, 4), Move(18, 13, 5, True))))
    two = turn_map.end_of(Play((Move(22, 17, 5, True), Move(17, 13, 4, True))))
    other = turn_map.end_of(Play((Move(8, 3, 5), Move(8, 4, 4))))
    assert None not in (one, two, other)
    board = RULES.apply(start, Play((Move(22, 18, 4), Move(18, 13, 5, True))))
    black = list(READER.position_reading(board).black)
    black[25] -= 1  # the blot hit on 13 in White's hand as Black throws
    tracker = Tracker(turn_map)
    before = BoardReading(READER.position_reading(board).white, tuple(black))
    assert tracker.judge(before, turn_map.start).kind is Kind.HIT_PENDING
    black[25] += 1  # on the bar after the roll,
    black[8] -= 1  # and Black's own hand lifts its blot on White's 17
    after = BoardReading(READER.position_reading(board).white, tuple(black))
    assert tracker.judge(after, one, opponent_rolled=True).kind is Kind.HIT_PENDING
    assert tracker.complete_seen == two
    assert not held._not_shown(turn_map, tracker, turn_map.start, one)
    assert held._not_shown(turn_map, tracker, turn_map.start, other)
