"""Resume after a crash at every point of a recorded game: the board as it physically stands
(the journal's position, part of the pending roll's play, the whole play, that play and the
next roll, a roll thrown and played since) is accepted and journalled as normal play would;
only a board no legal continuation explains is guided back, and nothing is ever warned.

Boards are shown whole (``drive.Driver``), the way the sensors report them once a hand is
done; ``test_resume_table`` runs the simulated table through restarts."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from controller.journal import Journal
from controller.machine import Controller, Output, Phase, Settings
from controller.resume import ResumePoint
from controller.rules import Play, Position, Roll, get_rule_set
from controller.rules.turn import TurnMap
from controller.notation.position_json import position_to_json
from controller.rules.values import Colour
from controller.tracking import Kind, Tracker
from drive import Driver, random_game
from hal.interfaces import Button

RULE_SETS = ("trictrac", "rally-hitting")


@dataclass
class Recorded:
    """A whole journalled game and the plays made in it (passes as empty plays)."""

    rules: str
    entries: list[dict]
    made: list[tuple[Roll, Play]]
    cuts: list[int] = field(default_factory=list)
    """Journal prefixes that leave a game in play: all of them for a short game, an even
    spread of about 90 for a long one (every resume replays its prefix)."""


@pytest.fixture(scope="module", params=RULE_SETS)
def recorded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    path = tmp_path_factory.mktemp("resume") / "game.jsonl"
    driver = Driver.new(get_rule_set(request.param), Journal(path))
    made = random_game(driver, random.Random(11))
    assert driver.controller.game.is_over
    rec = Recorded(request.param, [json.loads(line) for line in path.read_text().splitlines()], made)
    rec.cuts = in_play(rec, 90)
    return rec


def resumed(rec: Recorded, cut: int) -> tuple[Driver, ResumePoint]:
    """A controller resumed from the first ``cut`` journal entries, and where the journal left it."""
    controller = Controller(Settings(get_rule_set(rec.rules)))
    controller.resume(rec.entries[:cut])
    assert controller.resume_point is not None
    return Driver(controller, time=1000.0), controller.resume_point


def made_so_far(rec: Recorded, cut: int) -> int:
    """The plays (passes included) the first ``cut`` entries hold."""
    return sum(1 for e in rec.entries[:cut] if e["type"] == "turn")


def after(rules_name: str, position: Position, play: Play, moves: int | None = None) -> Position:
    """``position`` after the first ``moves`` moves of ``play`` (all by default), same mover."""
    rules = get_rule_set(rules_name)
    board = position
    for move in play.moves[: len(play) if moves is None else moves]:
        board = rules.apply(board, Play((move,))).with_turn(position.turn)
    return board


def journalled(outputs: list[Output]) -> list[dict]:
    return [entry for out in outputs for entry in out.journal]


def assert_calm(driver: Driver) -> None:
    """No warning came, and none comes when time passes (grace 1 s)."""
    driver.tick(3.0)
    driver.tick(3.0)
    assert not any(out.warning for out in driver.outputs), [out.frame.message for out in driver.outputs if out.warning]
    assert not driver.controller.warning


def in_play(rec: Recorded, most: int) -> list[int]:
    """At most ``most`` journal prefixes, sampled, that leave a game in play (after
    the opening, a roll or a turn; not a pass cut from its roll)."""
    candidates = [cut for cut in range(1, len(rec.entries)) if rec.entries[cut - 1]["type"] in ("opening", "roll", "turn")]
    out = []
    for cut in sorted(random.Random(len(candidates)).sample(candidates, min(most, len(candidates)))):
        controller = Controller(Settings(get_rule_set(rec.rules)))
        controller.resume(rec.entries[:cut])
        if controller.phase in (Phase.MOVING, Phase.AWAIT_ROLL):
            out.append(cut)
    return out


def impossible(rules_name: str, position: Position) -> Position | None:
    """``position`` with one of the mover's checkers taken off the board where no legal
    continuation can: from the bar or pool (25 pips, more than any roll gives; the other
    player's turn never bears the mover's checkers off), or in trictrac and backgammon
    while more than four are outside home (no play of the turn bears off then)."""
    mover = position.turn
    mine = list(position.side(mover))
    if mine[25]:
        mine[25] -= 1
    elif not rules_name.startswith("rally") and sum(mine[7:]) > 4:
        mine[max(p for p in range(7, 25) if mine[p])] -= 1
    else:
        return None
    mine[0] += 1
    theirs = position.side(mover.opponent)
    white, black = (tuple(mine), theirs) if mover is Colour.WHITE else (theirs, tuple(mine))
    return Position(white, black, mover)


# ---------------------------------------------------------------------------------------------
def test_the_board_as_journalled_is_accepted_at_every_cut(recorded: Recorded) -> None:
    """The board the journal describes, and the tray still showing its dice: nothing moves,
    nothing is journalled, nothing warned; the turn in play goes on."""
    for cut in recorded.cuts:
        driver, point = resumed(recorded, cut)
        controller = driver.controller
        driver.show(controller.game.position)
        if point.last_dice is not None:
            driver.roll(point.last_dice.second, point.last_dice.first)  # the tray's report after the restart
        assert controller.phase in (Phase.AWAIT_ROLL, Phase.MOVING), (cut, controller.message)
        assert journalled(driver.outputs) == [], cut
        if point.pending is not None:
            assert controller.turn_in_progress == (controller.game.turn, point.pending)
        assert_calm(driver)


def test_part_or_all_of_the_pending_play_made_during_the_restart_is_accepted(recorded: Recorded) -> None:
    """With a roll journalled and its play not, any prefix of the play made is accepted; the
    whole play ends with the next roll, journalled exactly as normal play journals it."""
    checked = 0
    for cut in recorded.cuts:
        driver, point = resumed(recorded, cut)
        if point.pending is None:
            continue
        controller = driver.controller
        index = made_so_far(recorded, cut)
        roll, play = recorded.made[index]
        position = controller.game.position
        rules = get_rule_set(recorded.rules)
        for moves in range(1, len(play)):
            driver.show(after(recorded.rules, position, play, moves))
            if moves == 1:  # the tray's report after the restart: the roll still lying there
                driver.roll(point.pending.first, point.pending.second)
            assert controller.phase is Phase.MOVING and controller.last_verdict.is_legal, (cut, moves)
        driver.show(after(recorded.rules, position, play))
        if len(play) < 2:
            driver.roll(point.pending.first, point.pending.second)
        assert journalled(driver.outputs) == [] or controller.game.is_over
        if not controller.game.is_over and index + 1 < len(recorded.made):
            following = recorded.made[index + 1][0]
            driver.roll(following.first, following.second)
            kinds = [e["type"] for e in journalled(driver.outputs)]
            assert kinds[:2] == ["turn", "roll"], (cut, kinds)
        turns = [e for e in journalled(driver.outputs) if e["type"] == "turn"]
        if turns:
            assert turns[0]["roll"] == [roll.first, roll.second]
            assert turns[0]["after"] == position_to_json(rules, rules.apply(position, play))
        assert_calm(driver)
        checked += 1
    assert checked > 10


def test_a_roll_thrown_and_played_during_the_restart_is_accepted_once_the_dice_are_known(recorded: Recorded) -> None:
    """No roll journalled: a board moved by a legal play waits for the dice without a
    warning; the tray's dice then explain it, and the roll and the turn are journalled."""
    checked = 0
    for cut in recorded.cuts:
        driver, point = resumed(recorded, cut)
        controller = driver.controller
        if point.pending is not None or controller.phase is not Phase.AWAIT_ROLL:
            continue
        index = made_so_far(recorded, cut)
        roll, play = recorded.made[index]
        if not play:
            continue
        position = controller.game.position
        driver.show(after(recorded.rules, position, play))
        assert controller.phase is Phase.AWAIT_ROLL and journalled(driver.outputs) == [], cut
        assert not driver.outputs[-1].sounds
        driver.roll(roll.first, roll.second)
        entries = journalled(driver.outputs)
        assert entries and entries[0]["type"] == "roll" and entries[0]["roll"] == [roll.first, roll.second], cut
        if not controller.game.is_over:
            assert controller.phase is Phase.MOVING and controller.last_verdict.kind.value == "complete"
            driver.press(Button.DONE)
        turn = [e for e in journalled(driver.outputs) if e["type"] == "turn"]
        assert len(turn) == 1 and turn[0]["colour"] == position.turn.value
        assert controller.game.turns()[-1].after == get_rule_set(recorded.rules).apply(position, play)
        assert_calm(driver)
        checked += 1
    assert checked > 10


