"""The Pico firmware under CPython: the pure modules directly, on modelled hall readings, and
``firmware/hw.py`` over a small fake of ``machine`` put in ``sys.modules`` only here.

The readings come from ``firmware.synthetic.HallBoard`` with fixed seeds: zero field near
32768 with each sensor's offset and gain, each checker's magnet strength, crosstalk, noise
and spikes, as HARDWARE.md's reference design gives them.
"""

from __future__ import annotations

import ast
import importlib.util
import random
import re
import sys
import time
from pathlib import Path

import pytest

from firmware import codes, selfcheck
from firmware.board_logic import BoardLogic, DiceRolled, RawScan, SnapshotChanged
from firmware.classify import (
    MAX_DRIFT,
    UNREADABLE,
    Calibration,
    CalibrationError,
    Classifier,
    slot_bounds,
    step_count,
)
from firmware.debounce import Debouncer
from firmware.dice import EMPTY, UNCLEAR, DiceReader, DiceWatcher, roll_of
from firmware.leds import (
    BLINK_PERIOD_MS,
    DARK,
    IDLE_MA,
    PALETTE,
    blink_on,
    check_frame,
    current_ma,
    render,
    status_on,
)
from firmware.pins import DEFAULT_PINS, PinMap
from firmware.scan import SCAN_PERIOD_MS, Layout, median, run_scan
from firmware.synthetic import COCKED, ZERO, HallBoard, calibrate

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MINE = ("codes", "pins", "scan", "classify", "debounce", "dice", "leds", "board_logic", "hw", "synthetic", "selfcheck")

@pytest.fixture(scope="module")
def layout():
    return Layout()


@pytest.fixture(scope="module")
def calibrated(layout):
    """A modelled board with spiky sensors and the calibration measured on it."""
    board = HallBoard(layout, random.Random(7), spike_rate=0.005)
    return board, calibrate(board)


def tiny_layout(levels_per_zone=1, dice=0):
    return Layout(zones=1, sensors_per_zone=levels_per_zone, zones_per_mux=1, dice_sensors=dice,
                  reference=False, adcs=1, banks=1)


# -- the shared tables ------------------------------------------------------------------------


def test_codes_name_the_hal_zones_colours_and_modes():
    from hal.interfaces import LightColour, LightMode
    from hal.zones import ZONES

    assert codes.ZONE_NAMES == ZONES and codes.ZONE_COUNT == len(ZONES)
    assert codes.COLOURS == tuple(colour.value for colour in LightColour)
    assert codes.MODES == tuple(mode.value for mode in LightMode)
    named = [codes.OFF, codes.SOURCE, codes.TARGET, codes.HIT, codes.WARNING, codes.SETUP, codes.WINNER, codes.TURN, codes.ENGINE]
    assert named == [codes.code_of(codes.COLOURS, name) for name in codes.COLOURS] == list(range(9))
    assert (codes.STEADY, codes.BLINK) == (0, 1)
    with pytest.raises(ValueError, match="purple"):
        codes.code_of(codes.COLOURS, "purple")


def test_the_wire_protocol_uses_the_same_codes():
    protocol = pytest.importorskip("firmware.protocol")
    assert tuple(protocol.COLOUR_NAMES) == codes.COLOURS
    assert tuple(protocol.MODE_NAMES) == codes.MODES
    assert protocol.ZONE_COUNT == codes.ZONE_COUNT


# -- MicroPython's subset ---------------------------------------------------------------------


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module.split(".")[0]


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_only_hw_touches_the_hardware(path):
    touched = {"machine", "neopixel", "rp2"} & set(_imports(ast.parse(path.read_text())))
    assert not touched or path.name == "hw.py", f"{path.name} imports {sorted(touched)}"


@pytest.mark.parametrize("name", MINE)
def test_firmware_stays_within_micropython(name):
    path = FIRMWARE / f"{name}.py"
    source = path.read_text()
    tree = ast.parse(source)
    banned = {"dataclasses", "typing", "enum", "abc", "__future__", "functools", "itertools", "collections"}
    assert not banned & set(_imports(tree)), f"{name} imports {sorted(banned & set(_imports(tree)))}"
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), f"{name}:{node.lineno} annotates a variable"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            assert node.returns is None and all(a.annotation is None for a in arguments), f"{name}.{node.name} annotated"
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("to_bytes", "from_bytes"):
            assert not node.keywords, f"{name}:{node.lineno} passes {node.func.attr} keywords"
    assert not re.search(r"\{[^{}]*=\}", source), f"{name} uses an f-string '=' (not in MicroPython)"


