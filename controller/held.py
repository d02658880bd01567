"""A roll thrown before the mover's play was seen complete: which play it follows.

The next player may throw while the mover still holds a checker, while a hand hides a
zone or the sensors drop out, and may start moving before the board has ever shown the
finished play; with quick hands and a long dropout the board may be several turns on
before it is seen again.  The rolls are held with the turn they came in
(``phases.HeldRoll``); a board the mover's turn explains is judged as usual (a complete
play resolves the first roll at once), and a board it cannot explain is searched for a
run of turns that does: each complete play of the mover the board may have come from,
followed by the next turn with the first held roll, and so on with the rolls after it.
Which plays are an explanation, and in which order they are tried, is
``controller.held_evidence``'s.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from .held_evidence import MAX_TRIED, Evidence, SinceRoll, last_shown, opponent_bar
from .late_hits import hit_left_late, hits_standing, passes_gone
from .rules.reach import MOVER
from .rules.turn import TurnMap
from .rules.turn import turn_map as turn_map_for
from .rules.values import BAR, Colour, Play, Position, Roll
from .seen import HitsShown
from .tracking import BoardReading, Kind, StillMap, Tracker

MAX_TRIED_FAR = 12
"""Complete plays tried per turn when the board is further on (the mover has moved again
since): more plays end where a later turn moved on from, the work budget still bounds it."""
MAX_WORK = 60
"""Turns judged for one board, a turn built (once per turn; then kept) counting 4: a search
that would need more gives up, and a later board decides."""
BUILD = 4
STATES_PER_UNIT = 250
"""A turn built counts one more for every so many boards it holds (a large turn's map,
and the explanations indexed over it, cost in proportion)."""
MAX_KEPT = 64
"""Following turns and answers kept per turn (the oldest go first)."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The mover's turn ended with ``play``; the board is a board of a later turn."""

    play: Play
    follower: Tracker | None = None
    """The next turn as the search followed it (``Tracker.following``): the run it found
    goes on first there, the next board judged by the turns it has judged."""


@dataclass(frozen=True, slots=True)
class Undecided:
    """A run of turns explains the board with a hand at work or a hit under way: a
    transient, and a settled board to come decides which play it was."""


_SETTLED, _IN_HAND, _TRANSIENT = "settled", "in hand", "transient"


def finished_play(
    turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, last_legal: int, observed: bool = True,
    since: SinceRoll | None = None, played_on: bool = False, seen_hits: HitsShown | None = None,
    gone: int | None = None, standing: tuple[int, ...] = (), gones: tuple[int, ...] = (),
) -> Finished | Undecided | None:
    """The mover's complete play that, followed by the next turns with the held ``rolls``,
    explains ``reading``; None when none does (or the board cannot be read whole).

    A board some run of turns shows settled (a legal board of the last of them, nothing in
    a hand) decides, the shortest run first, and within one the complete board last seen
    first, then the plays the board shows the fewest of the mover's checkers gone from;
    else a run that shows a hand at work or a hit under way makes it ``Undecided``: only a
    settled board tells one play from another (a checker slid over the points crosses
    boards of other plays, a hand knocking checkers over makes boards no play made).
    ``observed``: the turn's boards were seen (False for a turn begun on this very board as
    part of a run already found settled): only then does a board showing the mover's side as
    before the roll leave an unshown play undecided.  ``since``: what the boards since the
    mover's roll showed (None: not known), which rules out or puts last the plays hitting
    blots that never left their points or never reached the bar or pool (``SinceRoll``).
    ``played_on``: no warning stands, so the players threw again over this board believing
    it right: with more than one roll held, a hit the bar never showed may explain it when
    nothing else does and its run settles (a board warned about is being put right).
    ``seen_hits``: what the boards since the mover's roll showed of hits: a later turn of a run
    hits only blots seen leaving their points or reaching the bar or pool.  ``gone``: the
    opponent's points (bit ``p``) the boards read empty before the next player's roll, when
    only that roll is held: the mover's plays read otherwise by them are not tried
    (``late_hits``).  ``standing``: per turn of a run (this one first), the opponent's points
    (bit ``p``) the board standing at the opponent's roll after it read holding some: a play
    hitting a blot there is tried after the others (``Seen.holding_through``).  ``gones``:
    per turn of a run (this one first, its own left to ``gone``), the points of the player
    rolling after it read empty before that roll: a later turn's play leaving a blot there
    standing is not tried (``late_hits.passes_gone``)."""
    if reading.unreadable or not rolls:
        return None
    board = turn.key(reading)
    memo = _kept(turn)
    asked = ("finished", board, reading.foreign, reading.overfull, rolls, last_legal, observed, turn.lifted_seen,
             turn.side_seen, since, played_on, seen_hits, gone, standing, gones)
    if asked in memo:
        return memo[asked]  # type: ignore[return-value]
    budget = [MAX_WORK]
    found = _search(turn, rolls, reading, last_legal, budget, top=observed, since=since, played_on=played_on,
                    seen_hits=seen_hits, gone=gone, standing=standing, gones=gones)
    answer: Finished | Undecided | None = None
    if found is not None:
        kind, key = found
        if kind == _SETTLED:
            follower = _kept_follower(turn, key, rolls)
            answer = Finished(turn.map.play_to(key), None if follower is None else follower[0])
        else:
            answer = Undecided()
    _keep(memo, asked, answer)  # a search cut short is not made again for the same board
    return answer


