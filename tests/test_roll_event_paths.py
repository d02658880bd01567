"""The roll event's faster paths give exactly what the plain ones gave: the turn entry's
notation and position JSON, the end of a play the map gave (``TurnMap.end_of``), and the
source lights after a roll.  Each is compared with the code it replaced, kept here."""

from __future__ import annotations

from collections import Counter
from typing import Callable

from hypothesis import HealthCheck, given, settings

from controller import guidance
from controller.notation.moves import format_play
from controller.notation.position_json import position_to_json
from controller.rules import BAR, OFF, BLACK, WHITE, Move, Play, TurnMap
from controller.rules.base import RuleSet
from controller.tracking import BoardReader
from hal.interfaces import Light, LightColour, LightFrame

try:  # pytest puts tests/ on the path (rootdir without __init__.py) ...
    from strategies import cases, doubles
except ImportError:  # ... or the repository root, when tests/ is a package
    from tests.strategies import cases, doubles  # type: ignore[no-redef]

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the code replaced, as it was --------------------------------------------------------------
def _old_chains(play: Play) -> list[list[Move]]:
    chains: list[list[Move]] = []
    for move in play.moves:
        for chain in chains:
            if chain[-1].to == move.frm and move.frm not in (BAR, OFF) and not any(
                c is not chain and c[0].frm == move.frm for c in chains
            ):
                chain.append(move)
                break
        else:
            chains.append([move])
    return chains


def _old_render(play: Play, name: Callable[[int], str]) -> str:
    texts = []
    for chain in _old_chains(play):
        parts = [name(chain[0].frm)]
        for move in chain:
            parts.append(name(move.to) + ("*" if move.hit else ""))
        texts.append("/".join(parts))
    counted = Counter(texts)
    out: list[str] = []
    for text in texts:
        if text in counted:
            n = counted.pop(text)
            out.append(f"{text}({n})" if n > 1 else text)
    return " ".join(out)


def old_format_play(play: Play, rules: RuleSet) -> str:
    entry = "bar" if rules.MIRRORED else "pool"
    return _old_render(play, lambda p: entry if p == BAR else "off" if p == OFF else str(p))


def old_position_to_json(rules: RuleSet, position) -> dict:
    rules.validate(position)
    document: dict = {"rules": rules.name}
    options = rules.changed_options()
    if options:
        document["options"] = dict(sorted(options.items()))
    document["turn"] = position.turn.value
    for colour in (WHITE, BLACK):
        points = {str(point): count for point, count in position.points(colour).items()}
        document[colour.value] = {"points": points, "bar": position.bar(colour), "off": position.off(colour)}
    return document


def old_source_frame(reader: BoardReader, colour, moves, message: str) -> LightFrame:
    lights = {reader.zone_of(colour, move.frm): Light(LightColour.SOURCE) for move in moves}
    return LightFrame.of(lights, message)


