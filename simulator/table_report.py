"""The ledger of one simulated table session: what the players did and what the board made of
it (plays made and recorded, illegal attempts warned, false warnings, the controller's CPU time).

Split out of ``simulator/table.py`` so the table, its event pump and its comparison share one
report without importing one another.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class Warning_:
    """A warning the board gave: when, why, and whether an illegal attempt stood then."""

    time: float
    reason: str
    message: str
    during_attempt: bool


@dataclass
class TableReport:
    """What one table session did and what the board made of it."""

    games: int = 0
    finished: int = 0
    plays_made: int = 0
    plays_recorded_identically: int = 0
    illegal_attempts: int = 0
    attempts_warned: int = 0
    false_warnings: list[Warning_] = field(default_factory=list)
    snapshot_ns: list[int] = field(default_factory=list)
    snapshot_kinds: dict[str, list[int]] = field(default_factory=dict)
    roll_ns: list[int] = field(default_factory=list)
    snapshots: int = 0
    mismatches: list[str] = field(default_factory=list)
    virtual_seconds: float = 0.0
    wins: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    points: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    """Games won and points scored per colour (finished games only)."""
    cube_actions: int = 0
    cube_actions_recorded_identically: int = 0
    """Doubles, takes and passes made at the table, and of those recorded as made."""

    def merge(self, other: TableReport) -> None:
        """Add another session's counts to these."""
        for colour in ("white", "black"):
            self.wins[colour] += other.wins[colour]
            self.points[colour] += other.points[colour]
        self.games += other.games
        self.cube_actions += other.cube_actions
        self.cube_actions_recorded_identically += other.cube_actions_recorded_identically
        self.finished += other.finished
        self.plays_made += other.plays_made
        self.plays_recorded_identically += other.plays_recorded_identically
        self.illegal_attempts += other.illegal_attempts
        self.attempts_warned += other.attempts_warned
        self.false_warnings += other.false_warnings
        self.snapshot_ns += other.snapshot_ns
        self.roll_ns += other.roll_ns
        for kind, times in other.snapshot_kinds.items():
            self.snapshot_kinds.setdefault(kind, []).extend(times)
        self.snapshots += other.snapshots
        self.mismatches += other.mismatches
        self.virtual_seconds += other.virtual_seconds

    def cpu_per_snapshot(self) -> dict[str, float]:
        """Median and 99th percentile of the controller's time per snapshot, in ms."""
        return timing(self.snapshot_ns)

    def as_json(self) -> dict[str, object]:
        """The figures ``trictrac simulate --json`` prints."""
        return {
            "games": self.games,
            "games_finished": self.finished,
            "plays_made": self.plays_made,
            "plays_recorded_identically": self.plays_recorded_identically,
            "illegal_attempts": self.illegal_attempts,
            "warnings_for_attempts": self.attempts_warned,
            "false_warnings": len(self.false_warnings),
            "snapshots": self.snapshots,
            "cpu_per_snapshot": self.cpu_per_snapshot(),
            "cpu_per_roll": timing(self.roll_ns),
            "virtual_hours": round(self.virtual_seconds / 3600, 2),
            "wins": dict(self.wins),
            "points": dict(self.points),
            "cube_actions": self.cube_actions,
            "cube_actions_recorded_identically": self.cube_actions_recorded_identically,
            "mismatches": self.mismatches[:20],
        }


def timing(times_ns: list[int]) -> dict[str, float]:
    """Median, 99th percentile and maximum of times in ns, in ms."""
    times = sorted(times_ns)
    if not times:
        return {"median_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    return {
        "median_ms": statistics.median(times) / 1e6,
        "p99_ms": times[int(0.99 * (len(times) - 1))] / 1e6,
        "max_ms": times[-1] / 1e6,
    }
