"""The computer on the board: its play lit move by move, carried out by a person's hand on
the simulated board, accepted in any order of its moves, anything else warned; hints on
Menu; Takeback undoing the person's turn with the computer's reply (issue 10, part 3-4)."""

from __future__ import annotations

from controller.engine import Engine
from controller.machine import Phase
from controller.rules import Colour, Roll, get_rule_set
from hal.interfaces import Button, LightColour, LightMode
from hal.zones import Zone

from scenario_kit import B, W, Scene, opened, scene

ENGINES: dict[str, Engine] = {}


def engine(rules: str = "trictrac") -> Engine:
    if rules not in ENGINES:
        ENGINES[rules] = Engine(get_rule_set(rules))
    return ENGINES[rules]


class Broken:
    """An engine that fails (as a gnubg process that died would)."""

    name = "broken"

    def choose(self, position, roll, plays=None, rng=None):
        raise RuntimeError("engine process gone")

    def rank(self, position, roll):
        raise RuntimeError("engine process gone")


def lit_move(s: Scene) -> tuple[Zone, Zone]:
    """The move the lights show in the engine's colour: (from, to)."""
    lit = {z: mode for z, (colour, mode) in s.all_lit().items() if colour is LightColour.ENGINE}
    frm = [z for z, mode in lit.items() if mode is LightMode.STEADY]
    to = [z for z, mode in lit.items() if mode is LightMode.BLINK]
    assert len(frm) == 1 and len(to) == 1, (s.message, s.all_lit())
    return frm[0], to[0]


def carry_out(s: Scene, colour: Colour, limit: int = 4) -> int:
    """Follow the lights until the computer's play stands; the moves made."""
    made = 0
    while "done" not in s.message:
        assert made < limit, s.message
        frm, to = lit_move(s)
        s.move(frm, to, colour)
        hit = [z for z, (c, _) in s.all_lit().items() if c is LightColour.HIT]
        if hit:  # the hit checker goes to its bar: from the hit point to the blinking waiting zone
            waiting = next(z for z in hit if z.startswith("wait"))
            s.move(to, waiting, colour.opponent)
        made += 1
    return made


def white_opens(**more) -> Scene:
    """Trictrac, Black the computer: White opens 3-1 with 8/5 6/5 and throws Black's roll."""
    s = opened(dice=(3, 1), computer={B: engine()}, **more)
    s.move("8", "5", W)
    s.move("6", "5", W)
    s.press(Button.DONE)
    return s


def test_the_computers_play_is_lit_move_by_move_and_recorded_when_carried_out() -> None:
    s = white_opens()
    s.throw(6, 4)
    chosen = engine().choose(s.controller.game.position, Roll(6, 4))
    assert s.controller.computer_play is not None and "plays" in s.message
    frm, to = lit_move(s)
    assert s.all_lit()[frm] == (LightColour.ENGINE, LightMode.STEADY)
    assert s.all_lit()[to] == (LightColour.ENGINE, LightMode.BLINK)
    assert carry_out(s, B) == len(chosen)
    s.throw(2, 1)
    assert s.warnings() == 0
    assert s.entries("turn")[-1]["colour"] == "black"
    assert s.controller.game.turns()[-1].play == chosen
    assert s.controller.turn_in_progress == (W, Roll(2, 1))


def test_the_same_moves_in_another_order_are_accepted() -> None:
    s = white_opens()
    s.throw(5, 2)
    plan = s.controller._state.turn.plan
    moves = list(plan.moves_from(s.controller._state.last_legal))
    assert len(moves) == 2
    if moves[1].frm != moves[0].to:  # two checkers: the second first
        moves.reverse()
    for move in moves:
        s.move(s.zone(B, move.frm), s.zone(B, move.to), B)
    s.press(Button.DONE)
    assert s.warnings() == 0, s.message
    assert s.controller.game.turns()[-1].play == plan.play or s.controller.game.position == s.controller.game.turns()[-1].after


