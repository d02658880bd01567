// Runs firmware/protocol.py under the real MicroPython (the WebAssembly port, v1.27.0):
// copies the codec, the shared vectors and check_protocol.py into MicroPython's in-memory
// filesystem, imports them there, and exits non-zero unless every check passed.
// Usage: node firmware/mpy-test/run.mjs   (after: npm ci --prefix firmware/mpy-test)

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const firmware = join(here, "..");
const files = {
  "protocol.py": join(firmware, "protocol.py"),
  "protocol_vectors.json": join(firmware, "protocol_vectors.json"),
  "check_protocol.py": join(here, "check_protocol.py"),
};

const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});

mp.FS.mkdir("/mpy");
for (const [name, path] of Object.entries(files)) {
  mp.FS.writeFile(`/mpy/${name}`, readFileSync(path));
}

let failed;
try {
  mp.runPython(
    "import sys\nsys.path.insert(0, '/mpy')\nimport check_protocol\n" +
      "failed = check_protocol.main('/mpy/protocol_vectors.json')\n",
  );
  failed = mp.globals.get("failed");
} catch (error) {
  console.error(`micropython raised: ${error.message}`);
  console.log("micropython: 0 passed, 1 failed");
  failed = 1;
}
process.exitCode = failed === 0 ? 0 : 1;