def run_settles(turn: Tracker, key: int, rolls: tuple[Roll, ...], reading: BoardReading) -> Finished | None:
    """The mover's turn ended with complete board ``key`` when the run of turns from it with
    the held ``rolls`` shows ``reading`` settled; None when it does not (or cannot tell)."""
    if reading.unreadable or not isinstance(turn.map, TurnMap) or not turn.map.is_complete(key):
        return None
    budget = [MAX_WORK]
    judged = _judge(turn, key, rolls, reading, budget)
    if judged is None:
        return None
    kind, tracker, rest = judged
    if kind != _SETTLED:
        found = _search(tracker, rest, reading, tracker.map.start, budget) if kind is None and rest else None
        if found is None or found[0] != _SETTLED:
            return None
    follower = _kept_follower(turn, key, rolls)
    return Finished(turn.map.play_to(key), None if follower is None else follower[0])


def explained_from_seen(turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, seen: int, key: int) -> bool:
    """The board shows complete board ``key`` with rolls held, after it showed ``seen``,
    another complete board the mover's checkers reach (``key`` hits a blot ``seen`` only
    went past): do the turns that follow ``seen`` explain the board as a hand at work (the
    next player taking that blot off first to hit it)?  Then no play is decided yet: a
    board to come tells whether the blot was hit in passing or later."""
    if seen == key or seen & MOVER != key & MOVER or not turn.map.is_complete(seen):
        return False
    return isinstance(finished_play(turn, rolls, reading, seen), Undecided)