# -- pins and scan scheduling ----------------------------------------------------------------------


def test_the_default_pin_map():
    pins = DEFAULT_PINS
    assert pins.select == (2, 3, 4, 5) and pins.enable == (6, 7, 8, 9) and pins.adc == (26, 27, 28)
    assert (pins.neopixel, pins.status_led, pins.smps_mode) == (16, 25, 23)


@pytest.mark.parametrize("kwargs, message", [
    ({"adc": (26, 25)}, "GPIO 25 is no ADC input"),
    ({"select": (2, 3, 4)}, "4 select lines"),
    ({"neopixel": 6}, "GPIO 6 is used twice"),
    ({"status_led": 30}, "0 to 29"),
    ({"enable": ()}, "enable line"),
])
def test_bad_pin_maps_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PinMap(**kwargs)


def test_the_reference_layout_wires_every_sensor_once(layout):
    assert (layout.sensor_count, layout.zone_sensor_count, layout.mux_count) == (143, 140, 10)
    addresses = [layout.address(s) for s in range(layout.sensor_count)]
    assert len(set(addresses)) == len(addresses)
    for zone in range(layout.zones):
        assert {layout.mux_of(s)[0] for s in layout.zone_sensors(zone)} == {zone // 3}, "a zone on one mux"
    assert [layout.mux_of(s) for s in (layout.dice_sensor(0), layout.dice_sensor(1), layout.reference_sensor)] \
        == [(9, 5), (9, 6), (9, 7)]
    steps = layout.steps()
    read = [sensor for _, _, reads in steps for _, sensor in reads]
    assert sorted(read) == list(range(layout.sensor_count))
    assert [bank for bank, _, _ in steps] == sorted(bank for bank, _, _ in steps), "each bank enabled once a scan"
    assert len(steps) == 3 * 15 + 8


@pytest.mark.parametrize("kwargs, message", [
    ({"banks": 3}, "need 10 muxes"),
    ({"zones_per_mux": 4}, "do not fit"),
])
def test_layouts_that_do_not_fit_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Layout(**kwargs)


def test_a_scan_reads_each_sensor_through_its_address_as_a_median(layout):
    chosen = []
    samples = {}

    def select(bank, channel):
        chosen.append((bank, channel))

    def reader(adc):
        def read():
            bank, channel = chosen[-1]
            count = samples.get((adc, bank, channel), 0)
            samples[(adc, bank, channel)] = count + 1
            base = 1000 + adc * 10000 + bank * 1000 + channel * 10
            return (base, 60000, base + 1)[count % 3]  # a spike as the middle sample

        return read

    raw = run_scan(layout.steps(), select, [reader(a) for a in range(3)], layout.sensor_count)
    for sensor, value in enumerate(raw):
        adc, bank, channel = layout.address(sensor)
        assert value == 1001 + adc * 10000 + bank * 1000 + channel * 10
    assert len(chosen) == len(layout.steps())


def test_median():
    assert [median(s) for s in ([1, 2, 3], [3, 1, 2], [2, 3, 1], [5, 5, 1], [9], [4, 1, 3, 2])] == [2, 2, 2, 5, 9, 3]


# -- classification ---------------------------------------------------------------------------------


def stacks_round(board, n, parity):
    """Zone z holds (n + z) % 16 checkers, White on odd zones (parity 0) or even ones."""
    want = []
    for zone in range(board.layout.zones):
        count = (n + zone) % 16
        white = (zone + parity) % 2 == 1
        board.place(zone, white=count if white else 0, black=0 if white else count)
        want.append((count, 0) if white else (0, count))
    return want


def test_every_stack_of_either_colour_reads_right_on_noisy_readings(calibrated):
    board, calibration = calibrated
    classifier = Classifier(calibration, board.layout)
    seen, spoilt = set(), 0
    for parity in (0, 1):
        for n in range(16):
            want = stacks_round(board, n, parity)
            for _ in range(4):
                zones = classifier.zones(board.scan())
                for zone, reading in enumerate(zones):
                    if any(s in board.spoilt for s in board.layout.zone_sensors(zone)):
                        spoilt += 1
                        continue
                    assert reading == want[zone], f"zone {codes.ZONE_NAMES[zone]}: {reading} for {want[zone]}"
                    seen.add((zone, want[zone]))
    board.clear()
    assert len(seen) == 28 * 31, "every zone saw 0-15 of both colours"
    assert spoilt < 10, "double spikes are rare"


def test_spikes_never_reach_the_settled_snapshot(layout):
    board = HallBoard(layout, random.Random(11), spike_rate=0.02)
    calibration = calibrate(board)
    classifier, debouncer = Classifier(calibration, layout), Debouncer(layout.zones)
    spoilt_scans, wanted, announced = 0, [], []
    for n in range(16):
        want = tuple(stacks_round(board, n, n % 2))
        wanted.append(want)
        for scan in range(10):
            raw = board.scan()
            if scan == 5:  # an interference burst: every sample of one sensor, one scan
                raw[5 * n] = raw[5 * n] + 9000
            zones = classifier.zones(raw)
            spoilt_scans += zones != list(want)
            if debouncer.update(zones):
                announced.append(debouncer.snapshot)
    assert announced == wanted, "one settled snapshot a change, never a spoilt one"
    assert spoilt_scans > 16, "the spikes and bursts did spoil some scans"


def test_hysteresis_holds_a_reading_on_a_threshold():
    rise, fall = slot_bounds([8000, 12000, 14000], 120)
    assert (rise, fall) == ([4120, 10120, 13120], [-1, 3880, 9880, 12880])
    assert slot_bounds([8000, 8400], 120) == ([4120, 8300], [-1, 3880, 8100]), "a band is a quarter step at most"
    calibration = Calibration([[(32768, [8000, 12000, 14000])]], hysteresis=120)
    classifier = Classifier(calibration, tiny_layout())
    readings = [4050, 4130, 4050, 3890, 3870, 10100, 10130, 9900, 9870, -4130, -3890, -3870]
    counts = [classifier.sensor(0, ZERO + r) for r in readings]
    assert counts == [0, 1, 1, 1, 0, 1, 2, 2, 1, -1, -1, 0]
    assert step_count(13500, rise, fall, 0) == 3 and step_count(100, rise, fall, 3) == 0


def test_polarity_is_found_by_calibrating(layout):
    board = HallBoard(layout, random.Random(3), polarity=-1)
    calibration = calibrate(board, scans=5)
    assert calibration.polarity == -1
    board.place(0, white=7)
    board.place(12, black=3)
    zones = Classifier(calibration, layout).zones(board.scan())
    assert zones[0] == (7, 0) and zones[12] == (0, 3)


def test_out_of_range_readings_are_unreadable(calibrated):
    board, calibration = calibrated
    layout = board.layout
    board.clear()
    clean = [ZERO] * layout.sensor_count
    for s in range(layout.sensor_count):
        clean[s] = round(board.ideal(s))
    classifier = Classifier(calibration, layout)
    assert classifier.zones(clean) == [(0, 0)] * 28
    for bad in (0, 500, 65535):
        raw = list(clean)
        raw[7] = bad  # zone 2, slot 2: a broken wire
        assert classifier.zones(raw)[1] is UNREADABLE
        assert classifier.zones(raw)[0] == (0, 0)
    raw = list(clean)
    zero, levels = calibration.zones[3][0]
    raw[15] = zero + 2 * levels[-1]  # stronger than any stack: a stray magnet
    assert classifier.zones(raw)[3] is UNREADABLE


def test_the_supply_reference_is_followed_and_a_supply_fault_is_unreadable(calibrated):
    board, calibration = calibrated
    layout = board.layout
    board.clear()
    board.place(5, black=11)
    classifier = Classifier(calibration, layout)
    board.supply = 900  # the sensor rail moved 1.4 %: every zero moved with it
    assert classifier.zones(board.scan())[5] == (0, 11)
    board.supply = MAX_DRIFT + 200
    assert classifier.zones(board.scan()) == [UNREADABLE] * 28
    board.supply = 0
    board.clear()


# -- the calibration --------------------------------------------------------------------------------


def test_a_calibration_round_trips_through_json_and_bytes(calibrated):
    _, calibration = calibrated
    text = calibration.to_json()
    assert Calibration.from_json(text) == calibration
    assert Calibration.from_json(calibration.to_bytes()) == calibration
    assert Calibration.from_dict(calibration.to_dict()) == calibration
    assert len(text) < 8000, "fits the Pico's flash and RAM easily"


def _good():
    return {"version": 1, "zones": [[{"zero": 32768, "levels": [7000, 10000, 12000]}]],
            "dice": [{"zero": 32768, "faces": [6000, 4000, 1600, -1600, -4000, -6000]}]}


def _with(path, value):
    data = _good()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("data, message", [
    (_with(["version"], 2), "version 2 is not supported"),
    (_with(["zones", 0, 0, "levels"], [7000, 6000]), "levels are whole counts rising"),
    (_with(["zones", 0, 0, "levels"], [7000, 7100]), "1 and 2 checkers read 100 counts apart"),
    (_with(["zones", 0, 0, "levels"], []), "1 to 8 levels"),
    (_with(["zones", 0, 0, "zero"], 70000), "zone 0 sensor 0: zero is a raw count"),
    (_with(["zones", 0, 0, "zero"], KeyError), "without 'zero'"),
    (_with(["zones"], KeyError), "without 'zones'"),
    (_with(["zones"], 5), "zones are lists"),
    (_with(["zones", 0, 0, "levels"], 5), "zones are lists"),
    (_with(["window"], 5), "window a [low, high] pair"),
    (_with(["dice", 0, "faces"], [6000, 4000, 1600, -1600, -4000]), "six whole-count face levels"),
    (_with(["dice", 0, "faces"], [6000, 4000, 100, -1600, -4000, -6000]), "empty and face 3 read 100 counts apart"),
    (_with(["polarity"], 0), "polarity is 1"),
    (_with(["hysteresis"], -1), "hysteresis"),
    (_with(["window"], [5000, 1000]), "window"),
    (_with(["over"], 0.5), "over is a factor"),
    ([1, 2], "a JSON object"),
])
def test_bad_calibrations_are_refused_by_name(data, message):
    with pytest.raises(CalibrationError, match=re.escape(message)):
        Calibration.from_dict(data)


@pytest.mark.parametrize("text", ["{zones: oops", b"\xff\xfe", ""])
def test_a_calibration_that_is_not_json_is_refused(text):
    with pytest.raises(CalibrationError, match="not JSON"):
        Calibration.from_json(text)


def test_a_calibration_for_other_sensors_is_refused(calibrated):
    _, calibration = calibrated
    with pytest.raises(CalibrationError, match=r"28 zones of 5 sensors, 2 dice sensors, a reference; "
                                               r"this board has 28 zones of 4 sensors.*trictrac calibrate"):
        Classifier(calibration, Layout(sensors_per_zone=4))
    with pytest.raises(CalibrationError, match="this board has 28 zones of 5 sensors, 1 dice sensors"):
        BoardLogic(Layout(dice_sensors=1), calibration)
    short = Calibration(calibration.zones[:27], calibration.dice, calibration.reference)
    with pytest.raises(CalibrationError, match="has 27 zones"):
        Classifier(short, Layout())


# -- debouncing ----------------------------------------------------------------------------------------


def test_a_one_scan_spike_never_settles():
    debouncer = Debouncer(28, settle_scans=3)
    calm = [(0, 0)] * 28
    spiked = list(calm)
    spiked[9] = (1, 0)
    results = [debouncer.update(calm) for _ in range(3)]
    assert results == [False, False, True] and debouncer.changes == 1
    for _ in range(20):
        assert not debouncer.update(spiked)
        assert not debouncer.settled
        assert [debouncer.update(calm) for _ in range(3)] == [False] * 3
    assert debouncer.snapshot == tuple(calm) and debouncer.changes == 1


@pytest.mark.parametrize("n", [1, 3, 5])
def test_a_real_change_settles_after_n_scans(n):
    debouncer = Debouncer(28, settle_scans=n)
    before, after = [(2, 0)] * 28, [(2, 0)] * 27 + [(0, 1)]
    for _ in range(n):
        debouncer.update(before)
    assert [debouncer.update(after) for _ in range(n)] == [False] * (n - 1) + [True]
    assert debouncer.snapshot == tuple(after) and debouncer.changes == 2
    assert not debouncer.update(after), "a snapshot is announced once"


def test_the_snapshot_settles_only_when_every_zone_is_stable():
    debouncer = Debouncer(3, settle_scans=3)
    scans = [[(0, 0), (1, 0), (0, 0)], [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0, 2)], [(0, 0), (1, 0), (0, 2)]]
    assert [debouncer.update(s) for s in scans] == [False] * 4
    assert debouncer.is_stable(0) and not debouncer.is_stable(2)
    assert debouncer.update(scans[-1]) and debouncer.snapshot == ((0, 0), (1, 0), (0, 2))


