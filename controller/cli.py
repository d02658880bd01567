"""The ``trictrac`` command: the main job, headless simulation, legal plays, replay, display.

This module is the composition root: the only part of ``controller`` that picks drivers or
the simulator to stand behind the ``hal`` interfaces (imported where a command needs them).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Sequence, TextIO

from . import cli_args
from .collector import settle_after_startup
from .idle import work_while_idle
from .inputs import InputError, check_journal_path, check_records_folder, read_input, read_lines
from .journal_entries import TurnEntry
from .notation.bounded_json import JsonInputError, load_json
from .notation.diagram import draw
from .notation.moves import format_play
from .notation.position_json import position_from_json, position_to_json
from .player_names import PlayerName
from .records.matfile import read_mat
from .records.replay import ReplayError, replay
from .rules import Position, Roll, RuleSet, RulesError, get_rule_set, rule_set_names
from .rules.values import Colour

if TYPE_CHECKING:
    from hal.interfaces import Sound

    from .config import Config, Players
    from .machine import Output, Settings



class CliError(ValueError):
    """A problem with the command line or its input, reported without a traceback."""


class UsageError(CliError):
    """A command line the parser refuses (unknown option, a bad number...)."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (raised, so ``main`` reports them)."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(self.prog, f"{message} (see {self.prog} --help)")


def _read_text(source: str, stdin: TextIO) -> tuple[str, str]:
    return read_input(source, stdin)


def _load_position(text: str, where: str) -> tuple[RuleSet, Position]:
    try:
        return position_from_json(load_json(text))
    except (JsonInputError, RulesError) as error:
        raise CliError(f"{where}: {error}") from None


def _roll(dice: Sequence[object]) -> Roll:
    try:
        return Roll(dice[0], dice[1])  # type: ignore[arg-type]
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
    if args.jsonl:
        return _legal_jsonl(args, out, stdin)
    if args.dice is None:
        raise CliError("give the roll with --dice A B")
    text, where = _read_text(args.position, stdin)
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


def _legal_line(line: str) -> dict[str, Any]:
    """The answer to one ``{"position": {...}, "dice": [A, B]}`` line."""
    item = load_json(line)
    if not isinstance(item, dict) or set(item) != {"position", "dice"}:
        raise CliError('each line is {"position": {...}, "dice": [A, B]}')
    dice = item["dice"]
    if not isinstance(dice, list) or len(dice) != 2:
        raise CliError("dice is a list of two numbers")
    rules, position = position_from_json(item["position"])
    return _legal_json(rules, position, _roll(dice))