def _search(
    turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, last_legal: int, budget: list[int],
    top: bool = False, since: SinceRoll | None = None, played_on: bool = False, seen_hits: HitsShown | None = None,
    gone: int | None = None, standing: tuple[int, ...] = (), gones: tuple[int, ...] = (),
) -> tuple[str, int] | None:
    """(``_SETTLED`` or ``_TRANSIENT``, the mover's complete board that starts the run), or
    None when no run of turns explains the board; for the turn the board was watched in, the
    plays hitting fewer blots than its bar or pool showed, or (``since``) a blot that never
    left its point, are tried only when no other play explains it."""
    turn_map = turn.map
    if not isinstance(turn_map, TurnMap):
        return None
    board = turn.key(reading)
    found = None
    if since is not None or top:
        found = _search_from(turn, turn_map, rolls, reading, board, last_legal, budget, since, strict=True,
                             seen_hits=seen_hits, watched=top, gone=gone, standing=standing, gones=gones)
    if found is not None and found[0] != _SETTLED and top and since is not None and _not_shown(
            turn_map, turn, last_legal, found[1]):
        # the board showed the play complete, and only a run from another play explains this
        # board, as a hand at work: as doubtful as a hit no board showed, the board is wrong
        # until it settles (rally-hitting 43101076, blots handed over at 5x: Black's 23/18
        # 17/15 shown, White's 2-2 and Black's 6-4 thrown, Black's 8 carried to 6 read as
        # 23/18 8/6 with a blot of White's hit and still standing, four seconds unwarned)
        found = None
    if found is None:
        found = _search_from(turn, turn_map, rolls, reading, board, last_legal, budget, since, seen_hits=seen_hits,
                             watched=top, gone=gone, standing=standing, gones=gones)
        if found is not None and found[0] != _SETTLED and top and since is not None:
            # only a doubtful play (a hit no board showed, a blot that moved) explains it, as
            # a hand at work or a hit still under way: the board is wrong until it settles
            # (rally-hitting 1151434542: White's checker carried to a point no die reaches
            # stood four seconds unwarned), a checker in a hand or not (trictrac 415000185,
            # blots handed over: White's 13/10*/6 read as 13/9/6, Black's checker shown hit
            # on the bar then carried to 5 and 20/15 played too, read as 20/15/10/5* with
            # White's blot in the hand, four seconds unwarned)
            found = None
    if found is None and top and played_on and len(rolls) > 1:
        # nothing else explains it, and the players have thrown again over it, unwarned: a
        # hit the bar never showed (a late one, its blot entered between two boards) explains
        # a settled board (an illegal move looking so is warned and taken back: rally-hitting
        # 750622518, the next roll thrown while the warned move was being put right)
        found = _search_from(turn, turn_map, rolls, reading, board, last_legal, budget, since, lenient=True,
                             seen_hits=seen_hits, watched=top, gone=gone, standing=standing, gones=gones)
        if found is not None and found[0] != _SETTLED:
            found = None
    if found is not None:
        turn.run_seen = found[1]
    if (top and len(rolls) == 1 and found is not None and found[0] == _SETTLED
            and board & MOVER == turn_map.start & MOVER and found[1] not in (turn.complete_seen, last_legal)):
        # the mover's side as it was before the roll: a play never shown undone by hits
        # since, or a board a hand knocked about; nothing shows that the mover played, the
        # boards to come will (further on, a run of turns that settles is evidence enough;
        # a play the board showed complete, its checker hit back since, was played)
        return _TRANSIENT, found[1]
    return found


