"""The match equity table: a player's chance to win the match from a score.

The shipped table is Kazaross-XG2 (``met/kazaross-xg2.json``, transcribed from GNU
Backgammon 1.07's ``met/Kazaross-XG2.xml``; its source and copyright notice are kept in the
file): rolled out by eXtreme Gammon to 9 points and by GNUbg to 15, extended to 25.  It is
what XG and gnubg use by default, so the board's cube decisions in a match agree with the
analysis a record gets there.

Scores are "points to go" (away).  Past 25 away, where the table ends, a normal
approximation fitted to the table's edge stands in (the board allows matches to 99).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

SPREAD = 1.83
"""The normal approximation past the table: MWC = Phi((b - a) / (SPREAD * sqrt(a + b))),
fitted to the table's 25-away row (25 v 20: 0.342 table, 0.342 formula; 25 v 15: 0.191, 0.195)."""


@dataclass(frozen=True)
class MatchEquityTable:
    """Match winning chances by points to go, before and after the Crawford game."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    """``pre[i][j]``: a player ``i + 1`` away against ``j + 1`` away (the Crawford game included)."""
    post: tuple[float, ...]
    """``post[i]``: the trailer ``i + 1`` away after the Crawford game (the leader 1 away)."""

    def mwc(self, away: int, opponent: int, post_crawford: bool = False) -> float:
        """The chance that the player ``away`` points from winning wins the match against one
        ``opponent`` points away; ``post_crawford``: a game after the Crawford game (the rule
        matters only when one of them is 1 away)."""
        if away <= 0:
            return 1.0
        if opponent <= 0:
            return 0.0
        if post_crawford and (away == 1) != (opponent == 1):
            return self._post(away) if opponent == 1 else 1.0 - self._post(opponent)
        size = len(self.pre)
        if away <= size and opponent <= size:
            return self.pre[away - 1][opponent - 1]
        return 0.5 * (1.0 + math.erf((opponent - away) / (SPREAD * math.sqrt(2.0 * (away + opponent)))))

    def _post(self, trailer: int) -> float:
        """The trailer's chance after the Crawford game."""
        if trailer <= len(self.post):
            return self.post[trailer - 1]
        last, before = self.post[-1], self.post[-3]
        return last * (last / before) ** ((trailer - len(self.post)) / 2)


@lru_cache(maxsize=None)
def kazaross_xg2() -> MatchEquityTable:
    """The shipped table (read once)."""
    text = resources.files(__package__).joinpath("met", "kazaross-xg2.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return MatchEquityTable(data["name"], tuple(tuple(row) for row in data["pre"]), tuple(data["post"]))


__all__ = ["MatchEquityTable", "SPREAD", "kazaross_xg2"]
