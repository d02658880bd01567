"""GNU Backgammon as an engine (engines.gnubg), with the real gnubg: these tests fail, never
skip, when it is not installed (CI installs Debian's gnubg)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from controller.engine import EngineError
from controller.rules import BAR, OFF, Play, Position, Roll, get_rule_set
from controller.rules.game import Game
from controller.rules.values import BLACK, WHITE, Colour
from engines.gnubg import GnubgEngine, GnubgError, GnubgMissing, board_after, board_of, parse_level
from simulator.engine_player import strategy, strategy_names

ROOT = Path(__file__).resolve().parent.parent
RULES = ("backgammon", "trictrac")


@pytest.fixture(scope="module")
def engines() -> dict[str, GnubgEngine]:
    made = {name: GnubgEngine(get_rule_set(name)) for name in RULES}
    yield made
    for engine in made.values():
        engine.close()


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    counts = [0] * 26
    for point, count in points.items():
        counts[point] = count
    counts[BAR] = bar
    counts[OFF] = 15 - sum(counts)
    return tuple(counts)


def position(mover: tuple[int, ...], other: tuple[int, ...], turn: Colour = WHITE) -> Position:
    """A position with ``mover`` (own numbering) to play as ``turn``."""
    return Position(mover, other, turn) if turn is WHITE else Position(other, mover, turn)


def sweep(name: str, games: int, seed: int) -> list[tuple[Position, Roll, tuple[Play, ...]]]:
    """Every decision of a few games between random players: bar and bear-off positions included."""
    rules = get_rule_set(name)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        game = Game(rules, cube_allowed=False)
        while game.opening is None:
            game.throw_opening(rng.randint(1, 6), rng.randint(1, 6))
        while not game.is_over:
            roll = game.pending_roll or Roll(rng.randint(1, 6), rng.randint(1, 6))
            plays = game.legal_plays(roll)
            if plays:
                found.append((game.position, roll, plays))
            game.play(roll, rng.choice(plays) if plays else Play())
    return found


@pytest.mark.parametrize("name", RULES)
def test_the_choice_is_always_one_of_our_legal_plays(engines: dict[str, GnubgEngine], name: str) -> None:
    engine = engines[name]
    decisions = sweep(name, 4, seed=10 + len(name))
    on_bar = bearing_off = 0
    for index, (pos, roll, plays) in enumerate(decisions):
        mine = pos.side(pos.turn)
        on_bar += mine[BAR] > 0
        bearing_off += not any(mine[7:BAR + 1])
        ranked = engine.rank(pos, roll)
        assert sorted(map(tuple, (play for play, _ in ranked))) == sorted(map(tuple, plays)), (pos, roll)
        values = [value for _, value in ranked]
        assert values == sorted(values, reverse=True)
        if index % 4 == 0:
            assert engine.choose(pos, roll, plays) == ranked[0][0]
        assert engine.choose(pos, roll, plays[:1]) == plays[0]
    assert on_bar > 5 and bearing_off > 5, (on_bar, bearing_off)


@pytest.mark.parametrize("name", RULES)
def test_bear_offs_gnubg_might_drop_are_ranked(engines: dict[str, GnubgEngine], name: str) -> None:
    """Mendelev's case: 5-4 with the 6, 5 and 4 points empty bears two off the 3 point; every
    bear-off of ours is ranked, whatever gnubg's own generator lists."""
    rules = get_rule_set(name)
    pos = position(side({3: 3, 2: 2, 1: 2}), side({6: 5, 5: 5, 4: 5}))
    for roll in (Roll(5, 4), Roll(6, 6), Roll(4, 1), Roll(3, 3)):
        plays = rules.legal_plays(pos, roll)
        ranked = engines[name].rank(pos, roll)
        assert {tuple(p) for p, _ in ranked} == {tuple(p) for p in plays}
    best = engines[name].choose(pos, Roll(5, 4))
    assert [move.to for move in best] == [OFF, OFF]


@pytest.mark.parametrize("turn", [WHITE, BLACK])
@pytest.mark.parametrize("name", RULES)
def test_gnubg_bears_off_the_last_checkers_to_win(engines: dict[str, GnubgEngine], name: str, turn: Colour) -> None:
    rules = get_rule_set(name)
    pos = position(side({2: 1, 1: 1}), side({1: 5, 2: 5, 3: 5}), turn)
    roll = Roll(2, 1)
    assert len(rules.legal_plays(pos, roll)) > 1
    best = engines[name].choose(pos, roll)
    assert rules.apply(pos, best).side(turn)[OFF] == 15
    assert engines[name].rank(pos, roll)[0][1] >= 0.99


@pytest.mark.parametrize("turn", [WHITE, BLACK])
@pytest.mark.parametrize("name", RULES)
def test_gnubg_hits_the_escaping_blot(engines: dict[str, GnubgEngine], name: str, turn: Colour) -> None:
    """One opposing checker left in the mover's outfield: hitting it turns a lost race into a
    likely gammon."""
    pos = position(side({13: 2, 6: 5, 5: 4, 4: 4}), side({15: 1, 6: 4, 5: 4, 4: 3, 3: 3}), turn)
    roll = Roll(3, 1)
    ranked = engines[name].rank(pos, roll)
    assert any(play.hits == 0 for play, _ in ranked)
    assert ranked[0][0].hits == 1
    assert engines[name].choose(pos, roll).hits == 1
    best_quiet = max(value for play, value in ranked if play.hits == 0)
    assert ranked[0][1] > best_quiet + 0.3