def test_the_change_counter_wraps_at_sixteen_bits():
    debouncer = Debouncer(1, settle_scans=1)
    debouncer.changes = 0xFFFF
    assert debouncer.update([(1, 0)]) and debouncer.changes == 0


def test_a_flickering_zone_is_given_up_as_unreadable():
    debouncer = Debouncer(2, settle_scans=3, give_up_scans=10)
    results = [debouncer.update([(0, 0), (i % 2, 0)]) for i in range(12)]
    assert results.index(True) == 9 and debouncer.snapshot == ((0, 0), None)
    assert [debouncer.update([(0, 0), (4, 0)]) for _ in range(3)] == [False, False, True]
    assert debouncer.snapshot == ((0, 0), (4, 0))


# -- dice ---------------------------------------------------------------------------------------------


def test_every_face_reads_right_and_an_empty_or_cocked_pocket_is_told_apart(calibrated):
    board, calibration = calibrated
    reader = DiceReader(calibration, board.layout)
    for face in range(1, 7):
        board.dice = [face, 7 - face]  # opposite faces sum to seven
        for _ in range(5):
            faces = reader.read(board.scan())
            if board.spoilt.isdisjoint(board.layout.dice_sensor(d) for d in (0, 1)):
                assert faces == (face, 7 - face)
    board.dice = [EMPTY, COCKED]
    assert reader.read(board.scan()) == (EMPTY, UNCLEAR)
    board.clear()