def _search_from(
    turn: Tracker, turn_map: TurnMap, rolls: tuple[Roll, ...], reading: BoardReading, board: int, last_legal: int,
    budget: list[int], since: SinceRoll | None = None, strict: bool = False, lenient: bool = False,
    seen_hits: HitsShown | None = None, watched: bool = False, gone: int | None = None,
    standing: tuple[int, ...] = (), gones: tuple[int, ...] = (),
) -> tuple[str, int] | None:
    """``_search`` for one pass: the plays the board shows as left judged first (``near``),
    then the runs of turns that follow them and the plays the mover has moved on from
    (``far``), each tried in the order ``Evidence`` puts them.  A turn of a run (not
    ``watched``) plays only the complete plays whose hits the boards showed (``seen_hits``)."""
    later = sum(4 if roll.is_double else 2 for roll in rolls)
    reach = turn.reach
    evidence = Evidence(turn, turn_map, reading, board, last_legal, since, strict, lenient)
    # first the plays the board shows as they were left (but for blots hit since): the next
    # turn may show them settled; the complete board last seen first of all
    finished = reach.complete.finished_before(board, later, mover_later=False)
    near = evidence.near(finished)
    if gone is not None and watched:  # (``late_hits``: a blot moved by its owner after its roll)
        near = [key for key in near if not hit_left_late(turn_map, key, gone)]
    if seen_hits is not None and not watched:
        # a turn of a run hits only blots the boards saw leave their points or reach the bar
        # or pool: a checker the turn before put on a point and this one hit there, neither
        # seen, never stood there (backgammon, the stateful hands test: White's bar/24/18 and
        # Black's 2-2 hitting it back, read from Black's 13/5 moved before White had moved;
        # the complete board a run's turn last saw is no exception)
        near = [key for key in near if _hits_seen(turn, key, seen_hits)]
        # and the plays hitting blots the boards saw leave their points first: a checker gone
        # from its point before its owner's roll was hit (rally-hitting 1854455633, blots handed
        # over: a false warning; 1854555635 before hands slid forward: Black's pool/23*/17
        # with White's 23 seen left, read as pool/19/17 until White's next move was warned)
        near.sort(key=lambda key: -_hits_left(turn, key, seen_hits))
    # and last, the plays hitting a blot the boards showed on its point as its owner rolled:
    # nobody but its owner puts it back, and not before rolling (rally-hitting 1942658278,
    # blots handed over: Black's 23/22* pool/23 read as pool/24*/22*, White's blot on 24 seen
    # there as White threw, then White's 1-1 warned twice)
    near = _standing_last(turn_map, near, standing)
    taken = gones[0] if gones and not watched else 0
    if taken:
        # (a later turn of a run leaves standing no blot the boards saw taken before its
        # owner's roll: ``late_hits.passes_gone``)
        near = [key for key in near if not passes_gone(turn_map, key, taken)]
    settled: list[int] = []
    in_hand: list[int] = []
    hits: list[int] = []
    deeper: list[tuple[int, Tracker, tuple[Roll, ...]]] = []
    for key in near:
        judged = _judge(turn, key, rolls, reading, budget, seen_hits, gones)
        if judged is None:
            continue
        kind, tracker, rest = judged
        if kind == _SETTLED:
            settled.append(key)
        elif kind == _IN_HAND:
            in_hand.append(key)
        elif kind == _TRANSIENT:
            hits.append(key)
        elif rest:
            deeper.append((key, tracker, rest))
    # a board the next turn shows settled decides, unless another play explains it as a hand
    # at work (bar/20/16* settled in the next turn may as well be bar/21*/16* with the next
    # player's hand still at work on the 21 blot: the boards to come tell); and one play with
    # only the next player's checkers in a hand decides, never a hit under way (the next
    # player lifting a blot looks like that blot hit and in the hand)
    if gone and watched:
        # (``late_hits``: a blot taken before its owner's roll was hit; a play leaving it
        # standing explains nothing)
        settled = [key for key in settled if not passes_gone(turn_map, key, gone)]
        in_hand = [key for key in in_hand if not passes_gone(turn_map, key, gone)]
    if settled:
        return (_TRANSIENT if in_hand or hits else _SETTLED), settled[0]
    if len(in_hand) == 1 and not hits:
        # one play with the next player's checkers in a hand decides, unless a play hitting
        # a blot the bar or pool never showed (never taken: ``keeps_hits``) explains it as
        # well: the hand may hold that blot, taken from the bar or pool between two boards
        # (the boards to come tell)
        # (the boards to come tell, too, when a run of later turns from another play the board
        # shows as left explains it: trictrac 1851755552 with hit blots handed over, White's
        # 24/21/20 seen complete, Black's 8/5* 2/1* and White's bar/20* bar/24* made with the
        # blots in hands, read as White's 24/23*/20 and Black's hand at its 3-1, the game lost)
        doubtful = [key for key in finished if evidence.doubtful(key)]
        explained = any(_explains(_judge(turn, key, rolls, reading, budget, seen_hits, gones))
                        for key in doubtful[:MAX_TRIED])
        if not explained and not any(
                _search(tracker, rest, reading, tracker.map.start, budget, seen_hits=seen_hits,
                        standing=_after(standing, rolls, rest), gones=_after(gones, rolls, rest)) is not None
                for _, tracker, rest in deeper):
            if watched and since is not None and _not_shown(turn_map, turn, last_legal, in_hand[0]):
                # a play the board never showed, the board showing another complete: one board
                # of the next player's hand at work decides nothing (a zone stuck on its old
                # reading makes such a board: trictrac 47000962 at 5x, White's 20/17*/13 shown
                # with the blot in Black's hand, the bar stuck empty as Black's dance and
                # White's 6-2 came, read as 20/16/13 and the game lost); the boards to come tell
                return _TRANSIENT, in_hand[0]
            return _SETTLED, in_hand[0]
        return _TRANSIENT, in_hand[0]
    transient: int | None = (in_hand + hits)[0] if in_hand or hits else None
    blocking = transient  # a hand at work on a play the board shows as left: the run kept
    # then the board further on: each of those plays, then the plays the mover has moved on
    # from since (with rolls held for a later turn of the mover), one run at a time
    far = reach.complete.finished_before(board, later, mover_later=True, lifted=turn.lifted_evidence()) if len(rolls) > 1 else []
    if seen_hits is not None and not watched:
        far = [key for key in far if _hits_seen(turn, key, seen_hits)]
    far = evidence.shown_first([key for key in far if not evidence.unshown_hit(key)
                                and evidence.keeps_hits(key)
                                and not (gone is not None and watched and hit_left_late(turn_map, key, gone))])
    if turn.run_seen in far[MAX_TRIED_FAR:]:
        # the run a search last found goes on however far down the order its play comes: a
        # turn begun from that run judges the same board again (trictrac 1840255207 with
        # hands handing hit blots over: White's 1-1 found thirteenth, past the cut, the turn
        # after Black's 2-2 lost on the board that had just decided it)
        far.remove(turn.run_seen)
        far.insert(0, turn.run_seen)
    if taken:
        far = [key for key in far if not passes_gone(turn_map, key, taken)]
    far = _standing_last(turn_map, far, standing)[:MAX_TRIED_FAR]
    tried = set(near)
    runs = {key: (tracker, rest) for key, tracker, rest in deeper}
    # (the evidence's order over both: a play the board shows as left but for a checker in a
    # hand, the mover moving again, comes after one moving the checkers last seen in a hand)
    order = _standing_last(turn_map, evidence.shown_first([*runs, *[key for key in far if key not in tried]]), standing)
    if turn.run_seen in order and order[0] != turn.run_seen:
        # the run a board with a hand at work last followed goes first, near or far: the
        # boards it explained fit it (a run of the same length settled elsewhere may not)
        order.remove(turn.run_seen)
        order.insert(0, turn.run_seen)
    # a hand still at work on the run of the play the board showed complete, or of the one
    # play moving a checker a hand was seen at work on, keeps it: a run settled deeper from
    # another decides nothing yet (rally-hitting 1031230937: pool/23/17 shown complete, taken
    # for 22/16 pool/23 while Black's hand was at its next 2-1, the game lost; 1000230007:
    # 17/13 10/4, the checker on 10 seen in a hand, taken for 17/13 24/18)
    held = evidence.held_from and order and evidence.moves_held(order[0]) and not all(
        evidence.moves_held(key) for key in order)
    shown = evidence.last_legal if turn_map.is_complete(evidence.last_legal) else None
    followed = {turn.run_seen, order[0] if held else None, shown}
    for key in order:
        if budget[0] <= 0:
            break
        if key in runs:
            tracker, rest = runs[key]
        else:
            judged = _judge(turn, key, rolls, reading, budget, seen_hits, gones)
            if judged is None:
                continue
            kind, tracker, rest = judged
            if kind == _SETTLED:
                return (_TRANSIENT, blocking) if blocking is not None else (_SETTLED, key)
            if kind in (_IN_HAND, _TRANSIENT):
                transient = key if transient is None else transient
                if key in followed and blocking is None:
                    blocking = key  # the run the boards followed, a hand still at work on it: kept
                continue
            if not rest:
                continue
        found = _search(tracker, rest, reading, tracker.map.start, budget, seen_hits=seen_hits,
                        standing=_after(standing, rolls, rest), gones=_after(gones, rolls, rest))
        if found is not None:
            if found[0] == _SETTLED:  # a run settled further on decides over hands at work on other runs
                return (_TRANSIENT, blocking) if blocking is not None else (_SETTLED, key)
            transient = key if transient is None else transient
            if key in followed and blocking is None:
                blocking = key
    return (_TRANSIENT, transient) if transient is not None else None


