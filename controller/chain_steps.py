"""The controller's steps for quick hands: two or more rolls held and a board seen whole
that no run the held search followed explains; the run of legal plays with the rolls held
that leads to it (``held_chain``), each turn recorded as a guess a later board may revise.
A base of ``controller.machine.Controller`` beside ``held_steps``."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING

from .held_chain import Board, chains_to
from .late_hits import passes_gone
from .phases import Moving
from .rules.turn import turn_map as turn_map_for
from .rules.values import BLACK, CHECKERS, WHITE, Colour
from .steps_base import ControllerState

if TYPE_CHECKING:
    from .outputs import Output
    from .rules.values import Play, Roll
    from .tracking import BoardReading, Tracker

WAYPOINT_BOARDS = 8
"""Boards looked at, the latest first, for one seen whole during a held roll's turn."""
WIDEN_FROM = 5
"""Rolls (the turn's and those held) from which a run not found is looked for again in a
wider beam (``WIDEN`` times: tens of milliseconds; rally-hitting 386111583 at 20x, seven
turns between two boards, lost for good with the narrow beam)."""
WIDEN = 4


def whole(reading: BoardReading) -> bool:
    """Does the board show every checker, each on a zone of its own colour, none hidden?"""
    return not (reading.unreadable or reading.mixed or reading.foreign or reading.overfull
                or any(reading.visible(colour) != CHECKERS for colour in Colour))


class ChainSteps(ControllerState):
    """The chain's steps (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's steps used here, beyond ControllerState's
        def _stay(self, state: Moving) -> None: ...
        def _play_held_roll(self, time: float, play: Play, searched: Tracker | None = None) -> Output: ...
        def _played_after_next_roll(self, state: Moving) -> tuple[int, ...] | None: ...
        def _gone_in_runs(self, state: Moving) -> tuple[int, ...]: ...

    def _chain_up(self, time: float, reading: BoardReading) -> Output | None:
        """Two or more rolls held and a board seen whole that no run the held search followed
        explains: the run of legal plays with the rolls held that leads to it
        (``held_chain``), each turn recorded as a guess (``Moving.guessed_from``); None when
        there is none, or a computer's plan is to be kept.  (Not from turns recorded before
        this one: a run re-reading them makes boards an illegal move made legal.)"""
        state = self._state
        if not isinstance(state, Moving) or len(state.held) < 2 or self.settings.computer or not whole(reading):
            return None
        rolls = (state.turn.roll, *(h.roll for h in state.held))
        turn_map, complete = state.turn.map, state.turn.tracker.complete_seen
        played = self._played_after_next_roll(state)  # (the boards after the next roll showed the play)
        if complete is None or not turn_map.is_complete(complete):
            complete = played[0] if played is not None and len(played) == 1 else None
        shown = None if complete is None else turn_map.play_to(complete)
        chain = None
        for widen in (1, WIDEN) if len(rolls) >= WIDEN_FROM else (1,):
            chains = chains_to(self.settings.rules, self.game.position, rolls, reading.side(WHITE),
                               reading.side(BLACK), shown, self._waypoints(state, time), widen)
            chain = next((chain for chain in chains if self._chain_fits_boards(state, rolls, chain.plays) and (
                played is None or turn_map.end_of(chain.plays[0]) in played)), None)
            if chain is not None:
                break
        if chain is None:
            return None
        guessed_from, hits_before = state.guesses_go_on(len(self.game.history))
        hits = (*hits_before, *(0,) * len(chain.plays))
        out = self._follow_chain(time, chain.plays)
        new = self._state
        if isinstance(new, Moving):  # never seen: a later board may revise them
            self._stay(replace(new, guessed_from=guessed_from, guessed_hits=hits, guesses_settled=False))
        return out

    def _waypoints(self, state: Moving, time: float) -> tuple[Board | None, ...]:
        """Per roll of the turn and the rolls held, the last board seen whole (every checker
        on it, none mixed) between that roll and the next (``chains_to`` follows them; not
        looked for the turn's own roll, nor the last, whose board is the one explained)."""
        thrown = (*(held.thrown for held in state.held), time)
        boards: list[Board | None] = [None] * (len(thrown) + 1)
        for index in range(1, len(thrown) - 1):
            since, until = thrown[index - 1], thrown[index]
            if since > -math.inf:
                for _, seen in islice(self._seen.whole_between(since, until), WAYPOINT_BOARDS):
                    if whole(seen):
                        boards[index] = (seen.side(WHITE), seen.side(BLACK))
                        break
        return tuple(boards)

    def _chain_fits_boards(self, state: Moving, rolls: tuple[Roll, ...], plays: tuple[Play, ...]) -> bool:
        """Does each turn of ``plays`` (from ``state``'s on, with ``rolls``) fit what the boards
        showed, as the held search's runs must?  Every blot it hits was seen leaving its point,
        or reaching the bar or pool, since the mover's roll: a checker a run puts on a point
        and the next turn hits there never showed on the board otherwise
        (``HitsShown.hits_seen``).  And it leaves standing no blot the boards saw taken before
        its owner's roll when another play of that turn hits it (``late_hits.passes_gone``,
        ``_gone_in_runs``)."""
        rules, position, rolled_at = self.settings.rules, self.game.position, state.turn.rolled_at
        shown = None if rolled_at == -math.inf else self._seen.hits_shown(rolled_at)
        gones = self._gone_in_runs(state)
        for index, (play, roll) in enumerate(zip(plays, rolls)):
            after = rules.apply(position, play)
            opponent = position.turn.opponent
            if shown is not None and not shown.hits_seen(opponent, position.side(opponent), after.side(opponent)):
                return False
            gone = gones[index] if index < len(gones) else 0
            if gone and play.moves:
                turn_map = turn_map_for(rules, position, roll)
                end = turn_map.end_of(play)
                if end is not None and passes_gone(turn_map, end, gone):
                    return False
            position = after
        return True

    def _follow_chain(self, time: float, plays: tuple[Play, ...]) -> Output | None:
        """End the turn and each next with ``plays`` (the held rolls' turns, a pass starting
        the next by itself), the board judged in each turn begun."""
        out: Output | None = None
        position = self.game.position
        for play in plays:
            now = self._state
            if not play.moves:  # a pass: the turn before it began the next turn itself
                position = position.with_turn(position.turn.opponent)
                continue
            if not isinstance(now, Moving) or not now.held or self.game.position != position:
                break  # (a board a turn began on showed its play complete: it went on by itself)
            step = self._play_held_roll(time, play)
            out = step if out is None else step.after(out.entries)
            position = self.settings.rules.apply(position, play)
        return out