def test_roll_of():
    assert roll_of((3, 5)) == (3, 5) and roll_of((EMPTY, EMPTY)) == EMPTY
    assert roll_of((3, EMPTY)) is UNCLEAR and roll_of((3, UNCLEAR)) is UNCLEAR


def watch(watcher, faces, scans):
    return [news for news in (watcher.update(faces) for _ in range(scans)) if news is not None]


def test_a_roll_is_reported_once_when_the_dice_have_settled():
    watcher = DiceWatcher(settle_scans=10, unclear_scans=50)
    assert watch(watcher, (3, 5), 30) == [], "the dice found at start are no roll"
    assert watch(watcher, (EMPTY, EMPTY), 30) == [], "an empty tray says nothing"
    tumbling = [watcher.update(f) for f in [(UNCLEAR, 2), (4, UNCLEAR), (4, 1), (6, 1)] * 3]
    assert tumbling == [None] * 12
    assert [watcher.update((6, 1)) for _ in range(10)] == [None] * 8 + [((6, 1),)] + [None], "10 scans standing"
    assert watch(watcher, (6, 1), 100) == []


def test_the_same_numbers_thrown_again_are_a_new_roll_but_a_glitch_is_not():
    watcher = DiceWatcher(settle_scans=10, unclear_scans=50)
    watch(watcher, (EMPTY, EMPTY), 20)
    assert watch(watcher, (2, 2), 20) == [((2, 2),)]
    assert watch(watcher, (2, UNCLEAR), 1) + watch(watcher, (2, 2), 20) == [], "a one-scan glitch"
    assert watch(watcher, (EMPTY, EMPTY), 3) + watch(watcher, (2, 2), 20) == [((2, 2),)], "thrown again"
    assert watcher.current == ((2, 2),)


