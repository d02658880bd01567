"""What the controller's step mixins (``turn_steps``, ``resume_steps``) use of its state and
output, declared once for the type checker and defined by ``controller.machine.Controller``
(neither mixin imports the machine)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .alarm import Alarm
    from .outputs import Output, Settings
    from .phases import State
    from .resume import Window
    from .rules.game import Game, Match
    from .seen import Seen
    from .tracking import BoardReader, BoardReading, Verdict
    from .transitions import Trigger


class ControllerState:
    """The controller's state and steps shared by its mixins (declarations only)."""

    if TYPE_CHECKING:
        settings: Settings
        match: Match
        game: Game
        reader: BoardReader
        _state: State
        _window: Window | None
        _reading: BoardReading | None
        _verdict: Verdict | None
        _alarm: Alarm
        _seen: Seen
        _seq: int
        _last_throw: int | None

        def _go(self, trigger: Trigger, state: State) -> None: ...
        def _output(self, **kwargs: object) -> Output: ...
