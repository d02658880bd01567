"""Running ``trictrac`` in-process for tests: the exit status with what it printed, and a
configuration file written from text."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from controller.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    """``trictrac ARGV`` with empty standard input: (exit status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=out, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


def config(tmp_path: Path, text: str) -> Path:
    """A ``board.toml`` in ``tmp_path`` holding ``text``."""
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path