def test_the_pending_play_and_part_of_the_next_turn_are_accepted(recorded: Recorded) -> None:
    """A roll journalled, its play made, the next player's roll thrown and a move of it
    made, all during the restart: once the tray reports the new roll, the turn and the
    roll are journalled and the next player goes on."""
    checked = 0
    rules = get_rule_set(recorded.rules)
    for cut in recorded.cuts:
        driver, point = resumed(recorded, cut)
        controller = driver.controller
        index = made_so_far(recorded, cut)
        if point.pending is None or index + 1 >= len(recorded.made):
            continue
        (_, play), (roll2, play2) = recorded.made[index], recorded.made[index + 1]
        position = controller.game.position
        middle = rules.apply(position, play)
        if middle.winner() is not None or not play2:
            continue
        driver.show(after(recorded.rules, middle, play2, 1))
        assert journalled(driver.outputs) == [], cut  # waits for the dice
        driver.roll(roll2.first, roll2.second)
        kinds = [e["type"] for e in journalled(driver.outputs)]
        assert kinds[:2] == ["turn", "roll"], (cut, kinds, controller.message)
        if controller.phase is not Phase.GAME_OVER:  # (unless that one move won the game)
            assert controller.turn_in_progress is not None and controller.turn_in_progress[0] is middle.turn
            assert controller.last_verdict is not None and controller.last_verdict.kind.value != "wrong"
        assert_calm(driver)
        checked += 1
    assert checked > 10


