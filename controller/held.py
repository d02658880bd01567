"""A roll thrown before the mover's play was seen complete: which play it follows.

The next player may throw while the mover still holds a checker, while a hand hides a
zone or the sensors drop out, and may start moving before the board has ever shown the
finished play; with quick hands and a long dropout the board may be several turns on
before it is seen again.  The rolls are held with the turn they came in
(``phases.HeldRoll``); a board the mover's turn explains is judged as usual (a complete
play resolves the first roll at once), and a board it cannot explain is searched for a
run of turns that does: each complete play of the mover the board may have come from,
followed by the next turn with the first held roll, and so on with the rolls after it.
Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules.reach import MOVER
from .rules.state import OPP, count
from .rules.turn import TurnMap
from .rules.turn import turn_map as turn_map_for
from .rules.values import BAR, CHECKERS, Play, Position, Roll
from .tracking import BoardReading, Kind, StillMap, Tracker

MAX_TRIED = 6
"""Complete plays tried per turn of a run, the fewest of the mover's checkers gone first."""
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
class SinceRoll:
    """What every board since the mover's roll showed of the opponent's checkers
    (``controller.seen``): a hit takes its blot off its point and onto the bar or pool."""

    standing: int
    """A packed board whose opponent's side holds one checker on each point every board
    since showed held one: a blot there was never taken off, so never hit (unless a hit
    and an entry on that very point both went unseen: tried only when nothing else is)."""
    bar: int
    """The most of the opponent's checkers its bar or pool showed (15 once it was hidden):
    no more than at the start, and a blot hit that is neither there nor in a hand now nor
    back on its point was carried by its owner to another point, not hit and entered."""
    unseen: int = 0
    """A packed board whose opponent's side holds one checker on each point left since
    and no later than a board that showed several zones changed at once
    (``Seen.left_unseen``): boards went unseen after that blot left, and it may have lain
    on the bar or pool and entered again unseen."""


@dataclass(frozen=True, slots=True)
class Undecided:
    """A run of turns explains the board with a hand at work or a hit under way: a
    transient, and a settled board to come decides which play it was."""


_SETTLED, _IN_HAND, _TRANSIENT = "settled", "in hand", "transient"


