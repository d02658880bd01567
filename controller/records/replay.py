"""Replay a game record through the rules engine, checking every turn.

A record that contains an illegal turn is rejected with a message naming the game, the
turn number and what is wrong; nothing after it is trusted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..notation.moves import NotationError, format_play, parse_play
from ..notation.position_json import position_to_json
from ..rules.base import GameResult, RuleSet
from ..rules.game import Game, TurnRecord
from ..rules.registry import get_rule_set
from ..rules.values import BLACK, WHITE, Colour, IllegalPlayError, Position, RulesError
from .mat_reader import standard_play
from .matfile import GameRecordGame, MatchRecord


class ReplayError(RulesError):
    """A record whose turns do not follow the rules; names the first bad turn."""


@dataclass
class ReplayedGame:
    """One game of a record after checking: its turns with positions, and how it ended."""

    number: int
    rules: RuleSet
    start: Position
    turns: list[TurnRecord] = field(default_factory=list)
    final: Position | None = None
    result: GameResult | None = None

    def outcome_text(self) -> str:
        """One line: who won and how much, or that the game is unfinished."""
        if self.result is None:
            return f"Game {self.number} unfinished, {self.final.turn.value if self.final else 'white'} to move"
        r = self.result
        return f"Game {self.number}: {r.winner.value} wins {r.points} point{'s' if r.points != 1 else ''} ({r.kind})"


@dataclass
class Replay:
    """A whole record after checking."""

    rules: RuleSet
    games: list[ReplayedGame]
    score: dict[Colour, int]
    match_length: int

    def score_text(self) -> str:
        """The match score line."""
        length = f" in a {self.match_length}-point match" if self.match_length else ""
        return f"Score{length}: White {self.score[WHITE]}, Black {self.score[BLACK]}"

    def to_json(self) -> dict[str, Any]:
        """Every turn with the positions before and after, and the result, as JSON data."""
        turns = []
        for game in self.games:
            for turn in game.turns:
                turns.append(
                    {
                        "game": game.number,
                        "colour": turn.colour.value,
                        "roll": [turn.roll.first, turn.roll.second],
                        "play": format_play(turn.play, self.rules),
                        "before": position_to_json(self.rules, turn.before),
                        "after": position_to_json(self.rules, turn.after),
                    }
                )
        last = self.games[-1] if self.games else None
        result: dict[str, Any] = {
            "winner": last.result.winner.value if last and last.result else None,
            "points": last.result.points if last and last.result else 0,
            "kind": last.result.kind if last and last.result else None,
            "position": position_to_json(self.rules, last.final) if last and last.final else None,
            "score": {"white": self.score[WHITE], "black": self.score[BLACK]},
            "games": len(self.games),
        }
        return {"turns": turns, "result": result}


RESIGN_MULTIPLES: dict[str, tuple[int, ...]] = {
    "trictrac": (1, 2, 4, 8),
    "backgammon": (1, 2, 3),
    "rally": (1,),
    "rally-hitting": (1,),
}
"""What a game may be worth before the cube, by rule set (RULES.md 2.3 and section 4; the
rally's mars, an option, adds 2): a resignation ends a game for one of these times the cube."""


def _fail(game: int, turn: int, colour: Colour | None, message: str, line: int | None = None) -> ReplayError:
    who = f" ({colour.value})" if colour else ""
    where = f" (line {line})" if line else ""
    return ReplayError(f"game {game}, turn {turn}{who}{where}: {message}")


def _resign_points(rules: RuleSet, cube: int) -> list[int]:
    """The points a resignation may give under ``rules`` with the cube at ``cube``."""
    multiples = set(RESIGN_MULTIPLES.get(rules.name, (1,)))
    if rules.options.get("mars"):
        multiples.add(2)
    return sorted(m * cube for m in multiples)


def replay(record: MatchRecord) -> Replay:
    """Check every turn of every game in ``record``; raise ReplayError at the first bad one."""
    rules = get_rule_set(record.rules, dict(record.options))
    score = {WHITE: 0, BLACK: 0}
    games: list[ReplayedGame] = []
    for recorded in record.games:
        where = f" (line {recorded.line})" if recorded.line else ""
        if (recorded.score_white, recorded.score_black) != (score[WHITE], score[BLACK]):
            raise ReplayError(
                f"game {recorded.number}{where}: the record gives the score as White {recorded.score_white}, "
                f"Black {recorded.score_black}, but the games before make it {score[WHITE]}-{score[BLACK]}"
            )
        done, cube = _replay_game(rules, recorded)
        game_result = done.result
        wins = f" (line {recorded.wins_line})" if recorded.wins_line else where
        if recorded.winner is not None:
            if game_result is None:
                # a resignation: the record ends the game before the last checker is off
                allowed = _resign_points(rules, cube)
                if recorded.points not in allowed:
                    raise ReplayError(
                        f"game {recorded.number}{wins}: {recorded.winner.value} wins {recorded.points} by resignation, "
                        f"but with the cube at {cube} a {rules.name} game is worth {', '.join(map(str, allowed))}"
                    )
                game_result = GameResult(recorded.winner, recorded.points or 1, "resigned")
            elif (game_result.winner, game_result.points) != (recorded.winner, recorded.points):
                raise ReplayError(
                    f"game {recorded.number}{wins}: the record says {recorded.winner.value} wins {recorded.points}, "
                    f"but the position gives {game_result.winner.value} {game_result.points}"
                )
            done.result = game_result
            score[game_result.winner] += game_result.points
        elif game_result is not None:
            score[game_result.winner] += game_result.points
        games.append(done)
    return Replay(rules, games, score, record.match_length)


def _replay_game(rules: RuleSet, recorded: GameRecordGame) -> tuple[ReplayedGame, int]:
    """The game replayed, and the cube's value at its end."""
    number, turns = recorded.number, recorded.turns
    game = Game(rules)
    done = ReplayedGame(number, rules, game.start)
    for index, turn in enumerate(turns, 1):
        if index == 1 and turn.colour is not game.turn:
            if rules.name == "trictrac":
                raise _fail(number, index, turn.colour, "in trictrac White moves first (RULES.md 2.1)", turn.line)
            game.position = game.position.with_turn(turn.colour)
            done.start = game.position
        if game.is_over:
            raise _fail(number, index, turn.colour, "the game is already over", turn.line)
        try:
            if turn.action is not None:
                game.cube(turn.colour, turn.action)
                continue
            if turn.colour is not game.turn:
                raise _fail(number, index, turn.colour, f"it is {game.turn.value}'s turn", turn.line)
            if turn.roll is None:
                raise _fail(number, index, turn.colour, "a turn without a roll", turn.line)
            if index == len(turns) and recorded.winner is not None and turn.is_pass and game.legal_plays(turn.roll):
                break  # gnubg writes a resignation after the roll as the roll alone, then "Wins"
            play = parse_play(standard_play(turn.play), rules, game.position, turn.roll)
            done.turns.append(game.play(turn.roll, play))
        except (NotationError, IllegalPlayError) as error:
            raise _fail(number, index, turn.colour, str(error), turn.line) from None
    done.final = game.position
    done.result = game.result()
    return done, game.cube_value