def test_a_board_no_continuation_explains_is_guided_back(recorded: Recorded) -> None:
    """A checker borne off too early: guided back (restore lights), never warned; once the
    journal's position stands again, the turn goes on with the journalled roll."""
    checked = 0
    for cut in recorded.cuts[::2]:
        driver, point = resumed(recorded, cut)
        controller = driver.controller
        position = controller.game.position
        wrong = impossible(recorded.rules, position)
        if wrong is None:
            continue
        driver.show(wrong)
        if controller.phase is not Phase.RESTORE:  # waits for the dice: they do not explain it
            dice = point.pending or Roll(6, 5)
            driver.roll(dice.first, dice.second)
        assert controller.phase is Phase.RESTORE, (cut, controller.message)
        assert controller.message == "Put the checkers back as lit"
        assert_calm(driver)
        driver.show(position)
        assert controller.phase in (Phase.AWAIT_ROLL, Phase.MOVING), cut
        if point.pending is not None:
            assert controller.turn_in_progress == (position.turn, point.pending)
        checked += 1
    assert checked > 5


def test_a_winning_play_made_during_the_restart_ends_the_game(recorded: Recorded) -> None:
    last_roll = max(i for i, e in enumerate(recorded.entries) if e["type"] in ("roll", "opening"))
    cut = last_roll + 1
    driver, point = resumed(recorded, cut)
    controller = driver.controller
    roll, play = recorded.made[-1]
    if point.pending is None:
        driver.show(after(recorded.rules, controller.game.position, play))
        driver.roll(roll.first, roll.second)
    else:
        driver.show(after(recorded.rules, controller.game.position, play))
    assert controller.phase is Phase.GAME_OVER
    kinds = [e["type"] for e in journalled(driver.outputs)]
    assert kinds[-2:] == ["turn", "game-over"]


