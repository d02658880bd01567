"""Benchmark: ``trictrac run`` killed with SIGKILL at random moments and restarted, until
every match is finished; then every journal and record is audited.

Not a test (``tests/test_resume_kill.py`` runs a few kills of the same loop).  For each
match (rule sets in turn, several seeds, 1- and 3-point matches) the simulated board is
run as a real process on a journal and a records folder, killed now and then during
start-up (after a random time) and mostly during play (once its journal has grown by a
random number of entries, so the kills follow the play whatever the machine's speed),
and started again on the same journal, until the match is over.  The audit replays the journal with the rules engine
(every turn legal, seq without gap, no roll thrown twice for one turn, no turn played
with another roll than the one thrown), reads the ``.mat`` record back and replays it,
and compares its turns with the journal's.  Every run must end with exit 0 or by the
kill, print no warning (no player moves illegally here) and no traceback.

    python benchmarks/kill_soak.py [--kills 100] [--seed 1] [--speed 400] [--json]
    python benchmarks/kill_soak.py --board virtual [--kills 10] [--speed 3]

With ``--board virtual`` the controller runs ``trictrac run --port`` on a real-time virtual
board (the firmware over simulated sensors on a pseudo-terminal, protocol v2, played by
simulated players who go on while the controller is down); the journal's turns must then
be exactly the plays the players made.  Keep the speed near a person's (3 at most): the
players do not wait for a controller that is down, and a board several turns ahead of the
journal cannot be explained (the rolls in between are not known).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.machine import Controller, Settings  # noqa: E402
from controller.records.matfile import read_mat  # noqa: E402
from controller.records.replay import replay  # noqa: E402
from controller.rules import get_rule_set  # noqa: E402
from controller.rules.values import Roll  # noqa: E402

RULES = ("trictrac", "backgammon", "rally", "rally-hitting")
ENTRIES_PER_GAME = 120
"""About how many entries one game's journal takes (a trictrac game at seed 3: 132)."""
RUN = "import sys; from controller.cli import main; sys.exit(main(sys.argv[1:]))"


@dataclass
class MatchSoak:
    """One match played through kills and restarts, and what its audit found."""

    rules: str
    seed: int
    length: int
    kills: int = 0
    kills_in_start_up: int = 0
    runs: int = 0
    turns: int = 0
    games: int = 0
    finished: bool = False
    lost_or_doubled: int = 0
    warnings: int = 0
    records_rebuilt: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def start_up_time() -> float:
    """Wall seconds a fresh interpreter takes to import the controller and the simulator."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import controller.cli, simulator.table"], cwd=ROOT, check=True)
    return time.perf_counter() - started


def _command(journal: Path, records: Path, rules: str, seed: int, speed: float, config: Path | None) -> list[str]:
    command = [sys.executable, "-c", RUN, "run", "--rules", rules, "--seed", str(seed), "--speed", str(speed),
               "--journal", str(journal), "--records", str(records)]
    return command + (["--config", str(config)] if config is not None else [])


def _match_over(journal: Path, rules: str, length: int) -> bool:
    """Does the journal hold a finished match?"""
    entries = _entries(journal)
    if not entries:
        return False
    controller = Controller(Settings(get_rule_set(rules), None, length))
    try:
        controller.resume(entries)
    except ValueError:
        return False
    return controller.match.winner() is not None


def _entries(journal: Path) -> list[dict[str, Any]]:
    if not journal.exists():
        return []
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line.strip()]


def _lines(journal: Path) -> int:
    """Entries the journal holds so far (lines written whole or not)."""
    try:
        return journal.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _run_until(process: subprocess.Popen[bytes], journal: Path, entries: int, timeout: float) -> int | None:
    """Wait until the process ends (its exit code) or the journal holds ``entries`` (None)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        code = process.poll()
        if code is not None:
            return code
        if _lines(journal) >= entries:
            return None
        time.sleep(0.003)
    return None


