"""Outside engines that choose plays for the board's players: GNU Backgammon (``engines.gnubg``).

Optional: each needs its program installed and says clearly when it is not.  Nothing in
``controller`` imports this package (the CLI and the simulator do).
"""