def test_a_cocked_or_lone_die_is_no_clear_roll_after_a_second():
    watcher = DiceWatcher(settle_scans=10, unclear_scans=50)
    watch(watcher, (EMPTY, EMPTY), 20)
    assert watch(watcher, (4, EMPTY), 40) + watch(watcher, (EMPTY, EMPTY), 20) == [], "dice taken out one by one"
    assert watch(watcher, (4, UNCLEAR), 60) == [(UNCLEAR,)]
    assert watcher.current == (UNCLEAR,)
    assert watch(watcher, (4, 3), 20) == [((4, 3),)], "the cocked die falls flat"


# -- LEDs ----------------------------------------------------------------------------------------------


def test_a_frame_renders_in_zone_order_in_its_colours():
    frame = [(code, codes.STEADY) for code in range(9)] * 3 + [(codes.TURN, codes.STEADY)]
    pixels = render(frame, 0, brightness=255, max_current_ma=100_000)
    assert pixels[:9] == list(PALETTE) and pixels[27:] == [PALETTE[codes.TURN]]
    assert render(DARK, 0) == [(0, 0, 0)] * 28


def test_blinking_lights_blink_at_two_hertz():
    frame = [(codes.WARNING, codes.BLINK), (codes.SOURCE, codes.STEADY)] + [(0, 0)] * 26
    lit = [render(frame, t, brightness=255)[0] != (0, 0, 0) for t in range(0, 2000, 50)]
    assert lit == ([True] * 5 + [False] * 5) * 4
    assert all(render(frame, t, brightness=255)[1] == PALETTE[codes.SOURCE] for t in range(0, 2000, 50))
    assert BLINK_PERIOD_MS == 500 and blink_on(0) and not blink_on(250) and blink_on(500)