def finished_play(
    turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, last_legal: int, observed: bool = True,
    since: SinceRoll | None = None,
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
    blots that never left their points or never reached the bar or pool (``SinceRoll``)."""
    if reading.unreadable or not rolls:
        return None
    board = turn.key(reading)
    memo = _kept(turn)
    asked = ("finished", board, reading.foreign, reading.overfull, rolls, last_legal, observed, turn.lifted_seen,
             turn.side_seen, since)
    if asked in memo:
        return memo[asked]  # type: ignore[return-value]
    budget = [MAX_WORK]
    found = _search(turn, rolls, reading, last_legal, budget, top=observed, since=since)
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
    top: bool = False, since: SinceRoll | None = None,
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
        found = _search_from(turn, turn_map, rolls, reading, board, last_legal, budget, since, strict=True)
    if found is None:
        found = _search_from(turn, turn_map, rolls, reading, board, last_legal, budget, since)
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
    budget: list[int], since: SinceRoll | None = None, strict: bool = False,
) -> tuple[str, int] | None:
    later = sum(4 if roll.is_double else 2 for roll in rolls)
    reach = turn.reach
    # first the plays the board shows as they were left (but for blots hit since): the next
    # turn may show them settled; the complete board last seen first of all
    # a play the board showed with blots on the bar or pool hit them: a play that leaves
    # them on their points is no explanation (an illegal move making its board looks so)
    hit_shown = _opponent_bar(last_legal)

    start_bar = _opponent_bar(turn_map.start)
    # the most of the opponent's checkers the bar or pool showed since the roll (or shows
    # off their points now, or showed off them before their owner's roll): a play putting
    # more there hit a blot that never reached it
    bar_most = None if since is None else max(since.bar, reading.off_points(turn_map.mover.opponent), start_bar,
                                              turn.off_seen)
    before = turn.before_roll
    bar_before = 0 if before is None or (before not in turn_map and reach.explain(before) is None) else _opponent_bar(before)
    # the mover's play stood complete on the last board before the next roll: a blot still
    # on its point there was hit after the roll only if a board since showed that play, or
    # showed it on the bar or pool before its owner had moved (a hand taking it off late)
    done_before = before if before is not None and turn_map.is_complete(before) else None

    def late_hit(key: int) -> bool:
        """Does ``key`` hit a blot still on its point with the play complete before the next
        roll, no board since showing that play, nor the blot on the bar or pool before its
        owner moved on?  (A hand may take it late; its owner may as well have moved it.)"""
        return (done_before is not None and key != turn.complete_seen and key & MOVER == done_before & MOVER
                and reach.standing_hits(key, done_before) > 0 and turn.bar_unmoved < _opponent_bar(key))

    def moved_not_hit(key: int) -> bool:
        """More blots ``key`` hits than the bar or pool ever showed (or showed off their
        points before their owner's roll: a hitter's hand takes them then), and one of them
        gone from its point with no hitter standing there: that one moved, not hit (another
        hit the bar showed does not make it a hit)."""
        return (bar_most is not None and _opponent_bar(key) > bar_most
                and reach.hits_moved(key, board, since.unseen))  # type: ignore[union-attr]

    def keeps_shown(key: int) -> bool:
        """Does ``key`` hit every blot the bar or pool showed hit?"""
        hits = _opponent_bar(key)
        if hits < hit_shown:
            return False
        # (the bar showed a blot hit before the next roll that this play leaves standing?)
        return not bar_before or hits - reach.standing_hits(key, before) >= bar_before  # type: ignore[arg-type]

    def keeps_hits(key: int) -> bool:
        if not keeps_shown(key) or moved_not_hit(key):
            return False
        # first the plays hitting as many as the bar or pool has shown (only the mover hits
        # them there; a hit taken back is rarer), no blot that never left its point, and no
        # late hit no board showed
        return not strict or (_opponent_bar(key) >= turn.hit_bar and not late_hit(key)
                              and (since is None or not reach.hits_standing(key, since.standing)))

    finished = reach.finished_before(board, later, mover_later=False)
    near = [key for key in finished if keeps_hits(key)]
    if not turn_map.is_complete(last_legal) and turn.complete_seen is not None:
        last_legal = turn.complete_seen  # the board went back since (a hit undoing the play)
    part_made: frozenset[int] = frozenset()
    # the play stood part made on the board, or a hand was last seen at work on a part of it
    # (9/3 made, 17 in the hand): its ends come first (18/17 seen, then the board one turn on,
    # equally 20/19 then 19/17 or 18/17 then 20/18: it was 18/17)
    part = turn.lifted_seen[0] if turn.lifted_seen is not None else last_legal
    if part != turn_map.start and not turn_map.is_complete(part):
        part_made = reach.completions(part)
    side, bar_shown = turn.side_seen, turn.bar_seen
    held_from = turn.lifted_evidence()

    def moves_held(key: int) -> bool:
        """Does ``key``'s play move on the checkers last seen in a hand (before the mover
        rolled again)?"""
        if not held_from:
            return True
        mover = turn_map.sides_of(key)[0]
        return all(mover[point] <= most for point, most in held_from)

    def shown_first(keys: list[int]) -> list[int]:
        """``keys`` with the plays the board showed first: the mover's side seen whole (the
        opponent's side wrong), then the ends of the play seen part made, then the plays
        that hit as many as the bar or pool has shown (a blot taken off before its hitter),
        then the plays moving on the checkers last seen in a hand before the mover rolled
        again (``Tracker.lifted_evidence``), then the play first seen whole with a checker
        in a hand after the mover rolled again (``Tracker.complete_after``); among equals
        the play that began the run last found (``Tracker.run_seen``: a board a hand keeps
        changing follows that run, and a search cut short by its budget tries it first)."""
        return sorted(keys, key=lambda key: (side is not None and key & MOVER != side, key not in part_made,
                                             _opponent_bar(key) < bar_shown, not moves_held(key),
                                             key != turn.complete_after, key != turn.run_seen))

    near = shown_first(near)[:MAX_TRIED]
    unshown_hit = _no_hit_unshown
    if turn_map.is_complete(last_legal):
        # the complete board last seen; another play that went the same way and hit a blot
        # this one only passed only once the board has shown that blot on its bar or pool,
        # or shows it in a hand (a blot carried straight from its point to another is a
        # move, not a hit and an entry), however far on the board is
        seen = last_legal & MOVER
        bar = max(reading.off_points(turn_map.mover.opponent), turn.bar_seen)
        seen_hits = _opponent_bar(last_legal)

        def unshown_hit(key: int) -> bool:
            # (a play hitting no more than the one seen hit no blot that one passed: 6/5*/1
            # for 6/2*/1, each over a blot)
            if key & MOVER != seen or _opponent_bar(key) <= (bar if key == last_legal else max(bar, seen_hits)):
                return False
            # never on the bar at once: hit only if the board showed that many off their
            # points (on the bar, in a hand), and none of them stands on its point again
            # (those still on their points on the last board before the next roll were hit
            # after it, if at all: no board showed them off before the roll)
            # (a blot the last board before its owner's roll showed off its point, back on it
            # since, entered there)
            unseeable = 0 if before is None or key != turn.complete_seen else reach.standing_hits(key, before)
            return _opponent_bar(key) - unseeable > turn.off_seen or (
                reach.hits_standing(key, board) and not (before is not None and reach.hits_back(key, board, before)))

        alike = [key for key in near if key != last_legal and key & MOVER == seen and not unshown_hit(key)]
        off_before = 0 if before is None else _opponent_off(before)
        first = [last_legal]
        if unshown_hit(last_legal) and alike:
            # and the other way round: a hit the board never showed on the bar or pool, its
            # blot back on its point (only lifted: the next player's hand, not the hitter's)
            # is the play that passed it (8/4/1 over 8/5*/1, the blot lifted and put back)
            first = [alike[0], last_legal]
        elif _opponent_bar(last_legal) < off_before:
            # the last board before the next player's roll showed a blot off its point that
            # this play leaves standing: shown whole since, the blot was back (its owner
            # entering on that very point), and the play hitting it comes first
            hitting = [key for key in alike if _opponent_bar(key) >= off_before]
            first = hitting[:1] + first
        near = first + [key for key in near if key not in first and not unshown_hit(key)]
    settled: list[int] = []
    in_hand: list[int] = []
    hits: list[int] = []
    deeper: list[tuple[int, Tracker, tuple[Roll, ...]]] = []
    for key in near:
        judged = _judge(turn, key, rolls, reading, budget)
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
    if settled:
        return (_TRANSIENT if in_hand or hits else _SETTLED), settled[0]
    if len(in_hand) == 1 and not hits:
        # one play with the next player's checkers in a hand decides, unless a play hitting
        # a blot the bar or pool never showed (never taken: ``keeps_hits``) explains it as
        # well: the hand may hold that blot, taken from the bar or pool between two boards
        # (the boards to come tell)
        doubtful = [key for key in finished if not keeps_hits(key) and keeps_shown(key)
                    and (moved_not_hit(key) or late_hit(key))]
        if not any(_explains(_judge(turn, key, rolls, reading, budget)) for key in doubtful[:MAX_TRIED]):
            return _SETTLED, in_hand[0]
        return _TRANSIENT, in_hand[0]
    transient: int | None = (in_hand + hits)[0] if in_hand or hits else None
    blocking = transient  # a hand at work on a play the board shows as left: the run kept
    # then the board further on: each of those plays, then the plays the mover has moved on
    # from since (with rolls held for a later turn of the mover), one run at a time
    far = reach.finished_before(board, later, mover_later=True, lifted=turn.lifted_evidence()) if len(rolls) > 1 else []
    far = shown_first([key for key in far if not unshown_hit(key) and keeps_hits(key)])[:MAX_TRIED_FAR]
    tried = set(near)
    runs = {key: (tracker, rest) for key, tracker, rest in deeper}
    order = [*runs, *[key for key in far if key not in tried]]
    if turn.run_seen in order and order[0] != turn.run_seen:
        # the run a board with a hand at work last followed goes first, near or far: the
        # boards it explained fit it (a run of the same length settled elsewhere may not)
        order.remove(turn.run_seen)
        order.insert(0, turn.run_seen)
    for key in order:
        if budget[0] <= 0:
            break
        if key in tried:
            if key not in runs:
                continue
            tracker, rest = runs[key]
        else:
            judged = _judge(turn, key, rolls, reading, budget)
            if judged is None:
                continue
            kind, tracker, rest = judged
            if kind == _SETTLED:
                return (_TRANSIENT, blocking) if blocking is not None else (_SETTLED, key)
            if kind in (_IN_HAND, _TRANSIENT):
                transient = key if transient is None else transient
                if key == turn.run_seen and blocking is None:
                    blocking = key  # the run the boards followed, a hand still at work on it: kept
                continue
            if not rest:
                continue
        found = _search(tracker, rest, reading, tracker.map.start, budget)
        if found is not None:
            if found[0] == _SETTLED:  # a run settled further on decides over hands at work on other runs
                return (_TRANSIENT, blocking) if blocking is not None else (_SETTLED, key)
            transient = key if transient is None else transient
            if key == turn.run_seen and blocking is None:
                blocking = key
    return (_TRANSIENT, transient) if transient is not None else None


def bar_showed(turn: Tracker, key: int) -> bool:
    """Has the bar (or pool) shown as many of the opponent's checkers as complete board
    ``key`` puts there (its hits seen on their way, not only blots lifted)?"""
    return turn.bar_seen >= _opponent_bar(key)


def hits_shown(turn: Tracker) -> int:
    """How many of the opponent's checkers the bar (or pool) has shown beyond those there
    when the turn began: blots its play hit, seen on their way."""
    start = turn.map.start if isinstance(turn.map, TurnMap) else None
    return 0 if start is None else max(0, turn.bar_seen - _opponent_bar(start))


def _no_hit_unshown(key: int) -> bool:
    """No complete board was seen: no hit is ruled out for want of its blot on the bar."""
    return False


def hit_undone(before: int, after: int) -> bool:
    """Does complete board ``after`` show ``before``'s play with a checker it hit back off
    the bar or pool (the mover's side the same, the opponent's bar holding fewer)?  The next
    player entering on the very point it was hit from, before its roll is read, does that."""
    return before & MOVER == after & MOVER and _opponent_bar(before) > _opponent_bar(after)


def _opponent_off(key: int) -> int:
    """The opponent's checkers off their points in a packed board: on the bar (or in the
    pool), or in a hand (missing)."""
    on_board = sum(count(key, OPP + field) for field in range(BAR + 1))
    return count(key, OPP + BAR) + max(CHECKERS - on_board, 0)


def _opponent_bar(key: int) -> int:
    """The opponent's checkers on the bar (or in the pool) in a packed board."""
    return count(key, OPP + BAR)