def play_match(folder: Path, rules: str, seed: int, length: int, kills: int, rng: random.Random, *,
               speed: float = 400.0, start_up: float = 0.3, every: int = 20, timeout: float = 120.0) -> MatchSoak:
    """Play one match with up to ``kills`` SIGKILLs, then audit it.

    A kill lands now and then during start-up (after a random part of ``start_up`` seconds),
    mostly during play: after the journal has grown by 1 to ``2 * every - 1`` entries, then a
    few random milliseconds more, so kills fall between and during writes whatever the
    machine's speed."""
    soak = MatchSoak(rules, seed, length)
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    journal, records = folder / "journal.jsonl", folder / "records"
    config = None
    if length != 1:
        config = folder / "board.toml"
        config.write_text(f'[game]\nrules = "{rules}"\nmatch_length = {length}\n', encoding="utf-8")
    while not _match_over(journal, rules, length):
        if soak.runs > kills + 20:
            soak.problems.append(f"the match is not over after {soak.runs} runs")
            break
        soak.runs += 1
        log = folder / f"run-{soak.runs}.txt"
        with open(log, "wb") as out:
            process = subprocess.Popen(_command(journal, records, rules, seed, speed, config), cwd=ROOT,
                                       stdout=out, stderr=subprocess.STDOUT)
            code: int | None = None
            if soak.kills < kills:
                in_start_up = rng.random() < 0.15
                if in_start_up:
                    try:
                        code = process.wait(rng.uniform(0, start_up))
                    except subprocess.TimeoutExpired:
                        code = None
                else:
                    target = _lines(journal) + rng.randint(1, 2 * every - 1)
                    code = _run_until(process, journal, target, timeout)
                    if code is None and _lines(journal) < target:
                        soak.problems.append(f"run {soak.runs} wrote nothing for {timeout} s (stuck)")
                    elif code is None:
                        time.sleep(rng.uniform(0, 0.01))
                        code = process.poll()
                if code is None:
                    process.send_signal(signal.SIGKILL)
                    code = process.wait()
                    soak.kills += 1
                    soak.kills_in_start_up += in_start_up
            else:
                try:
                    code = process.wait(timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                    soak.problems.append(f"run {soak.runs} was still going after {timeout} s (stuck)")
                    break
        text = log.read_text(encoding="utf-8", errors="replace")
        soak.warnings += text.count("WARNING")
        if code not in (0, -signal.SIGKILL):
            soak.problems.append(f"run {soak.runs} exited with {code}: {text.strip().splitlines()[-3:]}")
            soak.lost_or_doubled += code == 1  # the table's plays made and recorded differ
        if "Traceback" in text:
            soak.problems.append(f"run {soak.runs} printed a traceback")
    audit(soak, journal, records)
    soak.seconds = round(time.perf_counter() - started, 2)
    return soak


def audit(soak: MatchSoak, journal: Path, records: Path) -> None:
    """Check the journal and the record of a finished match; note what is wrong in ``soak``."""
    entries = _entries(journal)
    soak.problems += [f"damaged journal tail kept aside: {p.name}" for p in journal.parent.glob("*.damaged-*")]
    if not entries:
        soak.problems.append("no journal")
        return
    seqs = [e.get("seq") for e in entries]
    if seqs != list(range(1, len(entries) + 1)):
        soak.problems.append("journal seq numbers are not 1, 2, 3, ...")
    pending: Roll | None = None
    for number, entry in enumerate(entries, 1):
        kind = entry["type"]
        if kind == "roll":
            if pending is not None:
                soak.lost_or_doubled += 1
                soak.problems.append(f"entry {number}: a second roll {entry['roll']} before {pending} was played")
            pending = Roll(*entry["roll"])
        elif kind == "opening":
            rules = get_rule_set(soak.rules)
            opening = rules.resolve_opening(*entry["dice"])
            pending = opening.roll if opening is not None else None
        elif kind == "turn":
            roll = Roll(*entry["roll"])
            if pending is None or sorted((roll.first, roll.second)) != sorted((pending.first, pending.second)):
                soak.lost_or_doubled += 1
                soak.problems.append(f"entry {number}: a turn with {roll}, but the roll thrown was {pending}")
            pending = None
            soak.turns += 1
        elif kind == "takeback":
            pending = Roll(*entry["roll"])
        elif kind in ("game", "game-over"):
            pending = None
    controller = Controller(Settings(get_rule_set(soak.rules), None, soak.length))
    try:
        controller.resume(entries)
    except ValueError as error:
        soak.problems.append(f"the journal does not replay: {error}")
        return
    soak.games = len(controller.match.games)
    soak.finished = controller.match.winner() is not None
    if not soak.finished:
        soak.problems.append("the match is not finished")
    mats = sorted(records.glob("*.mat")) if records.exists() else []
    if not mats:  # killed between the last journal entry and the record: the next start rebuilds it
        from controller.journal import Journal
        from controller.runner import records_of_journals

        records_of_journals(Journal(journal), records, lambda line: None)
        soak.records_rebuilt += 1
        mats = sorted(records.glob("*.mat"))
    if len(mats) != 1:
        soak.problems.append(f"{len(mats)} records in {records}, not one")
        return
    try:
        record = read_mat(mats[0].read_text(encoding="utf-8"), source=str(mats[0]))
        replayed = replay(record)
    except ValueError as error:
        soak.problems.append(f"the record does not replay: {error}")
        return
    recorded = [(t.colour, t.roll, t.play) for g in replayed.games for t in g.turns]
    journalled = [(t.colour, t.roll, t.play) for g in controller.match.games for t in g.turns()]
    if recorded != journalled:
        soak.lost_or_doubled += abs(len(recorded) - len(journalled)) or 1
        soak.problems.append(f"the record holds {len(recorded)} turns, the journal {len(journalled)}, or they differ")


def play_on_virtual_board(folder: Path, rules: str, seed: int, kills: int, rng: random.Random, *,
                          speed: float = 3.0, timeout: float = 900.0) -> MatchSoak:
    """One game on a served real-time virtual board, its controller killed ``kills`` times
    (spread over about the first half of a game, restarted at once), then audited against
    the plays made."""
    mean_gap = 500.0 / speed / (2 * kills + 2)
    from controller.notation.position_json import position_to_json
    from simulator.virtual_device import serve

    soak = MatchSoak(rules, seed, 1)
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    journal, records = folder / "journal.jsonl", folder / "records"
    path, board = serve(rules, seed, players="greedy", speed=speed, log=lambda line: None)
    try:
        command = [sys.executable, "-c", RUN, "run", "--port", path, "--rules", rules, "--journal", str(journal),
                   "--records", str(records), "--exit-after-match", "--no-gpio"]
        while not _match_over(journal, rules, 1):
            if soak.runs > kills + 5 or time.perf_counter() - started > timeout:
                soak.problems.append(f"the match is not over after {soak.runs} runs")
                break
            soak.runs += 1
            log = folder / f"run-{soak.runs}.txt"
            with open(log, "wb") as out:
                process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
                try:
                    code = process.wait(rng.uniform(0.2, 2 * mean_gap) if soak.kills < kills else timeout)
                except subprocess.TimeoutExpired:
                    process.send_signal(signal.SIGKILL)
                    code = process.wait()
                    soak.kills += 1
            text = log.read_text(encoding="utf-8", errors="replace")
            soak.warnings += text.count("WARNING")
            if code not in (0, -signal.SIGKILL) or "Traceback" in text:
                soak.problems.append(f"run {soak.runs} exited with {code}: {text.strip().splitlines()[-3:]}")
        board.table.finished.wait(30.0)  # the players note their last play once their hand is done
    finally:
        board.stop()
    audit(soak, journal, records)
    made = board.table.truth[0].turns() if board.table.truth else []
    journalled = [e for e in _entries(journal) if e["type"] == "turn"]
    rule_set = get_rule_set(rules)
    same = sum(
        1 for entry, record in zip(journalled, made)
        if entry["colour"] == record.colour.value and entry["after"] == position_to_json(rule_set, record.after)
    )
    if len(made) != len(journalled) or same != len(made):
        soak.lost_or_doubled += abs(len(made) - len(journalled)) + (min(len(made), len(journalled)) - same)
        soak.problems.append(f"the players made {len(made)} plays, the journal holds {len(journalled)}, {same} alike")
    soak.seconds = round(time.perf_counter() - started, 2)
    return soak


def soak(kills: int, seed: int, speed: float, per_match: int = 5, say: Any = print, board: str = "simulated") -> dict[str, Any]:
    """Kill ``kills`` times over matches of every rule set; the figures."""
    rng = random.Random(seed)
    start_up = start_up_time()
    results: list[MatchSoak] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kill-soak-") as scratch:
        base = Path(scratch)
        n = 0
        while sum(r.kills for r in results) < kills:
            rules = RULES[n % len(RULES)]
            length = 3 if n % 3 == 2 and board == "simulated" else 1
            wanted = min(per_match * length, kills - sum(r.kills for r in results))
            match_seed = seed * 1000 + n
            if board == "simulated":
                result = play_match(base / f"match-{n}", rules, match_seed, length, wanted, rng, speed=speed,
                                    start_up=start_up, every=ENTRIES_PER_GAME // per_match)
            else:
                result = play_on_virtual_board(base / f"match-{n}", rules, match_seed, wanted, rng, speed=speed)
            results.append(result)
            say(f"{rules:14} seed {match_seed:5} to {length}: {result.kills} kills, {result.runs} runs, "
                f"{result.turns} turns, {'finished' if result.finished else 'NOT FINISHED'}"
                + (f"; {result.problems[:3]}" if result.problems else ""))
            n += 1
    return {
        "matches": len(results),
        "matches_finished": sum(r.finished for r in results),
        "kills": sum(r.kills for r in results),
        "kills_in_start_up": sum(r.kills_in_start_up for r in results),
        "runs": sum(r.runs for r in results),
        "turns_recorded": sum(r.turns for r in results),
        "lost_or_doubled_turns": sum(r.lost_or_doubled for r in results),
        "warnings": sum(r.warnings for r in results),
        "records_rebuilt": sum(r.records_rebuilt for r in results),
        "matches_with_problems": sum(bool(r.problems) for r in results),
        "seconds": round(time.perf_counter() - started, 1),
        "start_up_seconds": round(start_up, 2),
        "details": [asdict(r) for r in results if r.problems],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", type=float, default=None,
                        help="virtual seconds per second (default 400 simulated, 3 on the virtual board)")
    parser.add_argument("--board", choices=("simulated", "virtual"), default="simulated",
                        help="the simulated board in the controller's process, or a real-time virtual board on a pty")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    speed = args.speed or (400.0 if args.board == "simulated" else 3.0)
    figures = soak(args.kills, args.seed, speed, say=(lambda line: None) if args.json else print, board=args.board)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"matches finished {figures['matches_finished']} of {figures['matches']}; kills {figures['kills']} "
          f"({figures['kills_in_start_up']} during start-up; runs {figures['runs']}); turns recorded {figures['turns_recorded']}; lost or doubled turns "
          f"{figures['lost_or_doubled_turns']}; warnings {figures['warnings']}; matches with problems "
          f"{figures['matches_with_problems']}; {figures['seconds']} s (start-up {figures['start_up_seconds']} s)")
    sys.exit(1 if figures["matches_with_problems"] or figures["matches_finished"] < figures["matches"] else 0)


if __name__ == "__main__":
    main()
