"""The doubling cube on the board (backgammon): Menu offers before the roll, Done takes,
Takeback passes; refused where it is not allowed; dice during an offer; the lights, the
journal and a restart during an offer; the computer's doubles and answers."""

from __future__ import annotations

from typing import Sequence

from controller.engine import Engine
from controller.engine.cube import cube_action
from controller.machine import Controller, Phase, Settings
from controller.rules import get_rule_set
from controller.rules.game import Game, Match
from controller.rules.values import BLACK, WHITE, Play, Position, Roll
from drive import Driver
from hal.interfaces import Button, LightColour, LightMode

RULES = get_rule_set("backgammon")


def journal(driver: Driver) -> list[dict]:
    return [entry for out in driver.outputs for entry in out.journal]


def cube_entries(driver: Driver) -> list[tuple[str, str, int]]:
    return [(e["colour"], e["action"], e["value"]) for e in journal(driver) if e["type"] == "cube"]


def first_turn(driver: Driver, a: int = 3, b: int = 1, then: Phase = Phase.AWAIT_ROLL) -> None:
    """Set up, throw the opening (White wins with 3-1), play the first legal play and press Done."""
    controller = driver.controller
    rules = controller.settings.rules
    driver.show(rules.start_position())
    driver.roll(a, b)
    progress = controller.turn_in_progress
    assert progress is not None
    position = controller.game.position
    driver.play_moves(position, rules.legal_plays(position, progress[1])[0])
    driver.press(Button.DONE)
    assert controller.phase is then


def play_turn(driver: Driver, a: int, b: int) -> None:
    """The player to move throws ``a``-``b`` and plays the first legal play, then Done."""
    controller = driver.controller
    driver.roll(a, b)
    progress = controller.turn_in_progress
    if progress is not None:
        position = controller.game.position
        driver.play_moves(position, controller.settings.rules.legal_plays(position, progress[1])[0])
        driver.press(Button.DONE)
    assert controller.phase is Phase.AWAIT_ROLL


def test_menu_offers_and_done_takes() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    assert controller.phase is Phase.CUBE_OFFERED
    assert "Black doubles to 2" in controller.message and "Done takes, Takeback passes" in controller.message
    assert controller.frame.light("off-black").mode is LightMode.BLINK  # the doubler's tray blinks
    assert controller.frame.light("wait-white").colour is LightColour.TURN  # the answerer's call
    assert controller.game.offered_by is BLACK
    driver.press(Button.DONE)
    assert controller.phase is Phase.AWAIT_ROLL
    assert (controller.game.cube_value, controller.game.cube_owner) == (2, WHITE)
    assert "White takes: the cube is at 2" in controller.message
    assert controller.frame.light("off-white").colour is LightColour.TURN  # the owner's tray, steady
    assert controller.frame.light("off-white").mode is LightMode.STEADY
    assert cube_entries(driver) == [("black", "double", 2), ("white", "take", 2)]
    play_turn(driver, 5, 2)  # Black rolls and plays on
    assert "cube 2, white's" in controller.message


def test_takeback_passes_and_the_doubler_wins_the_cube() -> None:
    driver = Driver.new(RULES, match_length=3)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    driver.press(Button.TAKEBACK)
    assert controller.phase is Phase.GAME_OVER
    result = controller.game.result()
    assert result is not None and (result.winner, result.points, result.kind) == (BLACK, 1, "drop")
    assert controller.match.score == {WHITE: 0, BLACK: 1}
    assert cube_entries(driver) == [("black", "double", 2), ("white", "drop", 2)]
    over = [e for e in journal(driver) if e["type"] == "game-over"]
    assert over == [{**over[0], "winner": "black", "points": 1, "kind": "drop"}]
    assert driver.outputs[-1].finished == result
    driver.press(Button.DONE)  # the match goes on
    assert controller.phase is Phase.SETUP and len(controller.match.games) == 2


def test_a_redouble_and_a_pass_score_the_cube() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    driver.press(Button.DONE)  # White owns 2
    play_turn(driver, 5, 2)
    driver.press(Button.MENU)  # White redoubles to 4
    assert "White doubles to 4" in controller.message
    driver.press(Button.TAKEBACK)
    result = controller.game.result()
    assert result is not None and (result.winner, result.points) == (WHITE, 2)


