"""The controller's steps that read a held turn by what the boards showed around the next
roll: nobody moves a checker of the mover's between the next player's roll and the
mover's own next roll but to hit it, and the boards before the next roll are the mover's
alone.  A base of ``controller.machine.Controller`` beside ``held_steps``."""

from __future__ import annotations

import math
from itertools import islice
from typing import TYPE_CHECKING

from .held import Finished, run_settles
from .late_hits import containing, hit_left_late, passes_gone
from .phases import Moving
from .steps_base import ControllerState
from .tracking import Kind

if TYPE_CHECKING:
    from .rules.values import Colour
    from .tracking import BoardReading, Verdict

ROLL_READ = 0.5
"""Seconds a roll may be read after the dice land (the board's tray waits for them to lie
still, then the link carries it): a board change this recent may be the next player's."""
THROWN_EARLY = 0.15
"""Seconds before its dice landed (a roll read with its landing time) that a player's hand
may already be at its own checkers: the dice leave the hand before they land, and a quick
hand reaches for a checker as they fly (backgammon 42800112 and trictrac 42800703 over the
serial link at 5x: a blot lifted by its owner 0.07 s before its dice landed, read as hit by
the play before it, every board after warned and the game stuck).  No more: at 20x a hand
takes a blot and its owner's dice land within 0.3 s, and then it was hit (rally-hitting
386111583 misread three plays more with 0.3)."""
BOARDS_AFTER_ROLL = 64
"""Whole boards looked at, the latest first, between the next roll and the mover's next."""