def _not_shown(turn_map: TurnMap, turn: Tracker, last_legal: int, key: int) -> bool:
    """Did the boards show a complete play of ``turn`` (``last_shown``), and is complete
    board ``key`` another, which the last board before the next player's roll did not show
    either (made, its hits under way)?  After that roll the owner's hand lifting a blot the
    play passed makes the board of a play hitting it, and that one is then the last shown
    (trictrac 48200814, blots handed over at 5x: White's 22/18/13* stood as Black threw, then
    Black lifted its blot on White's 17 for its own move, taken for 22/17*/13*, so that
    Black's bar/23* bar/19* after 22/18/13* was a run from a play never shown, warned falsely)."""
    shown = last_shown(turn, turn_map, last_legal)
    if not turn_map.is_complete(shown) or key == shown:
        return False
    before = turn.shown.before_roll
    if before is None:
        return True
    found = turn.reach.explain(before, prefer=key)  # that board as ``key`` with hits under way
    return found is None or found.key != key or bool(found.lifted)


def _standing_last(turn_map: TurnMap, keys: list[int], standing: tuple[int, ...]) -> list[int]:
    """``keys`` in their order but for the plays hitting a blot on a point ``standing[0]``
    (this turn's mask, ``finished_play``), which go last."""
    if not standing or not standing[0]:
        return keys
    return sorted(keys, key=lambda key: hits_standing(turn_map, key, standing[0]))