# ---------------------------------------------------------------------------------------------
TRICTRAC = get_rule_set("trictrac")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_any_board_a_legal_continuation_explains_is_accepted_others_guided_back(data: hs.DataObject) -> None:
    """Property: after a restart with a roll journalled, a settled board is accepted (the
    turn goes on, no journal, no warning) exactly when it is a state of that roll's turn;
    any other board is guided back, never warned about."""
    rng = random.Random(data.draw(hs.integers(0, 10**6)))
    rules = TRICTRAC
    driver = Driver.new(rules)
    random_game(driver, rng, max_turns=data.draw(hs.integers(1, 40)))
    controller0 = driver.controller
    if controller0.game.is_over:
        return
    if controller0.turn_in_progress is None:
        driver.roll(rng.randint(1, 6), rng.randint(1, 6))
    entries = [entry for out in driver.outputs for entry in out.journal]  # what the runner journalled
    if controller0.turn_in_progress is None:
        return  # a pass
    colour, roll = controller0.turn_in_progress
    position = controller0.game.position
    turn_map = TurnMap(rules, position, roll)
    controller = Controller(Settings(rules))
    controller.resume(entries)
    resumed_driver = Driver(controller, time=driver.time + 10)
    if data.draw(hs.booleans()):
        key = data.draw(hs.sampled_from(sorted(turn_map.states())))
        board = turn_map.position_of(key)
    else:
        mine = list(position.side(colour))
        theirs = list(position.side(colour.opponent))
        frm = data.draw(hs.sampled_from([p for p in range(1, 26) if mine[p]]))
        to = data.draw(hs.integers(0, 24))
        mine[frm] -= 1
        mine[to] += 1
        if to and theirs[rules.opponent_point(to)]:
            return  # a checker on an opposing stack: a fault, not a board
        white, black = (tuple(mine), tuple(theirs)) if colour is Colour.WHITE else (tuple(theirs), tuple(mine))
        try:
            board = rules.validate(Position(white, black, colour))
        except ValueError:
            return
    resumed_driver.show(board)
    key = turn_map.key_of(board.side(colour), board.side(colour.opponent))
    if key in turn_map:
        assert controller.phase in (Phase.MOVING, Phase.GAME_OVER)
        assert not [e for e in journalled(resumed_driver.outputs) if e["type"] != "turn" and e["type"] != "game-over"]
    else:
        assert controller.phase in (Phase.RESTORE, Phase.MOVING)
        if controller.phase is Phase.MOVING:  # waits for the dice, or a hand at work in the turn
            # (a hitter carried past a blot still standing): never a legal board
            assert controller.last_verdict is not None and not controller.last_verdict.is_legal
            resumed_driver.roll(roll.first, roll.second)
        assert controller.phase is Phase.RESTORE or controller.last_verdict.kind.value != "wrong"
    assert_calm(resumed_driver)


def test_an_opening_throw_and_first_moves_made_during_the_restart_are_accepted() -> None:
    """Restarted before the opening was journalled: the board shows White's first moves of
    the opening 5-2; once the tray reports the throw (in either order), the opening is
    journalled and White's turn goes on from there; nothing is warned."""
    rules = get_rule_set("trictrac")
    controller = Controller(Settings(rules))
    controller.resume([controller.begin(0.0).journal[0]])
    assert controller.phase is Phase.SETUP
    driver = Driver(controller, time=10.0)
    start = rules.start_position()
    play = next(p for p in rules.legal_plays(start, Roll(5, 2)) if len(p) == 2)
    driver.show(after("trictrac", start, play, 1))
    assert controller.phase is Phase.SETUP and journalled(driver.outputs) == []
    driver.roll(2, 5)  # the device reports the dice as they lie
    assert [e["type"] for e in journalled(driver.outputs)] == ["opening"]
    assert controller.phase is Phase.MOVING and controller.turn_in_progress == (Colour.WHITE, Roll(5, 2))
    assert controller.last_verdict is not None and controller.last_verdict.is_legal
    driver.show(after("trictrac", start, play))
    driver.press(Button.DONE)
    assert [e["type"] for e in journalled(driver.outputs)] == ["opening", "turn"]
    assert_calm(driver)


