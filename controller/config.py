"""The board's configuration file (TOML): the game, the dice, the journal, the wiring.

Every bad value is reported with the file and the key, e.g.
``board.toml: game.grace: expected seconds between 0.1 and 10, got -1``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from hal.interfaces import DiceKind

from .listen import Listen, parse_listen
from .notation.bounded_json import bracket_depth
from .rules.base import RuleSet
from .player_names import PlayerName, parse_player
from .rules.geometry import QUARTERS
from .rules.registry import get_rule_set
from .rules.values import RulesError


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Players:
    """Who plays each side (``[players]``): a person, or an engine whose plays are lit."""

    white: PlayerName = PlayerName("human")
    black: PlayerName = PlayerName("human")
    substitute: bool = False
    """A person carrying the computer's checkers may make another legal play instead."""
    hints: PlayerName | None = PlayerName("builtin", "best")
    """The engine Menu asks for a hint (``hints = "none"``: no hints)."""


@dataclass(frozen=True)
class Config:
    """Everything ``trictrac run`` needs to know."""

    rules: RuleSet = field(default_factory=lambda: get_rule_set("trictrac"))
    quarter: str | None = None
    match_length: int = 1
    grace: float = 1.0
    dice: DiceKind = DiceKind.TRAY
    journal: Path | None = None
    records: Path | None = None
    gpio: Mapping[str, Any] | None = None
    port: str | None = None
    board: bool = False
    """A real board is attached (a ``[board]`` section, with or without a port)."""
    web: Listen | None = None
    """Serve the web view there (``[web] listen``)."""
    web_token: str | None = None
    """The token a browser needs to play when the web view listens beyond this machine."""
    players: Players = Players()
    source: str = "<defaults>"


_SECTIONS = {
    "game": {"rules", "options", "quarter", "match_length", "grace"},
    "dice": {"mode"},
    "journal": {"path", "records"},
    "gpio": None,  # checked by hal.gpio_config
    "board": {"port"},
    "web": {"listen", "token"},
    "players": {"white", "black", "substitute", "hints"},
}


MAX_CONFIG_BYTES = 256 * 1024
"""The largest configuration file read (the example is under 1 kB)."""
MAX_CONFIG_DEPTH = 16
"""The deepest nesting of arrays and inline tables accepted (the configuration needs 2)."""

_TOML_TOKEN = re.compile(
    r'''"""(?:[^\\]|\\.)*?(?:"""|$)|\'\'\'.*?(?:\'\'\'|$)|"(?:[^"\\\n]|\\.)*+"?|\'[^\'\n]*+\'?|#[^\n]*+|[\[\]{}]''',
    re.DOTALL,
)
"""A TOML string of any of the four kinds, a comment, or a bracket (strings and comments skipped)."""