def _legal_jsonl(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Answer every line, a bad one with ``{"error": ...}``; exit 2 when any line was bad."""
    if args.dice is not None:
        raise CliError("with --jsonl the dice are given on each line, not with --dice")
    where = "standard input" if args.position == "-" else args.position
    failures = answered = 0
    for number, line in read_lines(args.position, stdin):
        if isinstance(line, str) and not line.strip():
            continue
        answered += 1
        try:
            if isinstance(line, InputError):
                raise line
            result = _legal_line(line)
        except (CliError, InputError, JsonInputError, RulesError) as error:
            failures += 1
            message = str(error)
            result = {"error": message if isinstance(error, InputError) else f"{where} line {number}: {message}"}
        out.write(json.dumps(result) + "\n")
        out.flush()
    if failures:
        raise CliError(f"{failures} of {answered} lines were bad input (each answered with an error object)")
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
        if args.position is not None:
            raise CliError("give a position file or --start, not both")
        rules = _rule_set(args.start)
        position = rules.start_position()
    else:
        text, where = _read_text(args.position or "-", stdin)
        rules, position = _load_position(text, where)
    try:
        geometry = rules.geometry(args.quarter)
    except RulesError as error:
        raise CliError(str(error)) from None
    out.write(draw(rules, position, geometry) + "\n")
    return 0


def _settings(args: argparse.Namespace) -> tuple["Settings", "Config"]:
    """The game settings from ``--config`` (if any) and the command-line overrides."""
    from .config import Config, ConfigError, load_config
    from .machine import Settings

    config = Config()
    if args.config is not None:
        try:
            config = load_config(args.config)
        except ConfigError as error:
            raise CliError(str(error)) from None
    rules = _rule_set(args.rules) if args.rules else config.rules
    quarter = args.quarter if args.quarter else config.quarter
    if quarter is not None:
        try:
            rules.geometry(quarter)
        except RulesError as error:
            raise CliError(str(error)) from None
    return Settings(rules, quarter, config.match_length, config.grace), config


def _with_players(settings: "Settings", players: "Players", say: Callable[[str], None] | None) -> "Settings":
    """``settings`` with the computer's sides (an engine or a strategy lit on the board), the
    hint engine and substitutes; an engine that cannot play here is one error line."""
    from simulator.opponents import OpponentError, opponent

    rules = settings.rules
    computer = {}
    hints = None  # the computer's own engine gives the hints, else the configured one
    try:
        for colour, name in ((Colour.WHITE, players.white), (Colour.BLACK, players.black)):
            if name.kind != "human":
                computer[colour] = opponent(name, rules)
                if name.is_engine and hints is None:
                    hints = computer[colour]
    except OpponentError as error:
        raise CliError(f"--{colour.value} {name}: {error}") from None
    if hints is None and players.hints is not None:
        try:
            hints = opponent(players.hints, rules)
        except OpponentError as error:
            if say is not None:
                say(f"no hints: {error}")
    if say is not None and computer:
        say("The computer plays " + ", ".join(f"{c.value} ({e.name})" for c, e in computer.items())
            + ": its plays are lit in cyan, move by move, for you to carry out")
    return dataclasses.replace(settings, computer=computer, hints=hints, substitute=players.substitute)


def _say(out: TextIO):  # type: ignore[no-untyped-def]
    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    return say


def cmd_run(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """The main job: the configured board, or with no board the simulated one."""
    from .journal import Journal, JournalError
    from .runner import open_controller, records_of_journals

    settings, config = _settings(args)
    # a board (behind its serial link, or the simulated one) answers a request with its next
    # settled snapshot: a warning waits for one, never given over a board still settling
    settings = dataclasses.replace(settings, confirm=True)
    say = _say(out)
    chosen = dataclasses.replace(config.players, white=args.white or config.players.white,
                                 black=args.black or config.players.black)
    settings = _with_players(settings, chosen, say)
    journal_path = args.journal or config.journal
    if journal_path:
        check_journal_path(journal_path)  # before play starts: a journal that cannot be written is bad input
    if args.records or config.records:
        check_records_folder(args.records or config.records)
    journal = Journal(journal_path) if journal_path else None
    try:
        controller, begin = open_controller(settings, journal, say, 0.0)
    except JournalError as error:
        raise CliError(str(error)) from None
    if journal is not None and (args.records or config.records):
        records_of_journals(journal, args.records or config.records, say)  # records lost in a crash
    try:
        if args.port or config.port or config.board:
            return _run_board(args, config, controller, begin, journal, say, stdin)
        return _run_simulated(args, config, controller, begin, journal, say, out, stdin)
    finally:
        if journal is not None:
            journal.close()


def _run_simulated(args, config, controller, begin, journal, say, out, stdin) -> int:  # type: ignore[no-untyped-def]
    """No board: the simulated board, played by simulated players, by you at the terminal,
    or (``--web`` with ``--players web``) in the browser; ``--web`` also serves the live view."""
    from simulator.players import STRATEGIES, RandomPlayer, TypedPlayer
    from simulator.table import Table

    def ask(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            raise CliError("standard input ended")
        return line

    listen = args.web or config.web
    names = args.players.split(",") * (2 if "," not in args.players else 1)
    if "web" in names and listen is None:
        raise CliError("--players web: the browser plays only with --web [HOST:]PORT (or [web] listen)")
    if args.typed and (listen is not None and "web" in names):
        raise CliError("--typed and --players web: play White either at the terminal or in the browser")
    sides = [TypedPlayer(ask, say) if args.typed else (RandomPlayer() if names[0] == "web" else STRATEGIES[names[0]]()),
             RandomPlayer() if names[1] == "web" else STRATEGIES[names[1]]()]
    who = f"you (White) and a {names[1]} player" if args.typed else (
        f"two {names[0]} players" if names[0] == names[1] else f"{names[0]} (White) and {names[1]} (Black)")
    say(f"No board configured: a simulated {controller.settings.rules.name} board, played by {who}.")
    last = [""]
    records = args.records or config.records
    holder: list[Table] = []

    def observe(output: "Output") -> None:
        _report(output, say, holder[0].sim.clock.now() if holder else 0.0, last, args.verbose)

    def make_table(observer, pace: float) -> Table:  # type: ignore[no-untyped-def]
        holder.append(Table(controller.settings, seed=args.seed, players=(sides[0], sides[1]), journal=journal,
                            records=records, controller=controller, observer=observer, pace=pace))
        return holder[0]

    if listen is not None:
        from web.launch import run_simulated_web

        speed = 1.0 if args.speed is None else args.speed
        table = run_simulated_web(controller, begin, make_table, {Colour.WHITE: names[0], Colour.BLACK: names[1]}, listen,
                                  records, config.web_token, say, observe, speed, stay=not args.exit_after_match)
    else:
        table = make_table(observe, args.speed or 0.0)
        if begin is not None:
            table.apply(begin)
        settle_after_startup()
        table.play_match()
    say(draw(controller.settings.rules, controller.game.position, controller.reader.geometry))
    say(controller.message)
    return 0 if not table.report.mismatches else 1


def _report(output: "Output", say, now: float, last: list[str], verbose: bool) -> None:  # type: ignore[no-untyped-def]
    """Print the turns the board records, its warnings, and with ``verbose`` every message."""
    for entry in output.entries:
        if isinstance(entry, TurnEntry):
            roll = entry.roll
            say(f"  {entry.colour.value.capitalize()} {roll.first}{roll.second}: {entry.notation or '(no move)'}")
    message = output.frame.message
    if output.warning or (verbose and message != last[0]):
        say(f"  [{now:8.1f} s] {'WARNING: ' if output.warning else ''}{message}")
    for line in output.log:
        if not output.warning:
            say(f"  {line}")
    last[0] = message


class TerminalSounder:
    """Sounds as lines on the terminal (and the terminal bell) when no buzzer is wired."""

    def __init__(self, say) -> None:  # type: ignore[no-untyped-def]
        self._say = say

    def play(self, sound: "Sound") -> None:
        self._say(f"\a  ({sound.value})")


def _run_board(args, config, controller, begin, journal, say, stdin) -> int:  # type: ignore[no-untyped-def]
    """A real board (or the virtual one) on a serial port, with the GPIO parts if wired."""
    import signal
    import threading

    from hal.clock import MonotonicClock
    from hal.interfaces import Hardware
    from hal.queue import ThreadSafeQueue
    from hal.serial_link import LinkError, open_board

    from .runner import BoardRunner

    events = ThreadSafeQueue()
    clock = MonotonicClock()
    try:
        link = open_board(args.port or config.port, events, clock, log=say)
    except LinkError as error:
        raise CliError(str(error)) from None
    gpio = None
    if config.gpio is not None and not args.no_gpio:
        from hal.gpio import open_gpio
        from hal.gpio_config import GpioConfig

        try:
            gpio = open_gpio(GpioConfig.from_mapping(config.gpio), events, clock)
        except Exception as error:  # no GPIO on this machine (not a Pi): go on without
            say(f"gpio: not used: {error}")
    sounder = gpio.sounder if gpio is not None and gpio.sounder is not None else TerminalSounder(say)
    from hal.interfaces import DiceKind
    from hal.terminal import TerminalInput

    if args.typed or config.dice is DiceKind.TYPED or (gpio is None and stdin.isatty()):
        # rolls typed in, and the buttons as words, when no buttons are wired
        TerminalInput(stdin, events, clock, say).start()
    dice = [link] + ([gpio.dice] if gpio is not None and gpio.dice is not None else [])
    hardware = Hardware(clock, events, lights=link, sounder=sounder,
                        turn_indicator=gpio.turn_indicator if gpio is not None else None, sensor=link, dice=dice)
    last = [""]
    runner = BoardRunner(controller, hardware, journal, args.records or config.records, log=lambda line: None)
    apply = runner.apply

    def apply_and_report(output: "Output") -> None:
        apply(output)
        _report(output, say, clock.now(), last, args.verbose)

    runner.apply = apply_and_report  # type: ignore[method-assign]
    server = None
    listen = args.web or config.web
    if listen is not None:
        if "web" in args.players:
            raise CliError("--players web: a real board is played by hand on the board, not in the browser")
        from web.launch import board_hub, start_server
        from web.session import Publisher
        from web.view import StateView

        hub = board_hub(events, clock)
        publish = Publisher(hub, StateView(controller, {"white": "board", "black": "board"}, "connecting"),
                            link=lambda: link.state.value)

        def apply_report_publish(output: "Output") -> None:
            apply_and_report(output)
            publish(output)

        runner.apply = apply_report_publish  # type: ignore[method-assign]
        publish()
        server = start_server(listen, hub, args.records or config.records, config.web_token, say)
    say(f"Board on {link.url}: {controller.settings.rules.name}; Ctrl-C to stop")
    if begin is not None:
        runner.apply(begin)
    settle_after_startup()
    link.request_snapshot()
    stopping = threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    deadline = clock.now() + args.seconds if args.seconds else None
    link_state = link.state
    try:
        while not stopping.is_set():
            runner.step(wait=0.25)
            work_while_idle(controller, lambda: len(events) > 0)  # the next roll's maps, the young garbage
            if server is not None and link.state is not link_state:  # the page shows the link at once
                link_state = link.state
                publish()
            if args.exit_after_match and controller.match.winner() is not None:
                break
            if deadline is not None and clock.now() > deadline:
                break
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
        if gpio is not None:
            gpio.close()
        if server is not None:
            server.stop()
    say(controller.message)
    return 0


def cmd_simulate(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Whole games headless through the full controller, with the soak figures."""
    from simulator.engine_player import strategy
    from simulator.table import TableReport, simulate

    settings, config = _settings(args)
    human = PlayerName("human")  # random, greedy and human are simulated people here; engines play on the board
    computer = dataclasses.replace(config.players, hints=None, white=args.white if args.white.is_engine else human,
                                   black=args.black if args.black.is_engine else human)
    settings = _with_players(settings, computer, None)
    tty = sys.stderr.isatty() and not args.json

    def progress(done: int, report: TableReport) -> None:
        if tty:
            width = 30
            filled = width * done // args.games
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{args.games} games")
            sys.stderr.flush()

    if args.records is not None:
        check_records_folder(args.records)
    settle_after_startup()
    report = simulate(settings, args.games, seed=args.seed, noise=args.noise, illegal_rate=args.illegal_rate,
                      records=args.records, progress=progress, link=args.link, hands=args.hands, speed=args.speed,
                      players=lambda: tuple(strategy("random" if n.is_engine or n.kind == "human" else n.kind)  # type: ignore[return-value]
                                            for n in (args.white, args.black)))
    if tty:
        sys.stderr.write("\n")
    figures = report.as_json()
    if args.json:
        players = {"white": str(args.white), "black": str(args.black)}
        out.write(json.dumps({"rules": settings.rules.name, "players": players, **figures}) + "\n")
    else:
        cpu = report.cpu_per_snapshot()
        out.write(
            f"rules {settings.rules.name}, {report.games} games ({report.finished} finished), "
            f"{report.virtual_seconds / 3600:.1f} h of play\n"
            f"plays made {report.plays_made}, recorded identically {report.plays_recorded_identically}\n"
            f"illegal attempts {report.illegal_attempts}, warned {report.attempts_warned}; "
            f"false warnings {len(report.false_warnings)}\n"
            f"CPU per snapshot: median {cpu['median_ms']:.3f} ms, p99 {cpu['p99_ms']:.3f} ms "
            f"({report.snapshots} snapshots)\n"
            f"wins: White ({args.white}) {report.wins['white']}, Black ({args.black}) {report.wins['black']}; "
            f"points: White {report.points['white']}, Black {report.points['black']}\n"
        )
        for line in report.mismatches[:10]:
            out.write(f"mismatch: {line}\n")
        for warning in report.false_warnings[:10]:
            out.write(f"false warning at {warning.time:.2f} s: {warning.reason}: {warning.message}\n")
    ok = (not report.mismatches and not report.false_warnings
          and report.attempts_warned == report.illegal_attempts and report.finished == report.games)
    return 0 if ok else 1


def _open_link(args: argparse.Namespace, say):  # type: ignore[no-untyped-def]
    """The board link for doctor and calibrate, from --port or the configuration."""
    from hal.clock import MonotonicClock
    from hal.queue import ThreadSafeQueue
    from hal.serial_link import LinkError, open_board

    from .config import load_config

    port = args.port
    if port is None and args.config is not None:
        port = load_config(args.config).port
    events = ThreadSafeQueue()
    try:
        return open_board(port, events, MonotonicClock(), log=say), events
    except LinkError as error:
        raise CliError(str(error)) from None


def cmd_doctor(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Check the board: link, firmware version, calibration, an LED test, the sensors live."""
    from hal.board_tools import doctor
    from hal.serial_link import LinkError

    say = _say(out)
    link, events = _open_link(args, say)
    try:
        healthy = doctor(link, events, say, live_seconds=0.0 if args.no_live else args.seconds)
    except LinkError as error:
        raise CliError(str(error)) from None
    finally:
        link.close()
    say("doctor: the board is ready" if healthy else "doctor: see the lines marked FAILED or MISSING")
    return 0 if healthy else 1


def cmd_calibrate(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Guided calibration of the board's sensors, stored on the microcontroller."""
    from firmware.classify import CalibrationError
    from hal.board_tools import Step, calibrate
    from hal.serial_link import LinkError

    say = _say(out)
    link, _ = _open_link(args, say)

    def perform(step: Step) -> None:
        out.write(f"{step.text}, then press Enter: ")
        out.flush()
        if not stdin.readline():
            raise CliError("standard input ended: calibration not stored")

    try:
        calibrate(link, perform, say)
    except (LinkError, CalibrationError) as error:
        raise CliError(f"calibration not stored: {error}") from None
    finally:
        link.close()
    say("Now set up the start position and check it with: trictrac doctor")
    return 0


def cmd_virtual_board(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Serve a virtual board (the firmware over simulated sensors and players) on a pty."""
    import threading

    from simulator.virtual_device import serve

    say = _say(out)
    if args.quarter is not None:
        try:
            _rule_set(args.rules or "trictrac").geometry(args.quarter)
        except RulesError as error:
            raise CliError(str(error)) from None
    path, board = serve(args.rules or "trictrac", args.seed, players=args.players, quarter=args.quarter,
                        games=args.games, speed=args.speed, illegal_rate=args.illegal_rate, log=say)
    say(f"virtual board on {path}: in another terminal run  trictrac run --port {path}")
    settle_after_startup()
    try:
        threading.Event().wait(args.seconds if args.seconds else None)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


def _rule_set(name: str) -> RuleSet:
    try:
        return get_rule_set(name)
    except RulesError as error:
        raise CliError(str(error)) from None


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=cli_args.file_path, help="TOML configuration file")
    parser.add_argument("--rules", choices=rule_set_names(), help="rule set (default: trictrac or the config's)")
    parser.add_argument("--quarter", type=cli_args.quarter, help="rally start quarter: 1-6, 7-12, I-VI or VII-XII")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(prog="trictrac", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    legal = sub.add_parser("legal", help="the legal plays for a position and a roll")
    legal.add_argument("position", nargs="?", default="-", type=cli_args.input_source,
                       help="position JSON file, or - for standard input")
    legal.add_argument("--dice", nargs=2, type=cli_args.die, metavar=("A", "B"), help="the roll")
    legal.add_argument("--json", action="store_true", help="print the plays and positions as JSON")
    legal.add_argument("--jsonl", action="store_true", help='read {"position", "dice"} per line, answer per line')
    legal.set_defaults(func=cmd_legal)

    rep = sub.add_parser("replay", help="check a game record turn by turn")
    rep.add_argument("record", type=cli_args.input_source, help="game record (.mat), or - for standard input")
    rep.add_argument("--json", action="store_true", help="print every turn with its positions as JSON")
    rep.add_argument("--show", action="store_true", help="draw the board after every turn")
    rep.set_defaults(func=cmd_replay)

    show = sub.add_parser("show", help="draw a position as a text board")
    show.add_argument("position", nargs="?", type=cli_args.input_source,
                      help="position JSON file, or - for standard input (the default)")
    show.add_argument("--start", metavar="RULES", choices=rule_set_names(), help="draw this rule set's start")
    show.add_argument("--quarter", type=cli_args.quarter, help="rally start quarter: 1-6, 7-12, I-VI or VII-XII")
    show.set_defaults(func=cmd_show)

    run = sub.add_parser("run", help="the main job: the board, or with none configured the simulated board")
    _game_options(run)
    run.add_argument("--players", type=cli_args.players, default="greedy",
                     help="who plays: random, greedy or web (in the browser; needs --web), or WHITE,BLACK such as web,greedy")
    run.add_argument("--white", type=cli_args.player, help="White's player: human (default), random, greedy, "
                     "builtin[:beginner|intermediate|best] or gnubg[:0|1|2]; a computer's plays are lit for a person to carry out")
    run.add_argument("--black", type=cli_args.player, help="Black's player (as --white)")
    run.add_argument("--web", type=cli_args.listen, metavar="[HOST:]PORT",
                     help="serve the live web view (default host 127.0.0.1; off it a token is needed to play)")
    run.add_argument("--typed", action="store_true", help="simulated board: play White by typing; real board: type rolls and buttons")
    run.add_argument("--seed", type=cli_args.seed, default=1)
    run.add_argument("--speed", type=cli_args.number(0.0, 1e6), default=None,
                     help="virtual seconds per second (0: as fast as possible; the default, or 1 with --web)")
    run.add_argument("--journal", type=cli_args.file_path, help="journal file (resumes an unfinished match)")
    run.add_argument("--records", type=cli_args.file_path, help="folder for the .mat game records")
    run.add_argument("--verbose", action="store_true", help="print every message the board shows")
    run.add_argument("--port", type=cli_args.port,
                     help="the board's serial port (default: the config's, else found by USB id)")
    run.add_argument("--no-gpio", action="store_true", help="ignore the [gpio] section (not on a Pi)")
    run.add_argument("--exit-after-match", action="store_true", help="stop when the match is over")
    run.add_argument("--seconds", type=cli_args.seconds, default=0.0, help="stop after this long (0: run until stopped)")
    run.set_defaults(func=cmd_run)

    doc = sub.add_parser("doctor", help="check the board: link, firmware, calibration, LEDs, live sensors")
    doc.add_argument("--port", type=cli_args.port)
    doc.add_argument("--config", type=cli_args.file_path)
    doc.add_argument("--seconds", type=cli_args.seconds, default=10.0, help="how long to show the sensors live")
    doc.add_argument("--no-live", action="store_true", help="skip the live view")
    doc.set_defaults(func=cmd_doctor)

    cal = sub.add_parser("calibrate", help="guided calibration of the sensors, stored on the board")
    cal.add_argument("--port", type=cli_args.port)
    cal.add_argument("--config", type=cli_args.file_path)
    cal.set_defaults(func=cmd_calibrate)

    vb = sub.add_parser("virtual-board", help="serve a virtual board on a pseudo-terminal")
    vb.add_argument("--rules", choices=rule_set_names())
    vb.add_argument("--quarter", type=cli_args.quarter)
    vb.add_argument("--seed", type=cli_args.seed, default=1)
    vb.add_argument("--players", choices=("random", "greedy"), default="greedy")
    vb.add_argument("--games", type=cli_args.games, default=1)
    vb.add_argument("--speed", type=cli_args.number(0.0, 1000.0, low_open=True), default=1.0,
                    help="the players' speed (1: a person's)")
    vb.add_argument("--illegal-rate", type=cli_args.rate, default=0.0)
    vb.add_argument("--seconds", type=cli_args.seconds, default=0.0, help="stop after this long (0: until Ctrl-C)")
    vb.set_defaults(func=cmd_virtual_board)

    sim = sub.add_parser("simulate", help="whole games headless through the full controller")
    _game_options(sim)
    sim.add_argument("--games", type=cli_args.games, default=10)
    sim.add_argument("--seed", type=cli_args.seed, default=1)
    sim.add_argument("--noise", type=cli_args.noise, default=0.0, help="sensor noise level (1: a poor sensor), 0 to 10")
    sim.add_argument("--illegal-rate", type=cli_args.rate, default=0.0, help="chance per turn of an illegal move, 0 to 1")
    sim.add_argument("--hands", choices=("plain", "real"), default="plain",
                     help="real: blots taken off first, checkers carried past hits, two lifted at once, early rolls")
    sim.add_argument("--speed", type=cli_args.number(0.0, 100.0, low_open=True), default=1.0,
                     help="the players' pace (1: a person's)")
    sim.add_argument("--records", type=cli_args.file_path, help="folder for each game's .mat record")
    sim.add_argument("--json", action="store_true")
    sim.add_argument("--white", type=cli_args.player, default="random",
                     help="White's player: random (default), greedy, human (a simulated person: random plays), "
                     "builtin[:beginner|intermediate|best] or gnubg[:0|1|2] (the computer: its plays lit, carried out by a simulated person)")
    sim.add_argument("--black", type=cli_args.player, default="random", help="Black's player (as --white)")
    sim.add_argument("--link", choices=("direct", "serial"), default="direct",
                     help="serial: through the firmware on a virtual device and a real pyserial link")
    sim.set_defaults(func=cmd_simulate)
    return parser


MAX_MESSAGE = 2000
"""The longest error line printed (a message quoting a huge argument is cut)."""


def one_line(text: str) -> str:
    """``text`` as one printable line: line breaks and other control characters escaped."""
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "..."
    return "".join(
        c if c.isprintable() or c == " " else (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}")
        for c in text
    )


def _tolerant_stdin() -> None:
    """Typed lines that are not UTF-8 become replacement characters, not an exception in a thread."""
    try:
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run the command line.

    This is the one place errors become exit statuses.  Bad input of any kind (a ValueError:
    the command line, a file, a configuration, a position, a record, a path that cannot be
    written) is one line on standard error and exit status 2; an operating-system error
    during the run (a disk that fills up, a board unplugged for good) one line and 1;
    Ctrl-C 130.  Anything else is a bug and keeps its traceback.
    """
    prog = "trictrac"
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help
            return done.code if isinstance(done.code, int) else 0
        prog = f"trictrac {args.command}"
        if stdin is None:
            _tolerant_stdin()
        return int(args.func(args, out or sys.stdout, stdin or sys.stdin))
    except UsageError as error:
        _complain(error.prog, str(error))
        return 2
    except ValueError as error:
        _complain(prog, str(error) or type(error).__name__)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as error:
        _complain(prog, f"{error.filename + ': ' if error.filename else ''}{error.strerror or error}")
        return 1
    except KeyboardInterrupt:
        _complain(prog, "interrupted")
        return 130


def _complain(prog: str, message: str) -> None:
    try:
        sys.stderr.write(one_line(f"{prog}: {message}") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