def test_brightness_and_the_current_limit():
    white = [(codes.TURN, codes.STEADY)] * 28
    assert render(white, 0, brightness=64, max_current_ma=10_000)[0] == (64, 64, 64)
    full = render(white, 0, brightness=255, max_current_ma=100_000)
    assert current_ma(full) == 28 * 60 + 28 * IDLE_MA
    limited = render(white, 0, brightness=255, max_current_ma=500)
    assert current_ma(limited) <= 500 and limited[0][0] > 50
    assert current_ma(render(white, 0)) <= 500, "the default brightness keeps under the default limit"


@pytest.mark.parametrize("frame, message", [
    ([(0, 0)] * 27, "28 zones, not 27"),
    ([(9, 0)] + [(0, 0)] * 27, "zone 0: no light colour 9"),
    ([(0, 2)] + [(0, 0)] * 27, "mode 2"),
    ([(0, 0)] * 27 + [3], "zone 27: a light is"),
    ([(True, 0)] + [(0, 0)] * 27, "zone 0"),
])
def test_bad_frames_are_refused(frame, message):
    with pytest.raises(ValueError, match=message):
        check_frame(frame)


def test_the_status_led_beats_slowly_when_healthy_and_fast_when_not():
    assert [status_on(t, True) for t in (0, 150, 999, 1000)] == [True, False, False, True]
    assert [status_on(t, False) for t in (0, 130, 250)] == [True, False, True]


# -- the board's logic ------------------------------------------------------------------------------


def run_scans(logic, board, scans, clock):
    events = []
    for _ in range(scans):
        events += logic.step(board.scan(), clock[0])
        clock[0] += SCAN_PERIOD_MS
    return events


def test_board_logic_sends_settled_changes_and_rolls(layout):
    board = HallBoard(layout, random.Random(5))
    logic = BoardLogic(layout, calibrate(board, scans=5))
    clock = [0]
    events = run_scans(logic, board, 12, clock)
    assert events == [SnapshotChanged(40, [(0, 0)] * 28, 1)], "the first settled board, after 3 scans"
    board.place(0, white=15)
    board.place(12, black=15)
    events = run_scans(logic, board, 5, clock)
    want = [(15, 0)] + [(0, 0)] * 11 + [(0, 15)] + [(0, 0)] * 15
    assert events == [SnapshotChanged(clock[0] - 60, want, 2)]
    assert run_scans(logic, board, 20, clock) == [], "nothing changed, nothing sent"
    board.dice = [6, 3]
    events = run_scans(logic, board, 12, clock)
    assert events == [DiceRolled(clock[0] - 60, (6, 3), clock[0] - 60 - 180)], "landed 9 scans before it settled"
    logic.request_snapshot()
    events = run_scans(logic, board, 2, clock)
    assert events == [SnapshotChanged(clock[0] - 40, want, 2)] and events[0].requested
    assert logic.tray == (6, 3) and logic.snapshot_counter == 2, "the device sends the tray's state with it"


