"""LED rendering: a light frame, one ``(colour code, mode code)`` per zone, -> the RGB triples
for the WS2812 chain at a given time: blinking at 2 Hz, dimmed to a brightness and held under
a current limit so 28 LEDs never overload the 5 V supply.
"""

from .codes import BLINK, COLOURS, MODES, OFF, STEADY, ZONE_COUNT

PALETTE = (
    (0, 0, 0),  # off
    (0, 255, 0),  # source: green, a checker here may move
    (0, 64, 255),  # target: blue, the lifted checker may go here
    (255, 96, 0),  # hit: orange
    (255, 0, 0),  # warning: red
    (255, 200, 0),  # setup: yellow, a checker missing or extra
    (160, 0, 255),  # winner: violet
    (255, 255, 255),  # turn: white
    (0, 255, 200),  # engine: cyan, the computer's move (or a hint) to carry out
)
"""Full-scale RGB per colour code (codes.COLOURS order)."""
BLINK_PERIOD_MS = 500
"""2 Hz: on for the first half of every 500 ms, all blinking zones in step."""
BRIGHTNESS = 64
"""Of 255: bright enough through a diffuser, a quarter of the current."""
MAX_CURRENT_MA = 500
"""The chain's share of the 5 V budget (HARDWARE.md, "Power")."""
MA_PER_CHANNEL = 20
"""A WS2812B colour channel at full duty."""
IDLE_MA = 1
"""A WS2812B with all channels off."""

DARK = ((OFF, STEADY),) * ZONE_COUNT


def check_frame(frame, size=ZONE_COUNT):
    """The frame as a tuple of ``(colour, mode)`` code pairs; ValueError naming a bad entry."""
    if len(frame) != size:
        raise ValueError("a light frame has %d zones, not %d" % (size, len(frame)))
    checked = []
    for zone, entry in enumerate(frame):
        try:
            colour, mode = entry
        except (TypeError, ValueError):
            raise ValueError("zone %d: a light is (colour, mode), not %r" % (zone, entry))
        if not (_is_code(colour, COLOURS) and _is_code(mode, MODES)):
            raise ValueError("zone %d: no light colour %r / mode %r" % (zone, colour, mode))
        checked.append((colour, mode))
    return tuple(checked)


def _is_code(value, names):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names)


def blink_on(now_ms):
    """Whether blinking lights are lit at ``now_ms``."""
    return now_ms % BLINK_PERIOD_MS < BLINK_PERIOD_MS // 2


def current_ma(pixels):
    """The chain's current for these pixels, in mA."""
    total = 0
    for r, g, b in pixels:
        total += r + g + b
    return total * MA_PER_CHANNEL // 255 + IDLE_MA * len(pixels)


def render(frame, now_ms, brightness=BRIGHTNESS, max_current_ma=MAX_CURRENT_MA):
    """The RGB triple of every LED in the chain at ``now_ms``."""
    lit = blink_on(now_ms)
    pixels = []
    for colour, mode in frame:
        if mode == BLINK and not lit:
            colour = OFF
        r, g, b = PALETTE[colour]
        pixels.append(((r * brightness + 127) // 255, (g * brightness + 127) // 255, (b * brightness + 127) // 255))
    return limit_current(pixels, max_current_ma)


def limit_current(pixels, max_current_ma):
    """The pixels dimmed evenly so the chain draws at most ``max_current_ma``."""
    budget = (max_current_ma - IDLE_MA * len(pixels)) * 255 // MA_PER_CHANNEL
    total = 0
    for r, g, b in pixels:
        total += r + g + b
    if total <= budget:
        return pixels
    budget = max(budget, 0)
    return [(r * budget // total, g * budget // total, b * budget // total) for r, g, b in pixels]


def status_on(now_ms, healthy):
    """The Pico's status LED: a 1 Hz heartbeat while healthy, a fast 4 Hz flash when not
    (no calibration, or a supply fault)."""
    period = 1000 if healthy else 250
    return now_ms % period < (100 if healthy else 125)
