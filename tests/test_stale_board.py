"""While the board's link is down, its last board is stale: no warning may come from it, and
once the link is back the fresh board is judged anew (found by the fault campaign: a board
seen wrong just before the cable was pulled was warned about one grace time later)."""

from __future__ import annotations

from hal.interfaces import DeviceEvent
from hal.zones import Checker

from scenario_kit import W, opened


def post(scene, event) -> None:  # type: ignore[no-untyped-def]
    scene.table.sim.queue.put(event)
    scene.advance(0.05)


def test_no_warning_on_a_stale_board_and_a_fresh_one_is_judged_anew() -> None:
    s = opened(dice=(3, 1))
    s.move("8", "2", W)  # a 6: not in 3-1
    assert s.warnings() == 0
    post(s, DeviceEvent(s.now, "board", "link lost: the port failed", ok=False, stale=True))
    s.advance(5.0)
    assert s.warnings() == 0, "the board the Pi saw last is stale: nothing to warn about"
    assert "link lost" in s.message
    post(s, DeviceEvent(s.now, "board", "link back: firmware test", ok=True))
    s.table.sim.sensor.request_snapshot()  # the link asks for the board when it is back
    s.advance(0.5)
    assert s.warnings() == 0, "the fresh board has its own grace time"
    s.advance(1.0)
    assert s.warnings() == 1, "still wrong after the grace time: warned"


def test_a_board_put_right_while_the_link_was_down_is_never_warned() -> None:
    s = opened(dice=(3, 1))
    s.move("8", "2", W)
    post(s, DeviceEvent(s.now, "board", "link lost: no frame for 3 s", ok=False, stale=True))
    s.board.lift("2", Checker.WHITE)
    s.board.place("8", Checker.WHITE)
    s.advance(3.0)
    post(s, DeviceEvent(s.now, "board", "link back: firmware test", ok=True))
    s.table.sim.sensor.request_snapshot()
    s.advance(2.0)
    assert s.warnings() == 0
    assert s.message == "White to play 3-1"


def test_a_sensor_fault_is_not_stale() -> None:
    s = opened(dice=(3, 1))
    s.move("8", "2", W)
    post(s, DeviceEvent(s.now, "board", "sensor fault: zone VII", ok=False))
    s.advance(1.5)
    assert s.warnings() == 1, "the link is up: the wrong board is warned as usual"


# -- a board behind a link (Settings.confirm): a warning waits for a fresh snapshot ----------

from controller.machine import CONFIRM_AGAIN, Controller, Phase, Settings  # noqa: E402
from controller.rules import get_rule_set  # noqa: E402
from hal.interfaces import BoardSnapshot, SnapshotEvent, TickEvent, ZoneReading  # noqa: E402
from hal.zones import ZONES  # noqa: E402

from scenario_kit import zones_of  # noqa: E402


def board_event(controller: Controller, time: float, moved: dict | None = None) -> SnapshotEvent:
    counts = zones_of(controller, controller.game.position)
    counts.update(moved or {})
    return SnapshotEvent(time, BoardSnapshot(tuple(ZoneReading(*counts.get(zone, (0, 0))) for zone in ZONES)))


def test_behind_a_link_a_wrong_board_is_confirmed_by_a_fresh_snapshot_before_the_warning() -> None:
    controller = Controller(Settings(get_rule_set("trictrac"), confirm=True))
    controller.begin(0.0)
    controller.handle(board_event(controller, 0.0))
    assert controller.phase is Phase.OPENING
    wrong = {"1": (14, 0), "2": (1, 0)}  # a checker moved before anyone threw
    out = controller.handle(board_event(controller, 1.0, wrong))
    assert out.deadline == 2.0 and not out.warning
    asked = controller.handle(TickEvent(2.0))
    assert asked.request_snapshot and not asked.warning, "the grace time is over: ask the board first"
    assert asked.deadline == 2.0 + CONFIRM_AGAIN, "asked again if no snapshot comes"
    assert not controller.handle(TickEvent(2.5)).request_snapshot
    again = controller.handle(TickEvent(3.0))
    assert again.request_snapshot and not again.warning, "the line is quiet: ask again, never warn on a stale board"
    warned = controller.handle(board_event(controller, 3.01, wrong))
    assert warned.warning is not None, "the fresh snapshot shows it still wrong: warned"


def test_behind_a_link_a_board_put_right_meanwhile_is_never_warned() -> None:
    controller = Controller(Settings(get_rule_set("trictrac"), confirm=True))
    controller.begin(0.0)
    controller.handle(board_event(controller, 0.0))
    controller.handle(board_event(controller, 1.0, {"1": (14, 0), "2": (1, 0)}))
    assert controller.handle(TickEvent(2.0)).request_snapshot
    out = controller.handle(board_event(controller, 2.02))  # the answer: the board stands at the start
    assert not out.warning and not controller.warning and out.deadline is None
