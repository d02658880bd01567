"""Notation: move notation, the text board, and position formats (the interchange JSON,
eXtreme Gammon's XGID and GNU Backgammon's Position ID)."""

from .diagram import draw
from .gnubg_id import PositionIdError, position_id_decode, position_id_encode, position_key
from .moves import NotationError, format_play, format_play_lines, parse_play
from .position_json import PositionJsonError, dumps, loads, position_from_json, position_to_json
from .xgid import CubeAction, XgidError, XgidRecord, xgid_decode, xgid_encode

__all__ = [
    "CubeAction", "NotationError", "draw", "format_play", "format_play_lines", "parse_play", "PositionIdError", "PositionJsonError", "XgidError", "XgidRecord", "dumps", "loads",
    "position_from_json", "position_id_decode", "position_id_encode", "position_key", "position_to_json",
    "xgid_decode", "xgid_encode",
]