def test_another_legal_play_is_warned_until_put_back() -> None:
    s = white_opens()
    s.throw(6, 4)
    state = s.controller._state
    plan, start = state.turn.plan, state.last_legal
    wrong = next(m for m in state.turn.map.next_moves(start) if all(m[:3] != w[:3] for w, _ in plan.ways[start]))
    s.move(s.zone(B, wrong.frm), s.zone(B, wrong.to), B)
    s.advance(1.5)
    assert s.warnings() == 1 and s.controller.warning
    assert "Not builtin:best's play" in s.message
    assert s.lit(LightColour.WARNING)
    s.move(s.zone(B, wrong.to), s.zone(B, wrong.frm), B)  # put back
    assert not s.controller.warning
    carry_out(s, B)
    s.press(Button.DONE)
    assert s.phase is Phase.AWAIT_ROLL
    assert s.controller.game.turns()[-1].play == engine().choose(s.controller.game.turns()[-1].before, Roll(6, 4))


def test_with_substitutes_allowed_another_legal_play_stands() -> None:
    s = white_opens(substitute=True)
    s.throw(6, 4)
    s.move(s.zone(B, 24), s.zone(B, 18), B)
    s.move(s.zone(B, 18), s.zone(B, 14), B)
    s.press(Button.DONE)
    assert s.warnings() == 0 and s.phase is Phase.AWAIT_ROLL
    assert [str(m) for m in s.controller.game.turns()[-1].play] in (["24/18", "18/14"], ["24/20", "20/14"])


def test_menu_lights_the_hint_and_lists_the_best_plays_with_equities() -> None:
    s = opened(dice=(3, 1), hints=engine())
    logs_before = len(s.table.logs)
    s.press(Button.MENU)
    hints = s.controller.hints
    assert hints and hints[0][0] == "8/5 6/5"  # the textbook 3-1: make the 5 point
    assert all(a[1] >= b[1] for a, b in zip(hints[1:], hints[2:]))
    assert any(line.startswith("hint 1: 8/5 6/5") for line in s.table.logs[logs_before:])
    frm, to = lit_move(s)
    assert "Hint" in s.message
    s.move(frm, to, W)
    frm, to = lit_move(s)
    s.move(frm, to, W)
    s.press(Button.DONE)
    assert [str(m) for m in s.controller.game.turns()[-1].play] in (["8/5", "6/5"], ["6/5", "8/5"])


def test_takeback_undoes_the_persons_turn_and_the_computers_reply() -> None:
    s = white_opens()
    s.throw(6, 4)
    carry_out(s, B)
    s.press(Button.DONE)
    assert s.phase is Phase.AWAIT_ROLL and len(s.controller.game.turns()) == 2
    start = s.controller.game.turns()[0].before
    s.press(Button.TAKEBACK)
    assert [e["colour"] for e in s.entries("takeback")] == ["black", "white"]
    assert s.phase is Phase.RESTORE and not s.controller.game.turns()
    s.set_position(start)
    assert s.phase is Phase.MOVING and s.controller.turn_in_progress == (W, Roll(3, 1))


def test_a_failing_engine_leaves_the_turn_to_any_legal_play() -> None:
    s = opened(dice=(3, 1), computer={B: Broken()})
    s.move("8", "5", W)
    s.move("6", "5", W)
    s.press(Button.DONE)
    s.throw(6, 4)
    assert any("broken could not choose" in line for line in s.table.logs)
    s.move(s.zone(B, 24), s.zone(B, 18), B)
    s.move(s.zone(B, 18), s.zone(B, 14), B)
    s.press(Button.DONE)
    assert s.warnings() == 0 and s.phase is Phase.AWAIT_ROLL


def test_a_whole_game_person_against_computer_on_the_simulated_board() -> None:
    """The simulated person carries the computer's plays from the lights, sometimes
    wrongly: every wrong move is warned, no false warning, every play recorded."""
    from controller.machine import Settings
    from simulator.players import Behaviour, GreedyPlayer, RandomPlayer
    from simulator.table import Table

    for rules, seed in (("trictrac", 3), ("rally-hitting", 4)):
        settings = Settings(get_rule_set(rules), computer={W: engine(rules)})
        table = Table(settings, seed=seed, behaviour=Behaviour(illegal_rate=0.5), players=(RandomPlayer(), GreedyPlayer()))
        report = table.play_match()
        assert report.finished == 1 and not report.mismatches and not report.false_warnings, report.mismatches
        assert report.illegal_attempts >= 3 and report.attempts_warned == report.illegal_attempts
        chosen = [t for t in table.controller.game.turns() if t.colour is W and t.play]
        assert chosen and all(t.play and engine(rules).choose(t.before, t.roll) for t in chosen)
        for turn in chosen:  # each recorded play is the engine's choice (the same board)
            assert get_rule_set(rules).apply(turn.before, engine(rules).choose(turn.before, turn.roll)) == turn.after