def test_dice_during_an_offer_are_no_turn() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    before = len(journal(driver))
    driver.roll(6, 5)
    assert controller.phase is Phase.CUBE_OFFERED
    assert "Answer the double first" in controller.message
    assert len(journal(driver)) == before
    driver.press(Button.DONE)
    driver.roll(6, 5)
    assert controller.phase is Phase.MOVING


def test_no_double_from_the_player_without_the_cube() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    driver.press(Button.DONE)  # White owns the cube; Black rolls
    before = len(journal(driver))
    driver.press(Button.MENU)
    assert controller.phase is Phase.AWAIT_ROLL
    assert "No double: white owns the cube" in controller.message
    assert len(journal(driver)) == before


def test_no_double_in_the_crawford_game() -> None:
    driver = Driver.new(RULES, match_length=2)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    driver.press(Button.TAKEBACK)  # Black 1: one away in a 2-point match
    driver.press(Button.DONE)
    first_turn(driver)
    assert not controller.game.cube_allowed
    before = len(journal(driver))
    driver.press(Button.MENU)
    assert controller.phase is Phase.AWAIT_ROLL
    assert "No double: no doubling in the Crawford game" in controller.message
    assert len(journal(driver)) == before


def test_menu_in_the_rule_sets_without_a_cube_says_what_it_always_said() -> None:
    for name in ("trictrac", "rally", "rally-hitting"):
        rules = get_rule_set(name)
        driver = Driver.new(rules)
        controller = driver.controller
        driver.show(rules.start_position())
        driver.roll(3, 1)
        if controller.phase is Phase.MOVING:
            progress = controller.turn_in_progress
            assert progress is not None
            position = controller.game.position
            driver.play_moves(position, rules.legal_plays(position, progress[1])[0])
            driver.press(Button.DONE)
        assert controller.phase is Phase.AWAIT_ROLL
        driver.press(Button.MENU)
        assert controller.phase is Phase.AWAIT_ROLL
        assert controller.message == f"{name}: await roll, {controller.game.turn.value} to play"
        assert not cube_entries(driver)


def test_a_cube_action_is_not_taken_back() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    controller = driver.controller
    driver.press(Button.MENU)
    driver.press(Button.DONE)
    driver.press(Button.TAKEBACK)
    assert controller.phase is Phase.AWAIT_ROLL
    assert (controller.game.cube_value, controller.game.cube_owner) == (2, WHITE)


def test_a_restart_during_an_offer_resumes_the_offer() -> None:
    driver = Driver.new(RULES)
    first_turn(driver)
    driver.press(Button.MENU)
    resumed = Controller(Settings(RULES))
    resumed.resume(journal(driver))
    assert resumed.phase is Phase.CUBE_OFFERED and resumed.game.offered_by is BLACK
    again = Driver(resumed, time=driver.time)
    again.show(resumed.game.position)
    assert resumed.phase is Phase.CUBE_OFFERED and not resumed.warning
    again.press(Button.DONE)
    assert resumed.phase is Phase.AWAIT_ROLL and resumed.game.cube_owner is WHITE
    assert [e["action"] for e in journal(again) if e["type"] == "cube"] == ["take"]


# ----------------------------------------------------------------------------- the computer


class Scripted:
    """A computer opponent whose plays are the engine's and whose cube actions are scripted."""

    def __init__(self, actions: Sequence[str]) -> None:
        self.engine = Engine(RULES, "intermediate")
        self.name = "scripted"
        self.actions = list(actions)
        self.asked: list[str] = []

    def choose(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None, rng=None) -> Play:  # type: ignore[no-untyped-def]
        return self.engine.choose(position, roll, plays, rng)

    def rank(self, position: Position, roll: Roll) -> list[tuple[Play, float]]:
        return self.engine.rank(position, roll)

    def cube_action(self, game: Game, match: Match) -> str:
        self.asked.append("answer" if game.offered_by is not None else "offer")
        return self.actions.pop(0) if self.actions else "no double"