def test_board_logic_streams_raw_scans_and_shows_lights(layout):
    board = HallBoard(layout, random.Random(6))
    logic = BoardLogic(layout)  # not calibrated yet
    assert not logic.calibrated and not logic.status_on(200)
    clock = [0]
    assert run_scans(logic, board, 3, clock) == []
    logic.request_snapshot()
    assert run_scans(logic, board, 3, clock) == [SnapshotChanged(60, [None] * 28, 0)]
    logic.set_raw_mode(True)
    events = run_scans(logic, board, 9, clock)
    assert [type(e) for e in events] == [RawScan] * 3 and len(events[0].values) == 143
    assert [e.time_ms for e in events] == [160, 220, 280], "every third scan"
    logic.set_raw_mode(False)
    assert run_scans(logic, board, 9, clock) == []
    logic.set_leds([(codes.TARGET, codes.BLINK)] + [(0, 0)] * 27)
    assert logic.pixels(0)[0] != (0, 0, 0) and logic.pixels(300)[0] == (0, 0, 0)
    with pytest.raises(ValueError):
        logic.set_leds([(9, 0)] * 28)
    with pytest.raises(ValueError, match="143 readings, not 3"):
        logic.step([1, 2, 3], 0)


# -- hw.py over a fake machine ---------------------------------------------------------------------


@pytest.fixture
def fake_machine(monkeypatch):
    """tests/fake_machine.py as ``machine`` and ``neopixel``, ``time.sleep_us``, and a fresh hw."""
    spec = importlib.util.spec_from_file_location("fake_machine", ROOT / "tests" / "fake_machine.py")
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)
    monkeypatch.setitem(sys.modules, "machine", fake)
    monkeypatch.setitem(sys.modules, "neopixel", fake)
    slept = []
    monkeypatch.setattr(time, "sleep_us", slept.append, raising=False)
    monkeypatch.delitem(sys.modules, "firmware.hw", raising=False)
    hw = importlib.import_module("firmware.hw")
    yield fake, hw, slept
    sys.modules.pop("firmware.hw", None)


def mux_wiring(pins):
    """What each ADC input reads: a code naming the one enabled bank and the selected channel."""

    def wiring(gpio, levels):
        low = [bank for bank, g in enumerate(pins.enable) if levels.get(g, 1) == 0]
        assert len(low) == 1, "exactly one bank enabled while reading"
        channel = sum(levels.get(g, 0) << bit for bit, g in enumerate(pins.select))
        return 1 + pins.adc.index(gpio) * 4096 + low[0] * 256 + channel * 16

    return wiring


def test_hw_scans_every_sensor_through_its_mux(fake_machine, layout):
    fake, hw, slept = fake_machine
    fake.wiring = mux_wiring(DEFAULT_PINS)
    board = hw.Hardware(DEFAULT_PINS, layout)
    assert [fake.levels[g] for g in DEFAULT_PINS.enable] == [1, 1, 1, 1], "muxes off at start"
    assert fake.levels[DEFAULT_PINS.smps_mode] == 1
    raw = board.scan()
    for sensor, value in enumerate(raw):
        adc, bank, channel = layout.address(sensor)
        assert value == 1 + adc * 4096 + bank * 256 + channel * 16
    assert [fake.levels[g] for g in DEFAULT_PINS.enable] == [1, 1, 1, 1], "muxes off after a scan"
    assert slept == [hw.SETTLE_US] * len(layout.steps())


def test_hw_lights_the_chain_the_status_led_and_feeds_the_watchdog(fake_machine, layout):
    fake, hw, _ = fake_machine
    board = hw.Hardware(DEFAULT_PINS, layout)
    assert fake.watchdog["timeout"] == hw.WATCHDOG_MS
    pixels = [(i, 0, 255 - i) for i in range(28)]
    board.show(pixels)
    (chain,) = fake.chains
    assert chain.gpio == 16 and chain.written == [pixels]
    board.status(True)
    assert fake.levels[25] == 1
    board.feed()
    board.feed()
    assert fake.watchdog["fed"] == 2


def test_hw_without_a_watchdog_and_with_a_mismatched_layout(fake_machine, layout):
    fake, hw, _ = fake_machine
    hw.Hardware(DEFAULT_PINS, layout, watchdog_ms=0).feed()
    assert fake.watchdog == {"timeout": None, "fed": 0}
    with pytest.raises(ValueError, match="3 ADC inputs x 4 banks, the pin map wires 2 x 4"):
        hw.Hardware(PinMap(adc=(26, 27)), layout)


def test_the_selfcheck_passes_under_cpython():
    assert selfcheck.run() == ["stacks", "debounce", "dice", "leds", "calibration", "board_logic"]
