"""Python's cyclic garbage collector, kept out of the board's answer time.

A full collection walks every object the process tracks.  After start-up that is mostly
what never dies: modules, classes, functions, the rules' tables, the resumed match.  On a
Raspberry Pi a walk over them takes tens of milliseconds, and it falls inside whichever
event happens to allocate at that moment.  ``settle_after_startup`` collects once and then
freezes everything alive, so later collections walk only what play has made since.
``collect_when_idle`` clears what a finished match left in reference cycles at a moment
when no event waits, rather than inside a later one.
"""

from __future__ import annotations

import gc


def settle_after_startup() -> int:
    """Collect the start-up's garbage, then move every live object out of the collector's
    sight (``gc.freeze``): plain reference counting still frees them.  Called by each
    long-running command once it is set up, just before its first event; returns how many
    objects are frozen.  Called again in one process (tests run commands in-process), it
    first thaws what an earlier call froze, so what died since is collected, not kept."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def collect_when_idle() -> int:
    """Collect the cyclic garbage now, between matches, when nothing waits on the board (a
    simulated match leaves its whole table in reference cycles); returns how many objects
    were unreachable."""
    return gc.collect()


__all__ = ["collect_when_idle", "settle_after_startup"]