def toml_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in TOML text, brackets in strings and comments ignored."""
    return bracket_depth("".join(token for token in _TOML_TOKEN.findall(text) if token in "[]{}"))


def load_config(path: Path | str) -> Config:
    """Read and check a TOML configuration file."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except (OSError, ValueError) as error:
        problem = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ConfigError(f"{path}: cannot read: {problem}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1024} kB: not a configuration file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None
    if toml_depth(text) > MAX_CONFIG_DEPTH:
        raise ConfigError(f"{path}: not valid TOML: nested deeper than {MAX_CONFIG_DEPTH}")
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except (ValueError, RecursionError) as error:  # e.g. a number of more than 4300 digits
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    return parse_config(parsed, str(path))


def parse_config(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Check a configuration mapping (as TOML gives it)."""

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{source}: {key}: {message}")

    for section, value in data.items():
        if section not in _SECTIONS:
            raise fail(section, f"unknown section (known: {', '.join(_SECTIONS)})")
        if not isinstance(value, dict):
            raise fail(section, "expected a table")
        known = _SECTIONS[section]
        if known is not None:
            for key in value:
                if key not in known:
                    raise fail(f"{section}.{key}", f"unknown key (known: {', '.join(sorted(known))})")
    game = data.get("game", {})
    name = game.get("rules", "trictrac")
    options = game.get("options", {})
    if not isinstance(name, str):
        raise fail("game.rules", f"expected a rule-set name, got {name!r}")
    if not isinstance(options, dict):
        raise fail("game.options", "expected a table of true/false options")
    try:
        rules = get_rule_set(name, options)
    except RulesError as error:
        raise fail("game.rules" if "unknown rule set" in str(error) else "game.options", str(error)) from None
    quarter = game.get("quarter")
    if quarter is not None:
        if rules.MIRRORED:
            raise fail("game.quarter", f"{rules.name} has no start quarter (only the rally has)")
        if not isinstance(quarter, str) or quarter not in QUARTERS:
            raise fail("game.quarter", f"expected one of {', '.join(QUARTERS)}, got {quarter!r}")
    match_length = game.get("match_length", 1)
    if not isinstance(match_length, int) or isinstance(match_length, bool) or not 0 <= match_length <= 99:
        raise fail("game.match_length", f"expected a whole number of points 0-99 (0: unlimited), got {match_length!r}")
    grace = game.get("grace", 1.0)
    if not isinstance(grace, (int, float)) or isinstance(grace, bool) or not 0.1 <= grace <= 10:
        raise fail("game.grace", f"expected seconds between 0.1 and 10, got {grace!r}")
    mode = data.get("dice", {}).get("mode", "tray")
    try:
        dice = DiceKind(mode)
    except ValueError:
        raise fail("dice.mode", f"expected one of {', '.join(k.value for k in DiceKind)}, got {mode!r}") from None
    journal_section = data.get("journal", {})
    journal = _path(journal_section.get("path"), "journal.path", fail)
    records = _path(journal_section.get("records"), "journal.records", fail)
    gpio = data.get("gpio")
    if gpio is not None:
        from hal.gpio_config import GpioConfig

        try:
            GpioConfig.from_mapping(gpio)
        except ValueError as error:
            raise ConfigError(f"{source}: {error}") from None
    port = data.get("board", {}).get("port")
    if port is not None and (not isinstance(port, str) or not port.strip()
                             or any(ord(c) < 32 or ord(c) == 127 for c in port)):
        raise fail("board.port", f"expected a device path or URL (or no port: found by USB id), got {port!r}")
    web, token = _web(data.get("web", {}), fail)
    return Config(rules, quarter, match_length, float(grace), dice, journal, records, gpio, port, "board" in data,
                  web, token, _players(data.get("players", {}), fail), source)


def _players(section: Mapping[str, Any], fail: Any) -> Players:
    """The ``[players]`` section: who plays White and Black, substitutes, the hint engine."""
    names = []
    for key in ("white", "black"):
        value = section.get(key, "human")
        try:
            if not isinstance(value, str):
                raise ValueError(f"expected a player name such as \"human\" or \"builtin:best\", got {value!r}")
            names.append(parse_player(value))
        except ValueError as error:
            raise fail(f"players.{key}", str(error)) from None
    substitute = section.get("substitute", False)
    if not isinstance(substitute, bool):
        raise fail("players.substitute", f"expected true or false, got {substitute!r}")
    hints_text = section.get("hints", "builtin")
    hints: PlayerName | None = None
    if hints_text != "none":
        try:
            if not isinstance(hints_text, str):
                raise ValueError(f"expected an engine name or \"none\", got {hints_text!r}")
            hints = parse_player(hints_text)
            if not hints.is_engine:
                raise ValueError(f"hints come from an engine (builtin or gnubg) or \"none\", not {hints_text!r}")
        except ValueError as error:
            raise fail("players.hints", str(error)) from None
    return Players(names[0], names[1], substitute, hints)


def _web(section: Mapping[str, Any], fail: Any) -> tuple[Listen | None, str | None]:
    """The ``[web]`` section: where to listen (``"8080"``, ``8080`` or ``"0.0.0.0:8080"``) and the token."""
    listen = section.get("listen")
    where: Listen | None = None
    if listen is not None:
        if isinstance(listen, int) and not isinstance(listen, bool):
            listen = str(listen)
        if not isinstance(listen, str):
            raise fail("web.listen", f"expected [HOST:]PORT such as \"8080\" or \"0.0.0.0:8080\", got {listen!r}")
        try:
            where = parse_listen(listen)
        except ValueError as error:
            raise fail("web.listen", str(error)) from None
    token = section.get("token")
    if token is not None and (not isinstance(token, str) or not 16 <= len(token) <= 128
                              or not all(c.isalnum() or c in "-_" for c in token)):
        raise fail("web.token", "expected 16-128 letters, digits, - or _ (or leave it out: one is made at start)")
    return where, token


def _path(value: Any, key: str, fail: Any) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise fail(key, f"expected a file path, got {value!r}")
    return Path(value).expanduser()