def test_fast_hands_over_the_serial_link_never_lose_a_roll() -> None:
    """Found by the serial 5x soak (trictrac, seed 110003302): the person's last checker
    still in the hand, the computer's dice were thrown 0.24 s after the person's, before the
    board's tray had read them; the person's roll never reached the controller and the game
    fell apart.  The simulated players now leave the dice ``DICE_GAP`` between throws."""
    from controller.machine import Settings
    from simulator.players import Behaviour, GreedyPlayer, RandomPlayer
    from simulator.sensors import NoiseModel
    from simulator.table import DICE_GAP, Table

    settings = Settings(get_rule_set("trictrac"), computer={W: Engine(get_rule_set("trictrac"), "intermediate")})
    table = Table(settings, seed=110003302, noise=NoiseModel.scaled(2.5), link="serial",
                  behaviour=Behaviour.real_hands(illegal_rate=0.5, speed=5.0), players=(RandomPlayer(), GreedyPlayer()))
    throws: list[float] = []
    throw = table.throw

    def noted(a: int, b: int) -> None:
        throws.append(table.sim.clock.now())
        throw(a, b)

    table.throw = noted  # type: ignore[method-assign]
    try:
        report = table.play_match()
    finally:
        table.close()
    assert report.finished == 1 and not report.mismatches and not report.false_warnings, report.mismatches
    assert report.attempts_warned == report.illegal_attempts > 0
    assert min(b - a for a, b in zip(throws, throws[1:])) >= DICE_GAP - 1e-9


def test_a_restart_during_the_computers_turn_lights_the_same_play_again(tmp_path) -> None:
    from controller.journal import Journal
    from controller.runner import open_controller

    path = tmp_path / "journal.jsonl"
    s = opened(dice=(3, 1), computer={B: engine()}, journal=Journal(path))
    s.move("8", "5", W)
    s.move("6", "5", W)
    s.press(Button.DONE)
    s.throw(6, 4)
    chosen = engine().choose(s.controller.game.position, Roll(6, 4))
    frm, to = lit_move(s)
    s.move(frm, to, B)
    board = s.board_counts()
    s.table.runner.journal.close()
    logs: list[str] = []
    controller, begin = open_controller(s.controller.settings, Journal(path), logs.append, s.now + 5)
    assert begin is None and controller.settings.computer == {B: engine()}
    again = scene(controller=controller)
    again.board.set_zones(board)
    again.advance(0.5)
    assert again.controller.computer_play == s.controller.computer_play
    carry_out(again, B)
    again.press(Button.DONE)
    assert again.warnings() == 0 and again.controller.game.turns()[-1].play == chosen


def test_the_board_asks_for_the_computers_dice() -> None:
    s = white_opens()
    assert s.message == "Black (builtin:best) to roll: throw its dice"


def test_a_double_counts_its_moves_down_so_the_same_lit_move_twice_is_clear() -> None:
    s = white_opens()
    s.throw(4, 4)
    seen = []
    while "done" not in s.message:
        seen.append(s.message.rsplit("(", 1)[-1])
        frm, to = lit_move(s)
        s.move(frm, to, B)
        for zone, (colour, _) in s.all_lit().items():
            if colour is LightColour.HIT and zone.startswith("wait"):
                s.move(to, zone, W)
    assert seen == ["4 to go)", "3 to go)", "2 to go)", "the last)"]
    s.press(Button.DONE)
    assert s.warnings() == 0 and s.controller.game.turns()[-1].play == engine().choose(s.controller.game.turns()[-1].before, Roll(4, 4))
