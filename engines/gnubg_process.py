"""One long-lived GNU Backgammon process answering JSON requests (``gnubg_script.py``).

The program runs in text mode with a small Python script of ours inside it: requests go to
its standard input one a line, answers come back one a line on a pipe of their own (gnubg's
own output is thrown away).  The process is started on the first request, so an engine
that is never asked costs nothing, and killed by ``close`` or when the object is collected.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from controller.engine import EngineError

SCRIPT = Path(__file__).with_name("gnubg_script.py")
PLACES = ("/usr/games/gnubg", "/usr/bin/gnubg", "/usr/local/bin/gnubg")
"""Where Debian and friends put the program when ``gnubg`` is not on PATH (/usr/games often is not)."""
INSTALL_HINT = "install GNU Backgammon (apt-get install gnubg)"
PROGRAM_VARIABLE = "TRICTRAC_GNUBG"
"""An environment variable naming the gnubg program to use instead of looking for one."""
START_TIMEOUT = 60.0
ANSWER_TIMEOUT = 120.0
"""Seconds to wait for the nets to load, and for one answer (a 2-ply rank of ~500 plays)."""


class GnubgError(EngineError):
    """GNU Backgammon failed: it died, did not answer in time, or answered garbage."""


class GnubgMissing(GnubgError):
    """GNU Backgammon is not installed (or not where it was said to be)."""


def find_program(program: str | os.PathLike[str] | None = None) -> str:
    """The gnubg executable: ``program`` if given, else ``$TRICTRAC_GNUBG``, else ``gnubg`` on
    PATH or in /usr/games; GnubgMissing with how to install it otherwise."""
    if program is None:
        program = os.environ.get(PROGRAM_VARIABLE) or None
    if program is not None:
        path = Path(program)
        found = shutil.which(str(program)) if path.name == str(program) else (str(path) if path.is_file() else None)
        if found is None or not os.access(found, os.X_OK):
            raise GnubgMissing(f"gnubg not found at {os.fspath(program)!r}: {INSTALL_HINT} or give its path")
        return found
    found = shutil.which("gnubg")
    if found:
        return found
    for place in PLACES:
        if os.path.isfile(place) and os.access(place, os.X_OK):
            return place
    raise GnubgMissing(f"gnubg is not installed (not on PATH, nor in /usr/games): {INSTALL_HINT}")


def _kill(process: subprocess.Popen[str]) -> None:
    """Kill a gnubg process and reap it (also run when its owner is collected)."""
    if process.poll() is None:
        process.kill()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
        pass


class GnubgProcess:
    """A gnubg child process and its request/answer pipes; thread-safe, one request at a time."""

    def __init__(self, program: str | os.PathLike[str] | None = None) -> None:
        self.program = find_program(program)
        self._process: subprocess.Popen[str] | None = None
        self._answers = -1
        self._buffer = b""
        self._errors: Any = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize | None = None

    # -- life ---------------------------------------------------------------------------
    def _start(self) -> None:
        read, write = os.pipe()
        self._errors = tempfile.TemporaryFile("w+")
        env = {**os.environ, "TRICTRAC_GNUBG_FD": str(write), "LANG": "C", "LC_ALL": "C"}
        try:
            self._process = subprocess.Popen(
                [self.program, "-t", "-q", "-r", "-p", str(SCRIPT)], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=self._errors, pass_fds=(write,), env=env, text=True,
                start_new_session=True)
        except OSError as error:
            os.close(read)
            raise GnubgMissing(f"gnubg at {self.program!r} cannot be run ({error.strerror}): {INSTALL_HINT}") from None
        finally:
            os.close(write)
        self._answers = read
        self._finalizer = weakref.finalize(self, _close_quietly, self._process, read, self._errors)
        self._exchange({"op": "hello"}, START_TIMEOUT)

    def close(self) -> None:
        """Ask gnubg to quit, then kill it if it has not; safe to call twice."""
        with self._lock:
            if self._finalizer is not None:
                process = self._process
                if process is not None and process.poll() is None and process.stdin is not None:
                    try:
                        process.stdin.write('{"op": "quit"}\n')
                        process.stdin.flush()
                        process.wait(timeout=2)
                    except (OSError, ValueError, subprocess.TimeoutExpired):
                        pass
                self._finalizer()
            self._finalizer, self._process, self._answers, self._buffer = None, None, -1, b""

    @property
    def running(self) -> bool:
        """Whether the gnubg process is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        """The gnubg process id, once started."""
        return self._process.pid if self._process is not None else None

    # -- requests -----------------------------------------------------------------------
    def ask(self, request: dict[str, Any], timeout: float = ANSWER_TIMEOUT) -> dict[str, Any]:
        """Send one request and return gnubg's answer (its ``ok`` true); GnubgError otherwise."""
        with self._lock:
            if self._process is None:
                self._start()
            return self._exchange(request, timeout)

    def _exchange(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None
        line = self._read_line(timeout)
        try:
            answer = json.loads(line)
        except ValueError:
            raise GnubgError(f"gnubg answered garbage: {line[:200]!r}") from None
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            error = answer.get("error") if isinstance(answer, dict) else answer
            raise GnubgError(f"gnubg could not answer {request.get('op')!r}: {error}")
        return answer

    def _read_line(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                self._kill_now()
                raise GnubgError(f"gnubg did not answer within {timeout:g} s (killed)")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise self._died()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _kill_now(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._finalizer, self._process, self._answers, self._buffer = None, None, -1, b""

    def _died(self) -> GnubgError:
        """The error for a gnubg that stopped answering, with the end of what it said."""
        process, errors = self._process, self._errors
        status = None
        if process is not None:
            try:
                status = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        said = ""
        if errors is not None:
            try:
                errors.seek(0)
                said = " ".join(errors.read()[-400:].split())
            except (OSError, ValueError):
                pass
        self._kill_now()
        return GnubgError(f"gnubg exited (status {status}) without answering" + (f": {said}" if said else ""))


def _close_quietly(process: subprocess.Popen[str], answers: int, errors: Any) -> None:
    _kill(process)
    closings = [lambda: os.close(answers), errors.close] + ([process.stdin.close] if process.stdin else [])
    for closing in closings:
        try:
            closing()
        except (OSError, ValueError):
            pass


__all__ = ["GnubgError", "GnubgMissing", "GnubgProcess", "find_program"]
