"""Software stand-ins for the board, the dice, the lights and the players."""
