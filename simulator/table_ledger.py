"""The soak's verdict on one simulated match: the plays and cube actions the players made (the
table's truth) against what the controller recorded, turn by turn, into the table's report."""

from __future__ import annotations

from typing import Sequence

from controller.rules.game import Game, Match, TurnRecord

from .cube_play import CubeTable
from .players import Attempt
from .table_report import TableReport


def compare_match(
    report: TableReport,
    truth: Sequence[Game],
    match: Match,
    replayed: Sequence[int],
    attempts: Sequence[Attempt],
    cube: CubeTable | None,
) -> None:
    """Fill ``report``'s ledger: illegal attempts and those warned, plays recorded identically
    (those a resumed match replayed from its journal not counted again), every mismatch, and
    the cube actions made and recorded."""
    report.illegal_attempts = len(attempts)
    report.attempts_warned = sum(1 for a in attempts if a.warned)
    games = match.games
    for number, game in enumerate(truth):
        recorded = games[number].turns() if number < len(games) else []
        made = [t for t in game.turns() if t.play]
        kept = [t for t in recorded if t.play]
        already = replayed[number] if number < len(replayed) else 0
        for i, turn in enumerate(made):
            other = kept[i] if i < len(kept) else None
            if other is not None and same_turn(turn, other):
                report.plays_recorded_identically += i >= already
            else:
                report.mismatches.append(
                    f"game {number + 1} play {i + 1}: made {turn.colour.value} {turn.roll} "
                    f"{[str(m) for m in turn.play]}, recorded "
                    f"{(other.colour.value, str(other.roll), [str(m) for m in other.play]) if other else None}"
                )
        if len(kept) > len(made):
            report.mismatches.append(f"game {number + 1}: {len(kept) - len(made)} plays recorded that were not made")
    if cube is not None:
        cube.compare(match, report.mismatches)
        report.cube_actions += cube.made
        report.cube_actions_recorded_identically += cube.recorded


def same_turn(made: TurnRecord, recorded: TurnRecord) -> bool:
    """A turn recorded as made: the same player, the same dice (in any order), the same board after."""
    return (
        made.colour is recorded.colour
        and sorted(made.roll.dice) == sorted(recorded.roll.dice)
        and made.after == recorded.after
    )