def _after(standing: tuple[int, ...], rolls: tuple[Roll, ...], rest: tuple[Roll, ...]) -> tuple[int, ...]:
    """``standing`` (or ``gones``) for the turn that plays on with the rolls before ``rest``."""
    return standing[len(rolls) - len(rest):]


def bar_showed(turn: Tracker, key: int) -> bool:
    """Has the bar (or pool) shown as many of the opponent's checkers as complete board
    ``key`` puts there (its hits seen on their way, not only blots lifted)?"""
    return turn.shown.bar_seen >= opponent_bar(key)


def hits_shown(turn: Tracker) -> int:
    """How many of the opponent's checkers the bar (or pool) has shown beyond those there
    when the turn began: blots its play hit, seen on their way."""
    start = turn.map.start if isinstance(turn.map, TurnMap) else None
    return 0 if start is None else max(0, turn.shown.bar_seen - opponent_bar(start))


def hit_undone(before: int, after: int) -> bool:
    """Does complete board ``after`` show ``before``'s play with a checker it hit back off
    the bar or pool (the mover's side the same, the opponent's bar holding fewer)?  The next
    player entering on the very point it was hit from, before its roll is read, does that."""
    return before & MOVER == after & MOVER and opponent_bar(before) > opponent_bar(after)


def _judge(
    turn: Tracker, key: int, rolls: tuple[Roll, ...], reading: BoardReading, budget: list[int],
    seen_hits: HitsShown | None = None, gones: tuple[int, ...] = (),
) -> tuple[str | None, Tracker, tuple[Roll, ...]] | None:
    """How the turn that follows the mover's complete board ``key`` sees the board:
    ``_SETTLED``, ``_IN_HAND`` (only its mover's checkers in a hand, none of ours hit on the
    way), ``_TRANSIENT`` or None (wrong there: also when it hits a blot the boards never
    showed leaving its point, ``seen_hits``, or its play complete leaves standing a blot
    seen taken before its owner's roll, ``gones`` from this turn on), with that turn and the
    rolls left; None when no turn follows or the budget is spent."""
    follower = _follower(turn, key, rolls, budget)
    if follower is None or budget[0] <= 0:
        return None
    budget[0] -= 1
    tracker, rest = follower
    complete_seen = tracker.complete_seen
    # (with its mover's next roll among the rolls left, its hand is at its next play: the
    # board short of a play it stood complete at is no hand at work on this one, as for the
    # turn the board watches; rally-hitting 398311950, blots handed over at 5x: Black's
    # pool/24 8/3* shown, White's dance and Black's 4-1 thrown, then its hitter moved back
    # 3 to 8, read as 8/3* still to come, four seconds unwarned; and with the next player's
    # roll among them, its hand lifts none of the checkers standing at that roll:
    # rally-hitting 399511986, ``Tracker.judge``)
    verdict = tracker.judge(reading, tracker.map.start, opponent_rolled=bool(rest), mover_rolled=len(rest) > 1)
    waiting = verdict.hits if verdict.kind is Kind.HIT_PENDING else ()
    if (seen_hits is not None and verdict.key is not None
            and not _hits_seen(tracker, verdict.key, seen_hits, reading, waiting)):
        return None, tracker, rest
    taken = _after(gones, rolls, rest)[:1]
    if (taken and taken[0] and verdict.key is not None and isinstance(tracker.map, TurnMap)
            and tracker.map.is_complete(verdict.key) and passes_gone(tracker.map, verdict.key, taken[0])):
        # (rally-hitting 381711452, blots handed over at 5x: White's bar/23*/19 with Black's
        # blot on 23 handed over before Black threw, then Black's own 21 lifted after it, read
        # as pool/21*/19, the game lost); the board is no complete board of this turn's, and
        # the plays hitting that blot are not put after it (``Evidence.unshown_hit``)
        tracker.complete_seen = complete_seen
        return None, tracker, rest
    if verdict.is_legal:
        return _SETTLED, tracker, rest
    if verdict.kind is Kind.IN_HAND and verdict.key is not None and _hits_made(tracker.map, verdict.key):
        # the next player's hand at work after hitting a checker of the play: the board has
        # never shown that checker where the play put it, so it decides nothing alone
        return _TRANSIENT, tracker, rest
    if verdict.kind is Kind.IN_HAND and tracker.mover is turn.mover:
        # the other's roll passed: a checker of the mover's in a hand may as well be its hand
        # still at this play as at its next (the stateful hands test, rally: 13/11 made and a
        # checker lifted from the pool, read as pool/24 13/11 with the 24 lifted for the next
        # 1-1, Black's 1-1 passing): the boards to come tell
        return _TRANSIENT, tracker, rest
    kinds = {Kind.WRONG: None, Kind.IN_HAND: _IN_HAND}
    return kinds.get(verdict.kind, _TRANSIENT), tracker, rest