class NextRollSteps(ControllerState):
    """The next roll's evidence (see the module docstring)."""

    def _read_by_next_roll(self, state: Moving, verdict: Verdict, reading: BoardReading) -> tuple[bool, bool]:
        """With the next roll held, what the opponent's points read empty before it say of a
        complete board or a hit still to carry away: (late, taken back).

        Late (``late_hits.hit_left_late``): the complete board is better read as another play,
        a checker moved by its owner after its roll.  Taken back: the board shows standing on
        its point a blot gone before its owner's roll that the mover's play hits (a complete
        board of a play passing it: ``late_hits.passes_gone``; or a hit still to carry away).
        The blot was taken; what stands there came back with the next player's hand after
        its roll, its entry on that point or an illegal move, and the board is the next
        turn's to judge (trictrac 371811154, blots handed over at 5x: Black's 6-6
        22/16*/10/4 7/1, White's blot taken before White threw 5-4, then put back on its
        point and left there four seconds, a hit pending unwarned)."""
        key = verdict.key
        if key is None or verdict.kind not in (Kind.COMPLETE, Kind.HIT_PENDING):
            return False, False
        gone = self._gone_before_next_roll(state)
        if not gone:
            return False, False
        if verdict.kind is Kind.COMPLETE:
            if hit_left_late(state.turn.map, key, gone):
                return True, False
            return False, passes_gone(state.turn.map, key, gone)
        rules, side = self.settings.rules, reading.side(state.turn.colour.opponent)
        return False, any(side[point] and gone >> point & 1 for point in map(rules.opponent_point, verdict.hits))

    def _gone_before_next_roll(self, state: Moving) -> int | None:
        """The opponent's points (bit ``p``) the boards read empty from the mover's roll to
        the next roll (held); None when either time is not known."""
        turn, first = state.turn, state.held[0]
        return self._gone_between(turn.colour.opponent, turn.rolled_at, first.thrown, first.exact)

    def _gone_between(self, owner: Colour, rolled_at: float, owner_rolled_at: float,
                      exact: bool = False, from_roll: bool = False) -> int | None:
        """``owner``'s points (bit ``p``) the boards read empty, and not holding some again,
        between the roll of the turn before its own (read up to ``ROLL_READ`` late, unless
        ``from_roll``: its hand may still be at its own play then) and its own roll (the
        same, unless ``exact``: then up to ``THROWN_EARLY`` before its dice landed): blots
        gone before their owner rolled were hit.  None when either time is not known."""
        if rolled_at == -math.inf or owner_rolled_at == -math.inf:
            return None
        until = owner_rolled_at - (THROWN_EARLY if exact else ROLL_READ)
        return self._seen.emptied_between(owner, rolled_at - (0.0 if from_roll else ROLL_READ), until)

    def _next_roll_evidence(self, state: Moving, time: float) -> tuple[int | None, tuple[int, ...], tuple[int, ...]]:
        """What the held search reads from the boards around the rolls held: the opponent's
        points read empty before the next roll when only it is held (``gone``), per turn of
        a run those read holding some as the next roll came (``standing``), and per later
        turn of a run those read empty before the roll after it (``_gone_in_runs``)."""
        gone = self._gone_before_next_roll(state) if len(state.held) == 1 else None
        return gone, self._standing_at_rolls(state, time), self._gone_in_runs(state)

    def _gone_in_runs(self, state: Moving) -> tuple[int, ...]:
        """Per turn of a run from this one (this one's own evidence is ``gone``: 0 here),
        the points of the player rolling after it that the boards read empty between its
        roll and that player's (``_gone_between``; 0 when a time is not known): a blot gone
        then was hit in that turn (rally-hitting 373711212, blots handed over at 5x: Black's
        pool/20*/17, White's blot on 20 handed over before White threw, caught up in a run
        as pool/22/17 and White's illegal 20 to 15 taken for its 5, unwarned four seconds).
        From the turn's roll as read, not before: quick hands play a run's turns one upon
        another, and the boards just before a roll show the hand of the player before still
        at its own play (trictrac 100003 at 20x, the game lost when they counted)."""
        gones, mover = [0], state.turn.colour
        for before, after in zip(state.held, state.held[1:]):
            mover = mover.opponent
            gone = self._gone_between(mover.opponent, before.thrown, after.thrown, after.exact, from_roll=True)
            gones.append(gone or 0)
        return tuple(gones)

    def _standing_at_rolls(self, state: Moving, time: float) -> tuple[int, ...]:
        """Per turn of a run from this one, the opponent's points (bit ``p``) the boards read
        holding some while the opponent rolled after it (held; ``Seen.holding_through``): a
        blot there was not hit in that turn.  The roll may be read up to ``ROLL_READ`` late,
        and a board as late after it (a hit just before the roll shows on the boards after):
        it stops at the first roll whose time is not known, or too recent to tell."""
        standing: list[int] = []
        owner = state.turn.colour.opponent
        for held in state.held:
            if held.thrown == -math.inf or held.thrown + ROLL_READ > time:
                break
            since = held.thrown - (0.0 if held.exact else ROLL_READ)
            standing.append(self._seen.holding_through(owner, since, held.thrown + ROLL_READ))
            owner = owner.opponent
        return tuple(standing)

    def _played_after_next_roll(self, state: Moving) -> tuple[int, ...] | None:
        """The complete boards of the turn that the last whole board between the next roll
        and the mover's own next shows (the mover's checkers where its play put them, but for
        those hit on their way to the bar or pool, or in a hand): nobody moves them then but
        to hit them.  None when no such board tells (an illegal move being put right shows
        none)."""
        if len(state.held) < 2 or state.held[0].thrown == -math.inf:
            return None
        turn = state.turn
        for _, board in islice(self._seen.whole_between(state.held[0].thrown, state.held[1].thrown),
                               BOARDS_AFTER_ROLL):  # latest first
            keys = containing(turn.map, board.side(turn.colour))
            if keys:
                return keys
        return None

    def _shown_after_next_roll(self, state: Moving, found: Finished, reading: BoardReading) -> Finished | None:
        """``found``, unless the boards after the next roll showed another complete play
        (``_played_after_next_roll``): then that play if its run of turns explains the board
        settled, else None (an illegal move mimics the run of ``found``).  Rally-hitting
        1861255837 (blots handed over, 3x, every turn an illegal move tried): White's
        3/off 6/4 shown after Black's roll; White's illegal 4 to 1 in its next turn read as
        3/off 13/11, Black's 3-3 hitting on 11 rather than 13 and the 5-3 begun 6/1, and the
        game lost."""
        played = self._played_after_next_roll(state)
        if played is None or state.turn.map.end_of(found.play) in played:
            return found
        rolls = tuple(held.roll for held in state.held)
        for key in played:
            other = run_settles(state.turn.tracker, key, rolls, reading)
            if other is not None:
                return other
        return None
