// Runs firmware/device.py under the real MicroPython (the WebAssembly port, v1.27.0): copies
// firmware/*.py into MicroPython's in-memory filesystem as the package `firmware` (as it sits
// on the Pico), tests/fake_machine.py as `machine` and `neopixel`, then runs check_device.py
// (a scripted conversation with the Device; it prints a digest of every byte sent, which
// tests/test_device.py compares with CPython's) and imports firmware.main, storing and
// loading a calibration through it.  Exits non-zero unless every check passed.
// Usage: node firmware/mpy-test/run_device.mjs   (after: npm ci --prefix firmware/mpy-test)

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const firmware = join(here, "..");
const fake = join(firmware, "..", "tests", "fake_machine.py");

const mp = await loadMicroPython({
  heapsize: 16 * 1024 * 1024,
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
mp.FS.writeFile("/lib/check_device.py", readFileSync(join(here, "check_device.py")));

const script = String.raw`
import sys
sys.path.insert(0, "/lib")
import check_device
failed = check_device.main()
try:
    import firmware.main as main
    from firmware.classify import Calibration
    calibration = check_device.Conversation().device.logic.calibration
    main.store_calibration(calibration.to_json(), "/calibration-test.json")
    main.store_calibration(calibration.to_json(), "/calibration-test.json")
    loaded, problem = main.load_calibration("/calibration-test.json")
    assert problem is None and loaded == calibration, problem
    assert main.load_calibration("/missing.json") == (None, None)
    print("ok main: imports, stores and loads the calibration")
except Exception as error:
    failed += 1
    print("FAIL main: %s %s" % (type(error).__name__, error))
print("device-micropython: %s" % ("ok" if failed == 0 else "%d failed" % failed))
`;

let failed;
try {
  mp.runPython(script);
  failed = mp.globals.get("failed");
} catch (error) {
  console.error(`micropython raised: ${error.message}`);
  console.log("device-micropython: 1 failed");
  failed = 1;
}
process.exitCode = failed === 0 ? 0 : 1;