def _hits_seen(turn: Tracker, key: int, seen_hits: HitsShown, reading: BoardReading | None = None,
               waiting: tuple[int, ...] = ()) -> bool:
    """Did the boards show every blot ``turn``'s play up to ``key`` hit leaving its point, or
    the bar or pool rising (``seen_hits``), or does ``reading`` show it under its hitter (a
    hit under way, the hitter put down first) or still on one of the points (``waiting``,
    the mover's) where the turn's verdict has a hit checker wait to be carried away?  A
    checker the turn before put on a point and this one hit there, neither seen, never stood
    there (backgammon, the stateful hands test: Black's only play bar/22 and White's 4-1
    hitting it read for White's 8/3 moved while Black had not moved); a blot standing where
    the hitter passed is a hit the board shows under way (rally-hitting 42300410 over the
    serial link at a person's pace: Black's checker carried from the pool past White's
    blot, White's 3-3 held over it, and the blot left for its owner to take: warned)."""
    turn_map = turn.map
    if not isinstance(turn_map, TurnMap) or not _hits_made(turn_map, key):
        return True
    opponent = turn.mover.opponent
    before, after = turn_map.sides_of(turn_map.start)[1], turn_map.sides_of(key)[1]
    seen = seen_hits.hits_seen(opponent, before, after)
    if seen or reading is None:
        return seen
    # (backgammon 322609678, the dice thrown early: White's bar/23 put down on Black's blot
    # before taking it off, read as no hit, and warned)
    theirs, mine, rules = reading.side(opponent), reading.side(turn.mover), turn_map.rules
    under = sum(1 << point for point in range(1, BAR) if theirs[point] and mine[rules.opponent_point(point)])
    for point in map(rules.opponent_point, waiting):
        if theirs[point]:
            under |= 1 << point
    return seen_hits.hits_seen(opponent, before, after, under)