# -- the checks ----------------------------------------------------------------------------------
def check_turn(rules: RuleSet, position, roll) -> None:
    turn = TurnMap(rules, position, roll)
    plain = TurnMap(rules, position, roll)  # never asked for a play: ``end_of`` walks the map
    reader = BoardReader(rules, rules.geometry())
    moves = turn.next_moves(turn.start)
    for colour in (WHITE, BLACK):
        assert guidance.source_frame(reader, colour, moves, "m") == old_source_frame(reader, colour, moves, "m")
    if turn.passes:
        return
    finals = [key for key in turn.states() if turn.is_complete(key)]
    for key in finals[:: max(1, len(finals) // 40)]:
        play = turn.play_to(key)
        assert turn.end_of(play) == key == plain.end_of(Play(list(play)))
        assert format_play(play, rules) == old_format_play(play, rules)
        after = rules.position_after(key, turn.mover)
        document = position_to_json(rules, after, checked=True)
        assert document == position_to_json(rules, after) == old_position_to_json(rules, after)
        assert list(document) == list(old_position_to_json(rules, after))  # the same keys in the same order
        for colour in ("white", "black"):
            assert list(document[colour]["points"]) == list(old_position_to_json(rules, after)[colour]["points"])


@SETTINGS
@given(cases())
def test_roll_event_paths_match_the_plain_ones(case) -> None:
    check_turn(*case)


@SETTINGS
@given(cases(), doubles())
def test_roll_event_paths_match_on_doubles(case, roll) -> None:
    rules, position, _ = case
    check_turn(rules, position, roll)


def test_format_play_counts_repeats_and_keeps_checkers_apart() -> None:
    from controller.rules import get_rule_set

    for name in ("trictrac", "rally"):
        rules = get_rule_set(name)
        for play in (
            Play([Move(13, 9, 4), Move(13, 9, 4), Move(9, 5, 4), Move(6, 2, 4, True)]),
            Play([Move(BAR, 22, 3), Move(22, 19, 3), Move(BAR, 22, 3), Move(6, OFF, 6)]),
            Play([Move(8, 5, 3), Move(5, 2, 3), Move(8, 5, 3), Move(5, 2, 3)]),
            Play([Move(24, 18, 6), Move(18, 12, 6, True), Move(12, 6, 6), Move(6, OFF, 6)]),
            Play(),
        ):
            assert format_play(play, rules) == old_format_play(play, rules)


# -- the move generator's kept patterns and the collector ----------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_successors_of_matches_successors_through_full_tables(case) -> None:
    """The kept key changes (``_DELTAS``, found through ``_DELTA_LISTS``) give what
    ``successors`` gives, also while the tables fill up and start afresh."""
    import pytest

    from controller.rules import movegen

    rules, position, _ = case
    board = rules.board_key(position)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movegen, "_CHUNK_LIMIT", 3)
        for die in range(1, 7):
            for _ in range(2):  # found, then kept (or found again after a fresh start)
                starts, reached = rules.successors_of([board, board], die)
                keys = list(rules.successors(board, die)[1])
                assert reached == keys + keys and starts == [0, len(keys), 2 * len(keys)]


def test_kept_patterns_and_dice_left_stay_out_of_the_collector() -> None:
    """The generator's kept key changes are dicts of ints, never tracked by the collector;
    a turn's dice left are shared tuples, so once the collector has seen them (as start-up
    does) the turn's dicts of boards are not tracked either."""
    import gc

    from controller.rules import Roll, get_rule_set, movegen
    from controller.rules.turn import DICE_LEFT

    rules = get_rule_set("trictrac")
    turn = TurnMap(rules, rules.start_position(), Roll(3, 3))
    assert all(not gc.is_tracked(table) for tables in movegen._DELTAS for table in tables)
    assert turn.remaining_dice(turn.start) is DICE_LEFT[(3, 3, 3, 3)]
    gc.collect()
    turn = TurnMap(rules, rules.start_position(), Roll(3, 3))
    assert not gc.is_tracked(turn._where)


def test_turn_map_kept_by_position_and_roll_serves_only_its_rules(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``turn_map`` keeps maps by position and roll: a map of another rule set for the same
    turn is never served (it is built anew and replaces it), an equal rule set's is."""
    from controller.rules import Roll, get_rule_set
    from controller.rules import turn
    from controller.rules.turn import turn_map

    monkeypatch.setattr(turn, "_ahead", {})  # no map built ahead by a simulation this process ran
    monkeypatch.setattr(turn, "_recent", {})
    rally, hitting = get_rule_set("rally"), get_rule_set("rally-hitting")
    start, roll = rally.start_position(), Roll(5, 2)
    first = turn_map(rally, start, roll)
    other = turn_map(hitting, start, roll)
    assert other.rules is hitting and other is not first
    assert turn_map(get_rule_set("rally-hitting"), start, roll) is other  # an equal rule set
    again = turn_map(rally, start, roll)
    assert again.rules is rally and again is not first and again.states() == first.states()
    assert turn_map(rally, start, roll) is again
