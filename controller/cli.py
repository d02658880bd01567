"""The ``trictrac`` command: legal plays, game replay, board display and the main job."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Sequence, TextIO

from .notation.diagram import draw
from .notation.moves import format_play
from .notation.position_json import position_from_json, position_to_json
from .records.matfile import read_mat
from .records.replay import ReplayError, replay
from .rules import Position, Roll, RuleSet, RulesError, get_rule_set, rule_set_names

SAMPLE_GAME = "mendelev.mat"


class CliError(Exception):
    """A problem with the command line or its input, reported without a traceback."""


def _read_text(source: str, stdin: TextIO) -> tuple[str, str]:
    if source == "-":
        return stdin.read(), "<stdin>"
    try:
        return Path(source).read_text(encoding="utf-8"), source
    except OSError as error:
        raise CliError(f"cannot read {source}: {error.strerror or error}") from None


def _load_position(text: str, where: str) -> tuple[RuleSet, Position]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"{where}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    try:
        return position_from_json(data)
    except RulesError as error:
        raise CliError(f"{where}: {error}") from None


def _roll(dice: Sequence[int]) -> Roll:
    try:
        return Roll(dice[0], dice[1])
    except RulesError as error:
        raise CliError(str(error)) from None


def _legal_json(rules: RuleSet, position: Position, roll: Roll) -> dict[str, Any]:
    results = rules.legal_results(position, roll)
    return {
        "plays": [
            {"play": format_play(play, rules), "position": position_to_json(rules, after)}
            for after, play in results.items()
        ]
    }


def cmd_legal(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print the legal plays for a position and a roll (or a JSON-lines stream of them)."""
    text, where = _read_text(args.position, stdin)
    if args.jsonl:
        failures = 0
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict) or set(item) != {"position", "dice"}:
                    raise CliError('each line is {"position": {...}, "dice": [A, B]}')
                dice = item["dice"]
                if not isinstance(dice, list) or len(dice) != 2:
                    raise CliError("dice is a list of two numbers")
                rules, position = position_from_json(item["position"])
                result: dict[str, Any] = _legal_json(rules, position, _roll(dice))
            except (CliError, RulesError) as error:
                failures += 1
                result = {"error": f"{where} line {number}: {error}"}
            except json.JSONDecodeError as error:
                failures += 1
                result = {"error": f"{where} line {number}: not JSON ({error.msg})"}
            out.write(json.dumps(result) + "\n")
        return 1 if failures else 0
    if args.dice is None:
        raise CliError("give the roll with --dice A B")
    rules, position = _load_position(text, where)
    roll = _roll(args.dice)
    if args.json:
        out.write(json.dumps(_legal_json(rules, position, roll)) + "\n")
        return 0
    plays = rules.legal_plays(position, roll)
    if not plays:
        out.write(f"{position.turn.value} cannot move with {roll}: the turn passes\n")
    for play in plays:
        out.write(format_play(play, rules) + "\n")
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Check every turn of a game record and print the final position and score."""
    text, where = _read_text(args.record, stdin)
    try:
        record = read_mat(text, source=where)
        done = replay(record)
    except ReplayError as error:
        if args.json:
            out.write(json.dumps({"error": str(error)}) + "\n")
        raise CliError(str(error)) from None
    except RulesError as error:
        raise CliError(str(error)) from None
    if args.json:
        out.write(json.dumps(done.to_json()) + "\n")
        return 0
    for game in done.games:
        out.write(f"Game {game.number}: {len(game.turns)} turns\n")
        if args.show:
            for turn in game.turns:
                out.write(f"\n{turn.colour.value} {turn.roll}: {format_play(turn.play, done.rules) or '(no move)'}\n")
                out.write(draw(done.rules, turn.after) + "\n")
        out.write(draw(done.rules, game.final) + "\n")
        out.write(game.outcome_text() + "\n")
    if len(done.games) > 1 or record.match_length:
        out.write(done.score_text() + "\n")
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Draw a position (interchange JSON) or a rule set's start position."""
    if args.start:
        rules = _rule_set(args.start)
        position = rules.start_position()
    else:
        text, where = _read_text(args.position, stdin)
        rules, position = _load_position(text, where)
    try:
        geometry = rules.geometry(args.quarter)
    except RulesError as error:
        raise CliError(str(error)) from None
    out.write(draw(rules, position, geometry) + "\n")
    return 0


def cmd_run(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """The main job.  Until the controller exists: replay the bundled sample game, board by board."""
    sample = resources.files("controller.data").joinpath(SAMPLE_GAME).read_text(encoding="utf-8")
    done = replay(read_mat(sample, source=SAMPLE_GAME))
    out.write("No board configured: replaying Mendelev's sample game (RULES.md 2.4).\n")
    rules = done.rules
    for game in done.games:
        out.write(draw(rules, game.start) + "\n")
        for turn in game.turns:
            out.write(f"\n{turn.colour.value.capitalize()} rolls {turn.roll}: {format_play(turn.play, rules)}\n")
            out.write(draw(rules, turn.after) + "\n")
        out.write(game.outcome_text() + "\n")
    return 0


def _rule_set(name: str) -> RuleSet:
    try:
        return get_rule_set(name)
    except RulesError as error:
        raise CliError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="trictrac", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    legal = sub.add_parser("legal", help="the legal plays for a position and a roll")
    legal.add_argument("position", nargs="?", default="-", help="position JSON file, or - for standard input")
    legal.add_argument("--dice", nargs=2, type=int, metavar=("A", "B"), help="the roll")
    legal.add_argument("--json", action="store_true", help="print the plays and positions as JSON")
    legal.add_argument("--jsonl", action="store_true", help='read {"position", "dice"} per line, answer per line')
    legal.set_defaults(func=cmd_legal)

    rep = sub.add_parser("replay", help="check a game record turn by turn")
    rep.add_argument("record", help="game record (.mat), or - for standard input")
    rep.add_argument("--json", action="store_true", help="print every turn with its positions as JSON")
    rep.add_argument("--show", action="store_true", help="draw the board after every turn")
    rep.set_defaults(func=cmd_replay)

    show = sub.add_parser("show", help="draw a position as a text board")
    show.add_argument("position", nargs="?", default="-", help="position JSON file, or - for standard input")
    show.add_argument("--start", metavar="RULES", choices=rule_set_names(), help="draw this rule set's start")
    show.add_argument("--quarter", help="rally start quarter: 1-6, 7-12, I-VI or VII-XII")
    show.set_defaults(func=cmd_show)

    run = sub.add_parser("run", help="the main job (for now: replay the sample game on screen)")
    run.set_defaults(func=cmd_run)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run the command line; errors are one line on standard error and exit status 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, out or sys.stdout, stdin or sys.stdin))
    except CliError as error:
        print(f"trictrac {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
