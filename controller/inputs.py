"""What a user hands the command line, read safely: files, standard input, output paths.

Files are read as bytes, within a size bound, and decoded as UTF-8 with a clear error
(``pos.json: not UTF-8 text (byte 0xff at offset 12)``); JSON-lines input is read one
bounded line at a time so one bad line cannot stop the stream.  The folders the board
writes to are checked before play starts.  Every problem is an :class:`InputError`
(a ValueError) whose message names the file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import IO, Any, Iterator

STDIN = "-"
STDIN_NAME = "standard input"
MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest input file read (a record of a long match is well under 1 MB)."""
MAX_LINE_BYTES = 1024 * 1024
"""The longest JSON-lines line read (a position is about 200 bytes)."""


class InputError(ValueError):
    """An input file, stream or path the command cannot use; the message names it."""


def decode(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or InputError naming the byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{where}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None


def _os_problem(error: OSError | ValueError) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)  # a NUL byte in the name


def display_name(source: str) -> str:
    """How messages name an input: the path, or ``standard input`` for ``-``."""
    return STDIN_NAME if source == STDIN else source


def read_input(source: str, stdin: IO[Any], limit: int = MAX_FILE_BYTES) -> tuple[str, str]:
    """The text of the file ``source`` (``-``: standard input) and its name for messages."""
    where = display_name(source)
    if source == STDIN:
        buffer = getattr(stdin, "buffer", None)
        data = buffer.read(limit + 1) if buffer is not None else stdin.read(limit + 1)
    else:
        try:
            with open(source, "rb") as handle:
                data = handle.read(limit + 1)
        except (OSError, ValueError) as error:
            raise InputError(f"cannot read {source}: {_os_problem(error)}") from None
    if len(data) > limit:
        raise InputError(f"{where}: larger than {limit // (1024 * 1024)} MB")
    return (decode(data, where) if isinstance(data, bytes) else data), where


def _line_of(raw: bytes | str, number: int, where: str) -> str:
    return decode(raw, f"{where} line {number}") if isinstance(raw, bytes) else raw


def _lines_of(handle: IO[Any], where: str, limit: int) -> Iterator[tuple[int, str | InputError]]:
    number = 0
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit and raw[-1:] not in ("\n", b"\n"):
            while raw and raw[-1:] not in ("\n", b"\n"):  # skip the rest of the over-long line
                raw = handle.readline(limit)
            yield number, InputError(f"{where} line {number}: longer than {limit} bytes")
            continue
        try:
            yield number, _line_of(raw, number, where)
        except InputError as error:
            yield number, error


def read_lines(source: str, stdin: IO[Any], limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str | InputError]]:
    """Each line of ``source`` (``-``: standard input) with its number, or the InputError it
    makes (not UTF-8, too long): a bad line never ends the stream."""
    where = display_name(source)
    if source == STDIN:
        yield from _lines_of(getattr(stdin, "buffer", None) or stdin, where, limit)
        return
    try:
        handle = open(source, "rb")
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read {source}: {_os_problem(error)}") from None
    with handle:
        yield from _lines_of(handle, where, limit)


def _probe_folder(folder: Path, what: str) -> None:
    """Make ``folder`` (and its parents) and check a file can be created in it."""
    try:
        if folder.exists() and not folder.is_dir():
            raise InputError(f"{what}: {folder} exists and is not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise InputError(f"{what}: cannot write in the folder {folder}: {_os_problem(error)}") from None


def _name_problem(path: Path) -> str | None:
    text = str(path)
    if text == "" or "\0" in text:
        return "not a usable name"
    return None


def check_journal_path(path: Path) -> None:
    """The journal can be read and appended to: a regular file (or none yet) in a writable folder."""
    what = f"journal {path}"
    problem = _name_problem(path)
    if problem:
        raise InputError(f"journal {str(path)!r}: {problem}")
    try:
        if path.exists() or path.is_symlink():
            if not path.is_file():
                raise InputError(f"{what}: not a regular file")
            with open(path, "ab"):
                pass
    except OSError as error:
        raise InputError(f"{what}: cannot write: {_os_problem(error)}") from None
    _probe_folder(path.parent, what)  # also where a finished or damaged journal is set aside


def check_records_folder(path: Path) -> None:
    """The records folder exists (or is made now) and a record can be written in it."""
    problem = _name_problem(path)
    if problem:
        raise InputError(f"records {str(path)!r}: {problem}")
    if path.exists() and not path.is_dir():
        raise InputError(f"records {path}: exists and is not a folder")
    _probe_folder(path, f"records {path}")


__all__ = [
    "MAX_FILE_BYTES", "MAX_LINE_BYTES", "STDIN", "InputError", "check_journal_path", "check_records_folder",
    "decode", "display_name", "read_input", "read_lines",
]
