"""The controller's step for a wrong board after turns it had to guess: before it warns, it
looks again at the turns it recorded from boards that never showed them (a roll held while
the board was hidden, a run of turns caught up at once by ``held_steps``).  When a
different play of one of them, followed by the same rolls, explains the board settled, the
record was wrong, not the board: those turns are taken back in the journal and recorded
anew, and no warning sounds.  A base of ``controller.machine.Controller`` beside
``held_steps`` (it uses the controller's state and output, declared below)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from .chain_steps import WIDEN, whole
from .held import Finished, Undecided, finished_play
from .held_chain import chains_to
from .journal_entries import TakebackEntry, stamp
from .late_hits import passes_gone
from .notation.moves import format_play
from .phases import HeldRoll, Moving
from .rules.game import TurnRecord
from .rules.reach import MOVER
from .rules.turn import turn_map as turn_map_for
from .rules.values import BAR, BLACK, WHITE, Play
from .steps_base import ControllerState
from .tracking import Kind, Tracker, Verdict
from .transitions import Trigger

if TYPE_CHECKING:
    from .outputs import Output
    from .rules.base import RuleSet
    from .rules.turn import TurnMap
    from .rules.values import Colour, Roll
    from .tracking import BoardReading

REVISE_TURNS = 3
"""Guessed turns looked at again, the latest first: a board several turns on is explained
from further back, at a cost the held search's work budget bounds for each."""


