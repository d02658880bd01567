"""A match played on the board as a game record, for ``trictrac replay`` and gnubg."""

from __future__ import annotations

from ..notation.moves import format_play
from ..rules.game import CubeAction, Match, TurnRecord
from ..rules.values import Colour
from .matfile import GameRecordGame, MatchRecord, Turn


def match_record(match: Match, *, headers: tuple[tuple[str, str], ...] = ()) -> MatchRecord:
    """The record of every game of ``match`` so far (finished games with their result)."""
    rules = match.rules
    score = {Colour.WHITE: 0, Colour.BLACK: 0}
    games = []
    for number, game in enumerate(match.games, 1):
        turns = []
        for item in game.history:
            if isinstance(item, TurnRecord):
                turns.append(Turn(item.colour, item.roll, format_play(item.play, rules)))
            elif isinstance(item, CubeAction):
                turns.append(Turn(item.colour, None, "", item.action))
        result = match.results[number - 1] if number <= len(match.results) else None
        games.append(
            GameRecordGame(
                number,
                score[Colour.WHITE],
                score[Colour.BLACK],
                tuple(turns),
                result.winner if result else None,
                result.points if result else None,
            )
        )
        if result is not None:
            score[result.winner] += result.points
    return MatchRecord(
        rules.name,
        tuple(rules.changed_options().items()),
        match.length,
        games=tuple(games),
        headers=headers,
    )