def test_a_pass_cut_from_its_roll_and_the_next_turn_begun_are_accepted(recorded: Recorded) -> None:
    """A power cut between a roll and its pass (one write, so only a cut line does that):
    the next player's roll and first move on the board are taken as the pass journalled,
    then the new roll; the board as journalled just journals the pass."""
    cuts = [c for c in range(2, len(recorded.entries)) if recorded.entries[c - 1]["type"] == "roll"
            and recorded.entries[c]["type"] == "turn" and not recorded.entries[c]["moves"]]
    if not cuts:
        pytest.skip("no pass in this game")
    for cut in cuts:
        index = made_so_far(recorded, cut)
        if index + 1 >= len(recorded.made) or not recorded.made[index + 1][1]:
            continue
        driver, point = resumed(recorded, cut)
        controller = driver.controller
        assert controller.phase is Phase.RESTORE and point.pending is not None
        roll2, play2 = recorded.made[index + 1]
        middle = controller.game.position.with_turn(controller.game.turn.opponent)
        driver.show(after(recorded.rules, middle, play2, 1))
        driver.roll(roll2.first, roll2.second)
        kinds = [(e["type"], e.get("moves")) for e in journalled(driver.outputs)]
        assert kinds[:2] == [("turn", []), ("roll", None)], kinds
        assert controller.phase is Phase.MOVING and controller.turn_in_progress == (middle.turn, roll2)
        assert_calm(driver)
        again, _ = resumed(recorded, cut)
        again.show(again.controller.game.position)
        assert [e["type"] for e in journalled(again.outputs)] == ["turn"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_a_board_moved_before_any_roll_is_known_waits_for_the_dice(data: hs.DataObject) -> None:
    """Property: after a restart with no roll journalled, a settled board is neither
    accepted nor warned about until the tray reports a roll; then it is accepted (the roll
    journalled, the turn under way) exactly when it is a state of that roll's turn, and
    guided back otherwise."""
    rng = random.Random(data.draw(hs.integers(0, 10**6)))
    rules = TRICTRAC
    driver = Driver.new(rules)
    random_game(driver, rng, max_turns=data.draw(hs.integers(1, 40)))
    live = driver.controller
    if live.game.is_over:
        return
    if live.turn_in_progress is not None:  # finish the turn as the record has it: a legal play, then Done
        _, roll = live.turn_in_progress
        driver.play_moves(live.game.position, rng.choice(rules.legal_plays(live.game.position, roll)))
        driver.press(Button.DONE)
    if live.game.is_over or live.turn_in_progress is not None:
        return
    entries = [entry for out in driver.outputs for entry in out.journal]
    controller = Controller(Settings(rules))
    controller.resume(entries)
    assert controller.phase is Phase.AWAIT_ROLL
    position = controller.game.position
    dice = Roll(data.draw(hs.integers(1, 6)), data.draw(hs.integers(1, 6)))
    turn_map = TurnMap(rules, position, dice)
    if turn_map.passes:
        return
    if data.draw(hs.booleans()):
        board = turn_map.position_of(data.draw(hs.sampled_from(sorted(turn_map.states()))))
    else:
        mover = position.turn
        mine, theirs = list(position.side(mover)), position.side(mover.opponent)
        frm = data.draw(hs.sampled_from([p for p in range(1, 26) if mine[p]]))
        to = data.draw(hs.integers(0, 24))
        if to and theirs[rules.opponent_point(to)]:
            return
        mine[frm] -= 1
        mine[to] += 1
        white, black = (tuple(mine), theirs) if mover is Colour.WHITE else (theirs, tuple(mine))
        try:
            board = rules.validate(Position(white, black, mover))
        except ValueError:
            return
    resumed_driver = Driver(controller, time=driver.time + 10)
    resumed_driver.show(board)
    moved = board.white != position.white or board.black != position.black
    assert journalled(resumed_driver.outputs) == []
    assert controller.phase in (Phase.AWAIT_ROLL, Phase.RESTORE)
    resumed_driver.tick(5.0)
    resumed_driver.roll(dice.first, dice.second)
    key = turn_map.key_of(board.side(position.turn), board.side(position.turn.opponent))
    kinds = [e["type"] for e in journalled(resumed_driver.outputs)]
    if key in turn_map:
        assert kinds[:1] == ["roll"] and controller.phase in (Phase.MOVING, Phase.GAME_OVER), (kinds, controller.message)
    elif moved:
        # a board the new turn explains as a hand at work (a hitter carried past a blot still
        # standing) is played on; any other is guided back
        verdict = Tracker(turn_map).judge(controller.reader.position_reading(board))
        expected = Phase.RESTORE if verdict.kind is Kind.WRONG else Phase.MOVING
        assert controller.phase is expected, controller.message
    assert_calm(resumed_driver)