def _judge(
    turn: Tracker, key: int, rolls: tuple[Roll, ...], reading: BoardReading, budget: list[int]
) -> tuple[str | None, Tracker, tuple[Roll, ...]] | None:
    """How the turn that follows the mover's complete board ``key`` sees the board:
    ``_SETTLED``, ``_IN_HAND`` (only its mover's checkers in a hand, none of ours hit on the
    way), ``_TRANSIENT`` or None (wrong there), with that turn and the rolls left;
    None when no turn follows or the budget is spent."""
    follower = _follower(turn, key, rolls, budget)
    if follower is None or budget[0] <= 0:
        return None
    budget[0] -= 1
    tracker, rest = follower
    verdict = tracker.judge(reading, tracker.map.start)
    if verdict.is_legal:
        return _SETTLED, tracker, rest
    if verdict.kind is Kind.IN_HAND and verdict.key is not None and _hits_made(tracker.map, verdict.key):
        # the next player's hand at work after hitting a checker of the play: the board has
        # never shown that checker where the play put it, so it decides nothing alone
        return _TRANSIENT, tracker, rest
    kinds = {Kind.WRONG: None, Kind.IN_HAND: _IN_HAND}
    return kinds.get(verdict.kind, _TRANSIENT), tracker, rest


def _explains(judged: tuple[str | None, Tracker, tuple[Roll, ...]] | None) -> bool:
    """Does a turn judged by ``_judge`` explain the board (settled, a hand at work)?"""
    return judged is not None and judged[0] is not None


def _hits_made(turn_map: TurnMap | StillMap, key: int) -> bool:
    """Has the turn's play up to ``key`` hit any of the opponent's checkers?"""
    return isinstance(turn_map, TurnMap) and _opponent_bar(key) > _opponent_bar(turn_map.start)


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
