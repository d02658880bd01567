"""MicroPython for the board's microcontroller; shares only the wire protocol with the Pi."""
