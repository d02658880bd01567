"""A self-check of the pure modules on modelled readings, runnable on the Pico itself
(``import firmware.selfcheck as s; s.run()``), under MicroPython on a desk and under CPython.
Raises AssertionError naming the first failure; returns the names of the checks passed.
"""

from .board_logic import BoardLogic, DiceRolled, SnapshotChanged
from .classify import Calibration, CalibrationError, Classifier
from .codes import BLINK, STEADY, TARGET, WARNING, ZONE_COUNT
from .debounce import Debouncer
from .dice import EMPTY, UNCLEAR, DiceReader
from .leds import PALETTE, render
from .scan import Layout
from .synthetic import COCKED, HallBoard, Lcg, calibrate


def _check(condition, what):
    if not condition:
        raise AssertionError(what)


def check_stacks(board, calibration, scans=2):
    """Every zone reads every stack 0-15 of either colour (per scan, bar double spikes)."""
    layout = board.layout
    classifier = Classifier(calibration, layout)
    for parity in (0, 1):
        for n in range(16):
            for zone in range(layout.zones):
                count = (n + zone) % 16
                white = (zone + parity) % 2
                board.place(zone, white=count if white else 0, black=0 if white else count)
            for _ in range(scans):
                zones = classifier.zones(board.scan())
                for zone in range(layout.zones):
                    count = (n + zone) % 16
                    want = (count, 0) if (zone + parity) % 2 else (0, count)
                    spoilt = [s for s in layout.zone_sensors(zone) if s in board.spoilt]
                    _check(zones[zone] == want or spoilt, "zone %d read %r, not %r" % (zone, zones[zone], want))
    board.clear()


def check_debounce():
    """A one-scan spike never settles; a real change settles after N scans."""
    debouncer = Debouncer(3, settle_scans=3)
    calm, spike, moved = [(0, 0)] * 3, [(0, 0), (1, 0), (0, 0)], [(0, 0), (1, 0), (0, 0)]
    _check([debouncer.update(calm) for _ in range(3)] == [False, False, True], "settles after 3 scans")
    _check(not debouncer.update(spike) and not debouncer.settled, "a spike unsettles")
    _check([debouncer.update(calm) for _ in range(5)] == [False] * 5, "a spike never changes the snapshot")
    _check([debouncer.update(moved) for _ in range(3)] == [False, False, True], "a change settles")
    _check(debouncer.snapshot == tuple(moved) and debouncer.changes == 2, "the change counted")


def check_dice(board, calibration):
    """Each face reads right; empty and cocked pockets are told apart."""
    reader = DiceReader(calibration, board.layout)
    for face in range(1, 7):
        board.dice = [face, 7 - face]
        _check(reader.read(board.scan()) == (face, 7 - face), "face %d" % face)
    board.dice = [EMPTY, COCKED]
    _check(reader.read(board.scan()) == (EMPTY, UNCLEAR), "empty and cocked")
    board.clear()


def check_leds():
    """Steady lights stay, blinking ones go dark in the second quarter second."""
    frame = [(TARGET, STEADY), (WARNING, BLINK)] + [(0, 0)] * (ZONE_COUNT - 2)
    on, off = render(frame, 0, brightness=255, max_current_ma=10000), render(frame, 250, brightness=255, max_current_ma=10000)
    _check(on[0] == off[0] == PALETTE[TARGET], "steady target")
    _check(on[1] == PALETTE[WARNING] and off[1] == (0, 0, 0), "blinking warning")


def check_calibration(calibration, layout):
    """JSON round trip; a calibration for other sensors is refused by name."""
    _check(Calibration.from_json(calibration.to_json()) == calibration, "JSON round trip")
    try:
        Classifier(calibration, Layout(sensors_per_zone=4))
    except CalibrationError as error:
        _check("4 sensors" in str(error), "the error names the sensor count: %s" % error)
    else:
        raise AssertionError("a calibration for 5 sensors a zone fitted 4")
    good = {"version": 1, "zones": [[{"zero": 32768, "levels": [7000, 10000]}]]}
    for bad, words in (("{zones", "not JSON"), ('{"version": 1, "zones": [[{"levels": [1]}]]}', "without 'zero'"),
                       ('{"version": 1, "zones": [[{"zero": 32768, "levels": [900, 800]}]]}', "rising"),
                       ('{"version": 1, "zones": 5}', "zones are lists"), ("[1]", "a JSON object")):
        try:
            Calibration.from_json(bad)
        except CalibrationError as error:
            _check(words in str(error), "%r: %s" % (bad, error))
        else:
            raise AssertionError("%r was accepted" % bad)
    _check(Calibration.from_dict(good).zones == (((32768, (7000, 10000)),),), "a small calibration")


def check_board_logic(board, calibration):
    """Scans in, one snapshot event per settled change and one dice event per roll out."""
    logic = BoardLogic(board.layout, calibration)
    events, now = [], 0
    for _ in range(12):
        events += logic.step(board.scan(), now)
        now += 20
    _check(len(events) == 1 and isinstance(events[0], SnapshotChanged), "first snapshot: %r" % events)
    board.place(0, white=2)
    board.dice = [3, 5]
    for _ in range(12):
        events += logic.step(board.scan(), now)
        now += 20
    _check([type(e) for e in events] == [SnapshotChanged, SnapshotChanged, DiceRolled], "events: %r" % events)
    _check(events[1].zones[0] == (2, 0) and events[1].changes == 2, "the move: %r" % events[1])
    _check(events[2].dice == (3, 5), "the roll: %r" % events[2])
    board.clear()


def run(seed=2024):
    """Run every check; the names of those passed."""
    layout = Layout()
    board = HallBoard(layout, Lcg(seed), spike_rate=0.005)
    calibration = calibrate(board, scans=5)
    passed = []
    for name, check, args in (
        ("stacks", check_stacks, (board, calibration)),
        ("debounce", check_debounce, ()),
        ("dice", check_dice, (board, calibration)),
        ("leds", check_leds, ()),
        ("calibration", check_calibration, (calibration, layout)),
        ("board_logic", check_board_logic, (board, calibration)),
    ):
        check(*args)
        passed.append(name)
    return passed
