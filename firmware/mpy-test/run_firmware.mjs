// Runs the firmware's pure modules under the real MicroPython (the WebAssembly port, v1.27.0):
// copies firmware/*.py into MicroPython's in-memory filesystem as the package `firmware`
// (as it sits on the Pico), tests/fake_machine.py as `machine` and as `neopixel`, then runs
// firmware.selfcheck, a scan through firmware.hw over the fake pins, and times
// BoardLogic.step.  Exits non-zero unless every check passed.
// Usage: node firmware/mpy-test/run_firmware.mjs   (after: npm ci --prefix firmware/mpy-test)
// MICROPYTHON_WASM=/path/to/micropython.mjs uses another copy of the package's module.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const firmware = join(here, "..");
const fake = join(firmware, "..", "tests", "fake_machine.py");
const { loadMicroPython } = await import(
  process.env.MICROPYTHON_WASM
    ? pathToFileURL(process.env.MICROPYTHON_WASM).href
    : "@micropython/micropython-webassembly-pyscript"
);

const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});

mp.FS.mkdir("/firmware");
for (const name of readdirSync(firmware).filter((n) => n.endsWith(".py"))) {
  mp.FS.writeFile(`/firmware/${name}`, readFileSync(join(firmware, name)));
}
mp.FS.mkdir("/lib");
mp.FS.writeFile("/lib/machine.py", readFileSync(fake));
mp.FS.writeFile("/lib/neopixel.py", readFileSync(fake));

const checks = String.raw`
import sys, time
import machine, neopixel
from firmware import selfcheck
from firmware.board_logic import BoardLogic
from firmware.pins import DEFAULT_PINS
from firmware.scan import Layout
from firmware.synthetic import HallBoard, Lcg, calibrate

passed, failed = 0, 0

def report(name, check):
    global passed, failed
    start = time.ticks_ms()
    try:
        detail = check()
    except Exception as error:
        failed += 1
        print("FAIL %s: %s %s" % (name, type(error).__name__, error))
        sys.print_exception(error)
        return
    passed += 1
    print("ok %s (%d ms)%s" % (name, time.ticks_diff(time.ticks_ms(), start), detail or ""))

def run_selfcheck():
    return " " + ", ".join(selfcheck.run())

def scan_through_hw():
    layout, pins = Layout(), DEFAULT_PINS
    def wiring(gpio, levels):
        low = [bank for bank, g in enumerate(pins.enable) if levels.get(g, 1) == 0]
        if len(low) != 1:
            return 0
        channel = 0
        for bit, g in enumerate(pins.select):
            channel |= levels.get(g, 0) << bit
        return 1 + pins.adc.index(gpio) * 4096 + low[0] * 256 + channel * 16
    machine.reset()
    neopixel.reset()
    machine.wiring = wiring
    from firmware.hw import Hardware
    hw = Hardware(pins, layout)
    raw = hw.scan()
    for sensor in range(layout.sensor_count):
        adc, bank, channel = layout.address(sensor)
        assert raw[sensor] == 1 + adc * 4096 + bank * 256 + channel * 16, sensor
    assert all(machine.levels[g] == 1 for g in pins.enable), "muxes left on"
    hw.show([(1, 2, 3)] * layout.zones)
    hw.feed()
    assert neopixel.chains[0].written[-1][27] == (1, 2, 3) and machine.watchdog["fed"] == 1
    return " %d sensors" % layout.sensor_count

def time_step():
    layout = Layout()
    board = HallBoard(layout, Lcg(7))
    logic = BoardLogic(layout, calibrate(board, scans=3))
    board.place(0, white=15)
    board.place(12, black=15)
    scans = [board.scan() for _ in range(10)]
    start = time.ticks_us()
    steps = 200
    for i in range(steps):
        logic.step(scans[i % 10], i * 20)
        logic.pixels(i * 20)
    each = time.ticks_diff(time.ticks_us(), start) / steps
    return " BoardLogic.step + pixels: %d us a scan" % each

report("selfcheck", run_selfcheck)
report("hw scan over fake machine", scan_through_hw)
report("timing", time_step)
print("firmware-micropython: %d passed, %d failed" % (passed, failed))
`;

let failed;
try {
  mp.runPython(checks);
  failed = mp.globals.get("failed");
} catch (error) {
  console.error(`micropython raised: ${error.message}`);
  console.log("firmware-micropython: 0 passed, 1 failed");
  failed = 1;
}
process.exitCode = failed === 0 ? 0 : 1;