def _hits_left(turn: Tracker, key: int, seen_hits: HitsShown) -> int:
    """How many blots ``turn``'s play up to ``key`` hits on points the boards saw left."""
    turn_map = turn.map
    if not isinstance(turn_map, TurnMap) or not _hits_made(turn_map, key):
        return 0
    before, after = turn_map.sides_of(turn_map.start)[1], turn_map.sides_of(key)[1]
    left = seen_hits.left[0 if turn.mover.opponent is Colour.WHITE else 1]
    return sum(1 for point in range(1, BAR) if after[point] < before[point] and left >> point & 1)


def _explains(judged: tuple[str | None, Tracker, tuple[Roll, ...]] | None) -> bool:
    """Does a turn judged by ``_judge`` explain the board (settled, a hand at work)?"""
    return judged is not None and judged[0] is not None


def _hits_made(turn_map: TurnMap | StillMap, key: int) -> bool:
    """Has the turn's play up to ``key`` hit any of the opponent's checkers?"""
    return isinstance(turn_map, TurnMap) and opponent_bar(key) > opponent_bar(turn_map.start)


def _follower(turn: Tracker, key: int, rolls: tuple[Roll, ...], budget: list[int]) -> tuple[Tracker, tuple[Roll, ...]] | None:
    """The turn that follows the mover's complete board ``key`` with the held ``rolls`` and
    the rolls left after it; None when the play wins the game, no turn follows, or the
    budget is spent.  Kept with ``turn`` by the rolls it used, so a roll held since finds
    the same tracker, with what it has seen and the run it last found (``Tracker.run_seen``)."""
    kept = _kept_follower(turn, key, rolls)
    if kept is not None:
        return kept
    memo = _kept(turn)
    if ("no follower", key, rolls) in memo:
        return None
    turn_map = turn.map
    assert isinstance(turn_map, TurnMap)
    after = turn_map.position_of(key).with_turn(turn_map.mover.opponent)
    follower: TurnMap | None = None
    rest: tuple[Roll, ...] = ()
    if after.winner() is None:  # the winning play ends the game as soon as the board shows it
        if budget[0] <= 0:
            return None
        follower, rest = _next_turn(turn_map, after, rolls)
        budget[0] -= BUILD + (len(follower.states()) // STATES_PER_UNIT if follower is not None else 0)
    if follower is None:
        _keep(memo, ("no follower", key, rolls), True)
        return None
    tracker = Tracker(follower)
    _keep(memo, ("follower", key, rolls[0]), (rolls[:len(rolls) - len(rest)], tracker))
    return tracker, rest


def _kept_follower(turn: Tracker, key: int, rolls: tuple[Roll, ...]) -> tuple[Tracker, tuple[Roll, ...]] | None:
    """The turn following complete board ``key`` that ``_follower`` built for the first of
    ``rolls`` (and the rolls left), if it is kept: kept by the first roll with the rolls it
    used (more than one when the turns between pass), so one look-up finds it."""
    kept = _kept(turn).get(("follower", key, rolls[0])) if rolls else None
    if kept is None:
        return None
    used, tracker = kept  # type: ignore[misc]
    return (tracker, rolls[len(used):]) if rolls[:len(used)] == used else None


def _next_turn(turn_map: TurnMap, after: Position, rolls: tuple[Roll, ...]) -> tuple[TurnMap | None, tuple[Roll, ...]]:
    """The turn that plays on from ``after`` with the held ``rolls``, and the rolls left: the
    next player's, or, when their roll passes (no legal move), the other's with the roll
    after it, and so on (a closed board, a checker on the bar against it: passes run, both
    sides in turn, and a quick pair of hands throws them all while the board is hidden)."""
    position = after
    for i, roll in enumerate(rolls):
        follower = turn_map_for(turn_map.rules, position, roll)
        if not follower.passes:
            return follower, rolls[i + 1:]
        position = position.with_turn(position.turn.opponent)
    return None, ()


def _kept(turn: Tracker) -> dict[object, object]:
    """What the searches found for this turn (the turns that follow, answers per board)."""
    return turn.kept


def _keep(memo: dict[object, object], asked: object, answer: object) -> None:
    if len(memo) >= MAX_KEPT:
        del memo[next(iter(memo))]
    memo[asked] = answer