class ReviseSteps(ControllerState):
    """The revision of guessed turns (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's steps used here, beyond ControllerState's
        def _start_turn(self, time: float, roll: Roll, trigger: Trigger, journal_roll: bool = True,
                        later: tuple[HeldRoll, ...] = ()) -> Output: ...
        def _catch_up(self, time: float, reading: BoardReading, cascade: bool = False) -> Output | Undecided | None: ...
        def _next_seq(self) -> int: ...
        def _stay(self, state: Moving) -> None: ...
        def _follow_chain(self, time: float, plays: tuple[Play, ...]) -> Output | None: ...
        def _gone_between(self, owner: Colour, rolled_at: float, owner_rolled_at: float,
                          exact: bool = False, from_roll: bool = False) -> int | None: ...

    def _guesses_shown(self, state: Moving, verdict: Verdict | None) -> bool:
        """Does this exact board show the guessed turns as recorded?  It does when it is the
        turn's start, or when the guessed turns are all the opponent's and its side stands as
        they left it: a wrong board later is then this turn's, never theirs played otherwise
        (else the mover's own illegal move could be excused as its earlier play re-read)."""
        if state.guessed_from is None or verdict is None or verdict.key is None:
            return False
        if verdict.kind not in (Kind.LEGAL, Kind.COMPLETE):
            return False
        turn_map = state.turn.map
        if verdict.key == turn_map.start:
            return True
        opponent = state.turn.colour.opponent
        if any(not isinstance(record, TurnRecord) or record.colour is not opponent
               for record in self.game.history[state.guessed_from:]):
            return False
        return turn_map.sides_of(verdict.key)[1] == turn_map.sides_of(turn_map.start)[1]

    def _revise(self, time: float) -> Output | None:
        """A wrong board stood its grace time: if another play of a guessed turn, with the
        rolls thrown since, explains it settled, record that run instead (None: warn).  With
        no turn guessed, the last turn is looked at again as its play hitting a blot it passed
        when the players threw again over this turn one die short (``_hit_unseen``)."""
        state, reading = self._state, self._reading
        if not isinstance(state, Moving) or reading is None or reading.unreadable:
            return None
        if state.guessed_from is None or state.guesses_settled and not waiting_side_moved(state, reading):
            unseen = self._hit_unseen(time, state, reading)
            return unseen if unseen is not None else self._hit_not_made(time, state, reading)
        if state.guesses_settled and state.turn.tracker.complete_seen is not None:
            # the board showed where the guessed turns ended and then this turn's play
            # complete from there: they are read right, and a board of the waiting side's
            # checkers moved is that side's own move, an illegal one if nothing explains it
            # (rally-hitting 43700669, blots handed over at 5x: Black's illegal 17 to 11 after
            # White's 3-3 had stood complete, read as Black's bar/22*/17 made 16/11 bar/22*
            # three turns back, every board after wrong and the game lost)
            return None
        history = self.game.history
        rolls_now = (state.turn.roll, *(h.roll for h in state.held))
        for first_index in range(len(history) - 1, max(state.guessed_from, len(history) - REVISE_TURNS) - 1, -1):
            records = history[first_index:]
            if not all(isinstance(record, TurnRecord) for record in records):
                return None  # a cube action between: nothing before it is looked at again
            first = records[0]
            assert isinstance(first, TurnRecord)
            if not first.play.moves:
                continue  # a pass has no other play
            rolls = (*(record.roll for record in records[1:]), *rolls_now)  # type: ignore[union-attr]
            turn_map = turn_map_for(self.settings.rules, first.before, first.roll)  # kept for the new start
            found = finished_play(Tracker(turn_map), rolls, reading, turn_map.start, observed=False)
            if (isinstance(found, Finished) and turn_map.end_of(found.play) != turn_map.end_of(first.play)
                    and self._keeps_hits_shown(state, first_index, turn_map, found, rolls, reading)):
                return self._record_anew(time, len(records), rolls, found, reading)
        return self._rechain(time, state, reading)

    def _rechain(self, time: float, state: Moving, reading: BoardReading) -> Output | None:
        """The guessed turns and the rolls since, too many for the held search: the run of
        legal plays from the first guessed turn to a board seen whole (``held_chain``, as
        ``chain_steps`` does from this turn), if it plays those turns otherwise and hits at
        least the checkers the bar or pool showed each hit; recorded anew, still guesses.
        Rally-hitting 415000447 at 5x (hands over, an illegal move every turn): Black's
        24/19 bar/21 and White's bar/21* 20/19* caught up at once and read as bar/21/16 and
        bar/21 20/19; every board after was wrong, the rolls piled up and the game was lost."""
        if state.guessed_from is None or not whole(reading):
            return None
        history, rules = self.game.history, self.settings.rules
        first_index = max(state.guessed_from, len(history) - REVISE_TURNS)
        records = [record for record in history[first_index:] if isinstance(record, TurnRecord)]
        if not records or len(records) < len(history) - first_index:
            return None  # (a cube action between: nothing before it is looked at again)
        rolls = (*(record.roll for record in records), state.turn.roll, *(h.roll for h in state.held))
        shown = state.guessed_hits[first_index - state.guessed_from:]
        for widen in (1, WIDEN):
            for chain in chains_to(rules, records[0].before, rolls, reading.side(WHITE), reading.side(BLACK),
                                   None, (), widen):
                plays = chain.plays
                if len(plays) <= len(records):
                    break  # (a run ending in the guessed turns: the held search's to read)
                if any(play.hits < hits for play, hits in zip(plays, shown)):
                    continue
                if _same_boards(rules, records, plays):
                    continue  # (the turns as recorded: this turn's board is wrong)
                return self._record_run_anew(time, len(records), rolls[1:], plays, first_index, shown)
        return None

    def _record_run_anew(self, time: float, count: int, rolls: tuple[Roll, ...], plays: tuple[Play, ...],
                         first_index: int, shown: tuple[int, ...]) -> Output:
        """Take back the last ``count`` turns and play ``plays`` from the first of them, the
        rest of ``rolls`` held; the turns stay guesses from ``first_index`` (``shown``: the
        hits the bar or pool showed in each, as before)."""
        entries, first, said = self._take_back(time, count, plays[0])
        held = tuple(HeldRoll(roll, time) for roll in rolls)
        out = self._start_turn(time, first.roll, Trigger.REVISE, journal_roll=False, later=held)
        followed = self._follow_chain(time, plays)
        if followed is not None:
            out = followed.after(out.entries)
        new = self._state
        if isinstance(new, Moving):
            turns = len(self.game.history) - first_index
            self._stay(replace(new, guessed_from=first_index, guessed_hits=(*shown, *(0,) * turns)[:turns],
                               guesses_settled=False))
        return replace(out.after(entries), log=(said, *out.log))

    def _hit_unseen(self, time: float, state: Moving, reading: BoardReading) -> Output | None:
        """With no turn guessed: when the next roll came over this turn short of complete and
        the last turn's play passed a blot of this player's that a play hitting it leaves the
        board the same (entered again on its point between two boards), that play, if its
        run of turns explains the board settled.  Trictrac 1150434512 (noise 7.5): White's
        9/3*/off, the blot hit and entered again before any board showed it off, read as
        9/4/off; Black played the rest of its 6-3, the board showed it one die short, White
        threw, and the game was lost.  Asked at the grace time, and (``board_steps``) at once
        for a wrong board no held run explains: quick hands seldom leave a wrong board
        standing (trictrac 1351440543 at 8x: Black's 6/3*/2, White's blot taken after its
        roll and entered on its point, read as 6/5/2; fourteen rolls held before a wrong
        board stood, the game lost)."""
        if not state.held or state.held[0].over is not None or state.turn.map.is_complete(state.last_legal):
            return None
        record = self._last_turn()
        return None if record is None else self._read_again(time, state, reading, record, more_hits=True)

    def _hit_not_made(self, time: float, state: Moving, reading: BoardReading) -> Output | None:
        """With no turn guessed, a wrong board standing its grace time: when the last turn's
        play hit a blot its bar or pool never showed (on the board this turn's roll came over,
        or since), and another play of that turn leaving the mover's side the same hits fewer,
        that play, if its run of turns explains the board settled (the other half of
        ``_hit_unseen``).  Serial rally-hitting 1350540515 at 8x: Black lifted its blot on 12
        just before White's 4-2 landed, and White's 14/10/8 past it was read as 14/12*/8; the
        blot put back, Black played its 1-1, warned for twenty seconds, and forty plays were
        recorded otherwise."""
        record = self._last_turn()
        if (record is None or record.colour is state.turn.colour or not record.play.hits
                or state.turn.rolled_at == -math.inf):
            return None
        hit, turn = record.colour.opponent, state.turn
        if self._seen.bar_between(hit, turn.rolled_at, math.inf) >= record.after.side(hit)[BAR]:
            return None  # the bar or pool showed the checkers hit (on the board the roll came over, or since)
        # (and a blot the boards saw go before its owner's roll was hit: rally-hitting 310909328,
        # blots handed over at 3x, White's 18/15*/11 read again as 18/14/11, so that Black's
        # illegal 23 to 15 stood unwarned four seconds)
        gone = self._gone_between(hit, turn.last_rolled_at, turn.rolled_at, exact=turn.rolled_exact)
        return self._read_again(time, state, reading, record, more_hits=False, gone=gone,
                                complete=turn.tracker.complete_seen is not None)

    def _last_turn(self) -> TurnRecord | None:
        """The last turn recorded, if it is one with a play (not a pass, nor a cube action)."""
        history = self.game.history
        record = history[-1] if history else None
        return record if isinstance(record, TurnRecord) and record.play.moves else None

    def _read_again(self, time: float, state: Moving, reading: BoardReading, record: TurnRecord,
                    more_hits: bool, gone: int | None = None, complete: bool = False) -> Output | None:
        """``record``'s turn recorded anew with another play leaving the mover's side the same
        and hitting more blots (``more_hits``: one the recorded play went past) or fewer, if its
        run of turns with this turn's roll and those held explains the board settled, and it
        leaves standing no blot among ``gone`` (read empty before its owner's roll).

        ``complete``: a board showed this turn's play complete after the last turn as recorded.
        The run must then show this turn complete too (finished, a roll thrown since, or its
        board complete): each reading had a complete board, and the later one stands.  A run
        leaving this turn part-played would excuse an illegal move made after the play shown
        (rally-hitting 2700781021, blots handed over: Black's pool/24/19 shown, then its
        illegal 19 to 14 excused as White's pool/19*/18 read pool/24/18).  Trictrac 350810524
        (hand-over, 5x): Black's bar/20/17* was read bar/22*/17* when White, having thrown,
        lifted its blot on 3 and tried it on 23, a complete bar/23 after two hits; White then
        took it back, entered bar/23/20 and Black played its next roll, warned for good and
        the game lost."""
        turn_map = turn_map_for(self.settings.rules, record.before, record.roll)
        tracker, was = Tracker(turn_map), turn_map.end_of(record.play)
        if was is None or more_hits and not tracker.reach.may_still_hit(was):
            return None
        rolls = (state.turn.roll, *(h.roll for h in state.held))
        found = finished_play(tracker, rolls, reading, turn_map.start, observed=False)
        if not isinstance(found, Finished):
            return None
        end, hits = turn_map.end_of(found.play), found.play.hits - record.play.hits
        if end is None or end & MOVER != was & MOVER or (hits <= 0 if more_hits else hits >= 0):
            return None
        if gone is not None and passes_gone(turn_map, end, gone):
            return None
        if complete and not state.held and not self._shows_complete(found, reading):
            return None
        return self._record_anew(time, 1, rolls, found, reading)

    @staticmethod
    def _shows_complete(found: Finished, reading: BoardReading) -> bool:
        """Does ``reading`` show the turn after ``found``'s play complete?  (A fresh tracker:
        the search keeps its own.)"""
        follower = found.follower
        return follower is not None and Tracker(follower.map).judge(reading).kind is Kind.COMPLETE

    def _keeps_hits_shown(self, state: Moving, first_index: int, turn_map: TurnMap, found: Finished,
                          rolls: tuple[Roll, ...], reading: BoardReading) -> bool:
        """Does the run of turns re-read from the turn at ``first_index`` (``found``'s play in
        ``turn_map``, then the plays the rolls since find, as the catch-up will) hit in each
        turn at least the checkers the bar or pool showed that turn hit?  A blot seen hit was
        not passed: a run leaving it standing explains an illegal move away
        (``Moving.guessed_hits``)."""
        assert state.guessed_from is not None
        shown = state.guessed_hits[first_index - state.guessed_from:]
        turns = len(self.game.history) - first_index
        play = found.play
        for index in range(turns):
            if index < len(shown) and play.hits < shown[index]:
                return False
            if index + 1 == turns:
                return True
            after = turn_map.position_of(turn_map.end_of(play)).with_turn(turn_map.mover.opponent)
            turn_map = turn_map_for(self.settings.rules, after, rolls[index])
            if turn_map.passes:
                play = Play(())
                continue
            tracker = Tracker(turn_map)
            if tracker.judge(reading).is_legal:
                return True  # the board is of this turn: the run re-read is shorter
            later = finished_play(tracker, rolls[index + 1:], reading, turn_map.start, observed=False)
            if not isinstance(later, Finished):
                return True  # the catch-up decides on the boards to come
            play = later.play
        return True

    def _take_back(self, time: float, count: int, play: Play) -> tuple[tuple[TakebackEntry, ...], TurnRecord, str]:
        """Undo the last ``count`` turns: their takeback entries, the first of them, and the
        line saying it was ``play``."""
        entries = []
        first = None
        for _ in range(count):
            first = self.game.undo()
            if not isinstance(first, TurnRecord):
                raise TypeError(f"a turn taken back to re-read is not a turn record: {first!r}")
            entries.append(TakebackEntry(self._next_seq(), stamp(time), first.colour, first.roll))
        if first is None:
            raise ValueError("no turn taken back to re-read")
        rules = self.settings.rules
        said = (f"Board re-read: {first.colour.value}'s {first.roll} was {format_play(play, rules)}, "
                f"not {format_play(first.play, rules)}")
        return tuple(entries), first, said

    def _record_anew(self, time: float, count: int, rolls: tuple[Roll, ...], found: Finished,
                     reading: BoardReading) -> Output:
        """Take back the last ``count`` turns and play them again from ``reading``: the first
        with ``found``'s play, the rest as the held rolls' catch-up finds them."""
        entries, first, said = self._take_back(time, count, found.play)
        held = tuple(HeldRoll(roll, time) for roll in rolls)
        started = self._start_turn(time, first.roll, Trigger.REVISE, journal_roll=False, later=held)
        state = self._state
        caught = self._catch_up(time, reading, cascade=True) if isinstance(state, Moving) and state.held else None
        out = started if caught is None or isinstance(caught, Undecided) else caught.after(started.entries)
        return replace(out.after(entries), log=(said, *out.log))


def _same_boards(rules: RuleSet, records: list[TurnRecord], plays: tuple[Play, ...]) -> bool:
    """Do ``plays``, from the first record's board on, leave each board the records left?"""
    position = records[0].before
    for record, play in zip(records, plays):
        position = rules.apply(position, play)
        if position != record.after:
            return False
    return True


def waiting_side_moved(state: Moving, reading: BoardReading) -> bool:
    """Does ``reading`` show a checker of the side not on roll on a point where this turn's
    start has fewer?  The mover cannot put one there (it only takes blots away)."""
    turn_map = state.turn.map
    waiting = reading.side(state.turn.colour.opponent)
    start = turn_map.sides_of(turn_map.start)[1]
    return any(waiting[point] > start[point] for point in range(1, BAR))  # (a hidden zone reads 0)
