"""The doubling cube at a simulated table: the players' doubles, takes and passes carried
out with the board's buttons, the truth's match (scores and the Crawford game) and the
ledger that checks the controller recorded every cube action as it was made.

Before a player throws, a player who handles the cube (``players.offers_double``) may
double: they end the opponent's turn with **Done** if the board still waits for it, press
**Menu**, and the opponent answers with **Done** (take) or **Takeback** (pass).  The truth
(``Game.cube``) follows each press, so a pass ends the truth's game as it ends the board's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Collection, Mapping

from controller.machine import Phase
from controller.rules.base import RuleSet
from controller.rules.game import CubeAction, Game, Match
from controller.rules.values import Colour, IllegalPlayError
from hal.interfaces import Button

from .players import Steps, Strategy, offers_double, takes_double

PRESS_GAP = 0.4
"""Virtual seconds between two presses of a person's hand (the board shows each answer)."""
WAIT_FOR_TURN = 4.0
"""Virtual seconds at most a player waits for the board to end the opponent's turn after Done."""


@dataclass
class CubeTable:
    """The truth's match and the cube's part of a table's play (see the module docstring)."""

    rules: RuleSet
    length: int
    players: Mapping[Colour, Strategy]
    press: Callable[[Button], None]
    phase: Callable[[], Phase]
    """What the board shows: its controller's phase (a person reads it off the display)."""
    board: Callable[[], Game]
    """The game as the board announces it (the computer's cube actions are read off it)."""
    computer: Collection[Colour] = ()
    """The sides the computer plays: it doubles and answers on the board by itself."""
    match: Match = field(init=False)
    made: int = 0
    """Cube actions made at the table."""
    recorded: int = 0
    """Of those, recorded identically by the controller (``compare``)."""

    def __post_init__(self) -> None:
        self.match = Match(self.rules, self.length)

    def new_game(self) -> Game:
        """The truth's next game (without doubling in the Crawford game); a game outside the
        match when the truth's match cannot go on (a stuck game: the ledger reports it)."""
        try:
            return self.match.new_game()
        except IllegalPlayError:
            return Game(self.rules)

    def game_over(self, game: Game) -> None:
        """Score the truth's game when it has ended."""
        if game.is_over and len(self.match.results) < len(self.match.games):
            self.match.finish_game()

    def before_roll(self, game: Game, colour: Colour) -> Steps:
        """``colour`` is about to throw: double if the player wants to, and have the opponent answer."""
        if not game.cube_allowed or not game.may_double(colour) or not offers_double(self.players[colour], game, self.match):
            return
        if self.phase() is Phase.MOVING:  # the opponent's play stands complete: end it first
            self.press(Button.DONE)
            waited = 0.0
            while self.phase() is Phase.MOVING and waited < WAIT_FOR_TURN:
                yield PRESS_GAP
                waited += PRESS_GAP
        if self.phase() is not Phase.AWAIT_ROLL:
            return  # the board is not between turns (it never should be): roll without doubling
        self.press(Button.MENU)
        game.cube(colour, "double")
        self.made += 1
        yield PRESS_GAP
        if colour.opponent in self.computer:  # the computer answered at once, on the board
            yield from self.follow_computer(game)
            return
        take = takes_double(self.players[colour.opponent], game, self.match)
        self.press(Button.DONE if take else Button.TAKEBACK)
        game.cube(colour.opponent, "take" if take else "drop")
        self.made += 1
        yield PRESS_GAP
        self.game_over(game)

    def follow_computer(self, game: Game) -> Steps:
        """Before a throw: the computer's cube actions the board has announced since, into the
        truth; a double of the computer's still standing is answered by the person."""
        board = self.board()
        made = [a for a in game.history if isinstance(a, CubeAction)]
        shown = [a for a in board.history if isinstance(a, CubeAction)]
        if shown[: len(made)] == made:  # the same game, as far as the truth knows it
            for action in shown[len(made):]:
                game.cube(action.colour, action.action)
                self.made += 1
        offer = game.offered_by
        if offer is not None and offer in self.computer and self.phase() is Phase.CUBE_OFFERED:
            yield PRESS_GAP  # the person reads the computer's double
            take = takes_double(self.players[offer.opponent], game, self.match)
            self.press(Button.DONE if take else Button.TAKEBACK)
            game.cube(offer.opponent, "take" if take else "drop")
            self.made += 1
            yield PRESS_GAP
        self.game_over(game)

    def compare(self, recorded: Match, mismatches: list[str]) -> None:
        """The controller's cube actions and results against the truth's, game by game."""
        for number, truth in enumerate(self.match.games):
            made = [(a.colour, a.action) for a in truth.history if isinstance(a, CubeAction)]
            game = recorded.games[number] if number < len(recorded.games) else None
            kept = [(a.colour, a.action) for a in game.history if isinstance(a, CubeAction)] if game else []
            same = sum(1 for m, k in zip(made, kept) if m == k)
            self.recorded += same
            if made != kept:
                mismatches.append(f"game {number + 1}: cube actions made {made}, recorded {kept}")
            if game is not None and truth.cube_allowed != game.cube_allowed:
                mismatches.append(f"game {number + 1}: the Crawford rule differs (doubling allowed: "
                                  f"made {truth.cube_allowed}, recorded {game.cube_allowed})")
        if self.match.results != recorded.results[: len(self.match.results)]:
            mismatches.append(f"results made {self.match.results}, recorded {recorded.results}")


__all__ = ["CubeTable", "PRESS_GAP"]