@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_evaluate_is_for_the_side_to_move(engines: dict[str, GnubgEngine], turn: Colour) -> None:
    winning = position(side({1: 5, 2: 5, 3: 5}), side({13: 15}), turn)
    losing = position(side({13: 15}), side({1: 5, 2: 5, 3: 5}), turn)
    ahead, behind = engines["backgammon"].evaluate(winning), engines["backgammon"].evaluate(losing)
    assert ahead.win > 0.99 and ahead.equity > 1.5 and ahead.wins_at_least[2] > 0.9
    assert behind.win < 0.01 and behind.equity < -1.5


@pytest.mark.parametrize("name", RULES)
def test_listed_and_lone_judgements_agree(engines: dict[str, GnubgEngine], name: str) -> None:
    """A play gnubg's list lacks is judged alone, the opponent on roll: the same value as listed."""
    engine = engines[name]
    rules = get_rule_set(name)
    for pos, roll, _ in sweep(name, 1, seed=3)[5:40:7]:
        ranked = engine.rank(pos, roll)
        afters = [rules.apply(pos, play) for play, _ in ranked[:4]]
        alone = engine._evaluate(afters)
        for (_, listed), (_, equity) in zip(ranked, alone):
            assert listed == pytest.approx(-equity, abs=1e-5)


def test_the_choice_is_deterministic() -> None:
    decisions = sweep("backgammon", 1, seed=5)[:25]
    choices = []
    for _ in range(2):
        with GnubgEngine(get_rule_set("backgammon")) as engine:
            choices.append([engine.choose(pos, roll, plays, random.Random(n)) for n, (pos, roll, plays) in enumerate(decisions)])
    assert choices[0] == choices[1]


def test_a_pass_is_an_empty_play(engines: dict[str, GnubgEngine]) -> None:
    closed = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    pos = position(side({6: 14}, bar=1), closed)
    assert engines["backgammon"].choose(pos, Roll(6, 5)) == Play()
    assert engines["backgammon"].rank(pos, Roll(6, 5)) == []


def test_board_conversion_follows_gnubg() -> None:
    pos = position(side({24: 2, 13: 5, 8: 3, 6: 5}), side({24: 1, 13: 5, 8: 3, 6: 5}, bar=1), BLACK)
    waiting, mover = board_of(pos, BLACK)
    assert mover[23] == 2 and waiting[24] == 1 and waiting[23] == 1
    waiting2, mover2 = board_after((waiting, mover), [(24, 1)])  # lands on the waiting player's 24: a hit
    assert mover2[0] == 1 and waiting2[23] == 0 and waiting2[24] == 2


def test_an_impossible_position_is_refused_before_gnubg_sees_it(engines: dict[str, GnubgEngine]) -> None:
    clash = position(side({1: 2, 6: 13}), side({24: 2, 6: 13}))  # both on the same point
    with pytest.raises(ValueError, match="point"):
        engines["backgammon"].rank(clash, Roll(2, 1))


def test_a_missing_gnubg_says_how_to_install() -> None:
    with pytest.raises(GnubgMissing, match="apt-get install gnubg"):
        GnubgEngine(get_rule_set("backgammon"), program="/nonexistent/gnubg")


def test_a_program_that_is_not_gnubg_is_a_clear_error() -> None:
    with GnubgEngine(get_rule_set("backgammon"), program="/bin/true") as engine:
        with pytest.raises(GnubgError, match="gnubg exited"):
            engine.evaluate(get_rule_set("backgammon").start_position())


def test_a_killed_gnubg_is_a_clear_error_and_starts_again() -> None:
    rules = get_rule_set("backgammon")
    start = rules.start_position()
    with GnubgEngine(rules) as engine:
        engine.evaluate(start)
        pid = engine.process.pid
        assert pid is not None
        os.kill(pid, 9)
        with pytest.raises(GnubgError, match="exited"):
            engine.evaluate(start)
        assert engine.evaluate(start).win == pytest.approx(0.5, abs=0.05)
        pid = engine.process.pid
    assert not engine.process.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize("name", ["rally", "rally-hitting"])
def test_the_rally_is_refused(name: str) -> None:
    with pytest.raises(EngineError, match="trictrac and backgammon only"):
        GnubgEngine(get_rule_set(name))


def test_levels() -> None:
    assert [parse_level(text) for text in ("0", "1ply", "2-ply", 0)] == [0, 1, 2, 0]
    with pytest.raises(EngineError, match="unknown gnubg level"):
        parse_level("3")
    assert {"gnubg", "gnubg:0", "gnubg:1", "gnubg:2"} <= set(strategy_names())
    assert strategy("gnubg:1").name == "gnubg:1"
    with GnubgEngine(get_rule_set("backgammon"), "1") as engine:
        pos, roll, plays = sweep("backgammon", 1, seed=2)[3]
        assert engine.choose(pos, roll, plays) in plays


def test_simulate_with_gnubg_runs_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "simulate", "--white", "gnubg", "--black", "random",
         "--games", "2", "--json"], capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["players"]["white"] in ("gnubg", "gnubg:0")
    assert report["wins"]["white"] + report["wins"]["black"] == 2 and report["mismatches"] == []


def test_simulate_without_gnubg_is_one_line() -> None:
    env = {**os.environ, "TRICTRAC_GNUBG": "/nonexistent/gnubg"}
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "simulate", "--white", "gnubg", "--black", "random", "--games", "1"],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT, env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "apt-get install gnubg" in done.stderr


def test_simulate_refuses_gnubg_for_the_rally_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "simulate", "--rules", "rally", "--white", "gnubg", "--black",
         "random", "--games", "1"], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "trictrac and backgammon only" in done.stderr
