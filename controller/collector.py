"""Python's cyclic garbage collector, kept out of the board's answer time.

A full collection walks every object the process tracks.  After start-up that is mostly
what never dies: modules, classes, functions, the rules' tables, the resumed match.  On a
Raspberry Pi a walk over them takes tens of milliseconds, and it falls inside whichever
event happens to allocate at that moment.  ``settle_after_startup`` collects once and then
freezes everything alive, so later collections walk only what play has made since.
``collect_when_idle`` clears what a finished match left in reference cycles at a moment
when no event waits, rather than inside a later one.

The young generation is collected every ``YOUNG`` new objects, as Python does by default,
but by ``collect_young`` while no event waits (``controller.idle``); the automatic
threshold is raised to ``YOUNG_LIMIT``, so an event runs one only if it makes that many
objects itself.  (A young collection walks every container made since the last: a roll's
lists of thousands of boards made one take half a millisecond, in 1 roll of 70.)
"""

from __future__ import annotations

import gc

YOUNG = 700
"""New objects (less those freed) after which ``collect_young`` collects: Python's default threshold."""
YOUNG_LIMIT = 20_000
"""The automatic threshold while ``collect_young`` runs at idle moments: a safety net."""


def settle_after_startup() -> int:
    """Collect the start-up's garbage, then move every live object out of the collector's
    sight (``gc.freeze``): plain reference counting still frees them.  Called by each
    long-running command once it is set up, just before its first event; returns how many
    objects are frozen.  Called again in one process (tests run commands in-process), it
    first thaws what an earlier call froze, so what died since is collected, not kept.
    From here on the young generation waits for ``collect_young`` (see the module)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    young, older, oldest = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_LIMIT), older, oldest)
    return gc.get_freeze_count()


def collect_young() -> int:
    """Collect at an idle moment what Python's default thresholds would collect by now: the
    young generation once ``YOUNG`` objects are new, each older one when its own threshold
    says (as the automatic collections choose, without the oldest's 25% rule); returns the
    generation collected, or -1 for none."""
    young, older, oldest = gc.get_count()
    if young < YOUNG:
        return -1
    _, older_limit, oldest_limit = gc.get_threshold()
    generation = 2 if oldest > oldest_limit else 1 if older > older_limit else 0
    gc.collect(generation)
    return generation


def collect_when_idle() -> int:
    """Collect the cyclic garbage now, between matches, when nothing waits on the board (a
    simulated match leaves its whole table in reference cycles); returns how many objects
    were unreachable."""
    return gc.collect()


__all__ = ["YOUNG", "YOUNG_LIMIT", "collect_when_idle", "collect_young", "settle_after_startup"]
