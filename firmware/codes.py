"""The code numbers the Pico and the Pi share: zones, light colours and light modes.

One small table so the firmware, the wire protocol and the Pi side agree.  The names are
those of ``hal.zones.ZONES``, ``hal.interfaces.LightColour`` and ``LightMode`` (a test checks
it); a code is a name's index.
"""

ZONE_NAMES = (
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
    "wait-white", "wait-black", "off-white", "off-black",
)
"""The 28 zones in scan and LED-chain order."""
ZONE_COUNT = 28

COLOURS = ("off", "source", "target", "hit", "warning", "setup", "winner", "turn", "engine")
"""Light colour names; a colour's code is its index."""
OFF, SOURCE, TARGET, HIT, WARNING, SETUP, WINNER, TURN, ENGINE = 0, 1, 2, 3, 4, 5, 6, 7, 8

MODES = ("steady", "blink")
"""Light mode names; a mode's code is its index."""
STEADY, BLINK = 0, 1


def code_of(names, name):
    """The code of ``name`` in the table ``names`` (COLOURS, MODES or ZONE_NAMES); ValueError if absent."""
    for code, known in enumerate(names):
        if known == name:
            return code
    raise ValueError("unknown name %r (known: %s)" % (name, ", ".join(names)))