def carry_computer_play(driver: Driver) -> None:
    """A person carries the computer's lit play, then presses Done."""
    controller = driver.controller
    plan = controller.plan
    assert plan is not None
    driver.play_moves(controller.game.position, plan.play)
    driver.press(Button.DONE)


def test_the_computer_answers_a_double_at_once() -> None:
    computer = Scripted(["drop"])
    driver = Driver.new(RULES, computer={WHITE: computer})
    controller = driver.controller
    driver.show(RULES.start_position())
    driver.roll(3, 1)  # White (the computer) plays first
    carry_computer_play(driver)
    assert controller.phase is Phase.AWAIT_ROLL and controller.game.turn is BLACK
    driver.press(Button.MENU)
    assert controller.phase is Phase.GAME_OVER
    assert "White (scripted) passes" in controller.message
    assert cube_entries(driver) == [("black", "double", 2), ("white", "drop", 2)]


def test_menu_does_not_double_for_the_computer() -> None:
    computer = Scripted(["no double"])
    driver = Driver.new(RULES, computer={BLACK: computer})
    controller = driver.controller
    first_turn(driver)
    assert computer.asked == ["offer"]
    driver.press(Button.MENU)
    assert controller.phase is Phase.AWAIT_ROLL
    assert "No double: black (scripted) decides its own cube" in controller.message


def test_the_computer_doubles_when_its_turn_to_roll_begins() -> None:
    computer = Scripted(["double"])
    driver = Driver.new(RULES, computer={BLACK: computer})
    controller = driver.controller
    first_turn(driver, then=Phase.CUBE_OFFERED)  # White (the person) plays and presses Done: Black may double

    assert "Black (scripted) doubles to 2" in controller.message
    assert computer.asked == ["offer"]
    driver.press(Button.DONE)  # the person takes
    assert controller.phase is Phase.AWAIT_ROLL and controller.game.cube_owner is WHITE
    driver.tick(1.0)
    assert computer.asked == ["offer"]  # asked once a turn


def test_the_built_in_engine_decides_the_cube() -> None:
    engine = Engine(RULES, "intermediate")
    match = Match(RULES, 0)
    game = match.new_game()
    game.throw_opening(3, 1)
    game.position = Position.from_counts({1: 4, 2: 4, 3: 4}, {6: 4, 5: 4, 4: 4}, turn=WHITE, white_off=3, black_off=3)
    assert engine.cube_action(game, match) == cube_action(engine, game, match) == "double"


def test_the_computers_dice_over_a_complete_play_let_it_double_first() -> None:
    """The person plays and throws the computer's dice at once: the play ends the turn, the
    computer doubles, the throw is void; after the take the dice are thrown again."""
    computer = Scripted(["double"])
    driver = Driver.new(RULES, computer={BLACK: computer})
    controller = driver.controller
    driver.show(RULES.start_position())
    driver.roll(3, 1)
    position = controller.game.position
    driver.play_moves(position, RULES.legal_plays(position, Roll(3, 1))[0])
    driver.roll(6, 5)  # Black's dice, thrown over White's complete play
    assert controller.phase is Phase.CUBE_OFFERED and computer.asked == ["offer"]
    assert len(controller.game.turns()) == 1
    assert not [e for e in journal(driver) if e["type"] == "roll"]
    driver.press(Button.DONE)
    driver.roll(6, 5)
    assert controller.turn_in_progress == (BLACK, Roll(6, 5))


def test_the_computers_dice_over_a_complete_play_are_its_roll_when_it_does_not_double() -> None:
    computer = Scripted(["no double"])
    driver = Driver.new(RULES, computer={BLACK: computer})
    controller = driver.controller
    driver.show(RULES.start_position())
    driver.roll(3, 1)
    position = controller.game.position
    driver.play_moves(position, RULES.legal_plays(position, Roll(3, 1))[0])
    driver.roll(6, 5)
    assert computer.asked == ["offer"]
    assert controller.turn_in_progress == (BLACK, Roll(6, 5))
    assert [e["type"] for e in journal(driver)][-2:] == ["turn", "roll"]
