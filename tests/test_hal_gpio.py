"""The Pi's GPIO devices on gpiozero's own mock pins, the event queue and the real clock."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

from hal.clock import MonotonicClock
from hal.gpio import (
    DEFAULT_PATTERNS,
    BeepPattern,
    ElectronicDice,
    GpioButtons,
    GpioBuzzer,
    GpioConfig,
    GpioTurnLeds,
    open_gpio,
    secure_die,
)
from hal.interfaces import (
    Button,
    ButtonEvent,
    Clock,
    DiceEvent,
    DiceKind,
    DiceSource,
    EventQueue,
    Sound,
    Sounder,
    TickEvent,
    TurnIndicator,
)
from hal.queue import ThreadSafeQueue
from hal.zones import BLACK, WHITE

BUTTON_PINS = {Button.ROLL: 5, Button.DONE: 6, Button.TAKEBACK: 13, Button.MENU: 19}
BUZZER, LED_WHITE, LED_BLACK, DICE = 18, 23, 24, 26
WAIT_LIMIT = 3.0  # seconds of real time a background beep may take to finish in a test


class FixedClock:
    """A clock that says what the test sets."""

    def __init__(self, time: float = 100.0) -> None:
        self.time = time

    def now(self) -> float:
        """The set time."""
        return self.time


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A fresh mock Pi for each test, so no pin reservation leaks between tests."""
    mock = MockFactory()
    yield mock
    mock.reset()


@pytest.fixture
def events() -> ThreadSafeQueue:
    """The queue devices post onto."""
    return ThreadSafeQueue()


@pytest.fixture
def clock() -> FixedClock:
    """A clock stopped at 100 s."""
    return FixedClock()


def pin(factory: MockFactory, number: int) -> MockPin:
    """The mock pin a device on BCM ``number`` uses."""
    mock_pin = factory.pin(number)
    assert isinstance(mock_pin, MockPin)
    return mock_pin


def press(factory: MockFactory, number: int) -> None:
    """Press and release the button on ``number`` (pulled up: pressed is low)."""
    pin(factory, number).drive_low()
    pin(factory, number).drive_high()


def wait_for_states(mock_pin: MockPin, count: int) -> None:
    """Wait (at most ``WAIT_LIMIT`` s) until the pin has gone through ``count`` states."""
    deadline = time.monotonic() + WAIT_LIMIT
    while len(mock_pin.states) < count and time.monotonic() < deadline:
        time.sleep(0.005)


# -- buttons ----------------------------------------------------------------------------------


def test_each_button_press_posts_one_event_stamped_by_the_clock(
    factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock
) -> None:
    buttons = GpioButtons(BUTTON_PINS, events, clock, pin_factory=factory)
    try:
        for stamp, (button, number) in enumerate(BUTTON_PINS.items()):
            clock.time = 200.0 + stamp
            press(factory, number)
            assert events.drain() == [ButtonEvent(200.0 + stamp, button)]
    finally:
        buttons.close()


def test_buttons_are_pulled_up_and_debounced_as_configured(
    factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock
) -> None:
    buttons = GpioButtons(BUTTON_PINS, events, clock, bounce_time=0.02, pin_factory=factory)
    try:
        for number in BUTTON_PINS.values():
            assert pin(factory, number).pull == "up"
            assert pin(factory, number).bounce == 0.02
        assert events.get(0) is None  # opening pulls the pins high: no press
    finally:
        buttons.close()


def test_release_and_holding_post_nothing(factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock) -> None:
    buttons = GpioButtons(BUTTON_PINS, events, clock, pin_factory=factory)
    try:
        pin(factory, 5).drive_low()
        pin(factory, 5).drive_low()  # no edge: still pressed
        pin(factory, 5).drive_high()
        assert events.drain() == [ButtonEvent(100.0, Button.ROLL)]
    finally:
        buttons.close()


def test_an_unwired_button_takes_no_pin(factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock) -> None:
    buttons = GpioButtons({Button.DONE: 6, Button.MENU: None}, events, clock, pin_factory=factory)
    try:
        assert buttons.wired == (Button.DONE,)
        press(factory, 6)
        assert events.drain() == [ButtonEvent(100.0, Button.DONE)]
    finally:
        buttons.close()


def test_closed_buttons_release_their_pins_and_post_nothing(
    factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock
) -> None:
    GpioButtons(BUTTON_PINS, events, clock, pin_factory=factory).close()
    press(factory, 5)
    assert events.get(0) is None
    again = GpioButtons(BUTTON_PINS, events, clock, pin_factory=factory)  # the pins are free again
    again.close()


def test_a_pin_clash_leaves_no_pin_reserved(factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock) -> None:
    led = GpioTurnLeds(13, LED_BLACK, pin_factory=factory)  # holds the TAKEBACK pin
    try:
        with pytest.raises(GPIOPinInUse):
            GpioButtons(BUTTON_PINS, events, clock, pin_factory=factory)
    finally:
        led.close()
    GpioButtons({Button.ROLL: 5, Button.DONE: 6}, events, clock, pin_factory=factory).close()


# -- electronic dice --------------------------------------------------------------------------


def test_the_dice_button_posts_two_drawn_dice(factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock) -> None:
    draws = iter([3, 5, 6, 6])
    dice = ElectronicDice(DICE, events, clock, draw=lambda: next(draws), pin_factory=factory)
    try:
        assert isinstance(dice, DiceSource) and dice.kind is DiceKind.ELECTRONIC
        press(factory, DICE)
        clock.time = 101.5
        press(factory, DICE)
        assert events.drain() == [
            DiceEvent(100.0, (3, 5), DiceKind.ELECTRONIC, late=0.0),
            DiceEvent(101.5, (6, 6), DiceKind.ELECTRONIC, late=0.0),
        ]
    finally:
        dice.close()


def test_the_default_draw_gives_dice_from_one_to_six(
    factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock
) -> None:
    dice = ElectronicDice(DICE, events, clock, pin_factory=factory)
    try:
        for _ in range(50):
            press(factory, DICE)
        posted = events.drain()
        assert len(posted) == 50
        for event in posted:
            assert isinstance(event, DiceEvent) and event.dice is not None
            assert all(1 <= die <= 6 for die in event.dice)
    finally:
        dice.close()
    assert {secure_die() for _ in range(600)} == {1, 2, 3, 4, 5, 6}


def test_a_draw_outside_one_to_six_is_refused(factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock) -> None:
    dice = ElectronicDice(DICE, events, clock, draw=lambda: 7, pin_factory=factory)
    try:
        with pytest.raises(ValueError, match="1 to 6"):
            dice.roll()
        assert events.get(0) is None
    finally:
        dice.close()


# -- turn LEDs --------------------------------------------------------------------------------


def test_turn_leds_light_the_player_to_move(factory: MockFactory) -> None:
    leds = GpioTurnLeds(LED_WHITE, LED_BLACK, pin_factory=factory)
    white, black = pin(factory, LED_WHITE), pin(factory, LED_BLACK)
    try:
        assert isinstance(leds, TurnIndicator)
        assert (white.state, black.state) == (False, False)
        leds.show_turn(WHITE)
        assert (white.state, black.state) == (True, False)
        leds.show_turn(BLACK)
        assert (white.state, black.state) == (False, True)
        leds.show_turn(None)
        assert (white.state, black.state) == (False, False)
        white.assert_states([False, True, False])
        black.assert_states([False, True, False])
        assert len(white.states) == 3 and len(black.states) == 3
    finally:
        leds.close()
    assert white.function == "input" and black.function == "input"  # released


# -- buzzer -----------------------------------------------------------------------------------


@pytest.mark.parametrize("sound", list(Sound))
def test_each_sound_beeps_its_pattern(factory: MockFactory, sound: Sound) -> None:
    fast = {s: p.scaled(0.1) for s, p in DEFAULT_PATTERNS.items()}
    buzzer = GpioBuzzer(BUZZER, patterns=fast, pin_factory=factory)
    mock_pin = pin(factory, BUZZER)
    try:
        assert isinstance(buzzer, Sounder)
        mock_pin.clear_states()
        buzzer.play(sound)
        beeps = DEFAULT_PATTERNS[sound].n
        wait_for_states(mock_pin, 1 + 2 * beeps)
        mock_pin.assert_states([False] + [True, False] * beeps)
        assert len(mock_pin.states) == 1 + 2 * beeps
        on_times = [state.timestamp for state in mock_pin.states[2::2]]  # time each beep lasted
        assert all(t >= fast[sound].on_time * 0.5 for t in on_times)
    finally:
        buzzer.close()


def test_the_sounds_differ_as_specified() -> None:
    warning, turn, over = (DEFAULT_PATTERNS[s] for s in (Sound.WARNING, Sound.TURN, Sound.GAME_OVER))
    assert (warning.n, turn.n, over.n) == (3, 1, 1)
    assert over.on_time > 3 * max(warning.on_time, turn.on_time)  # long against short
    assert turn.on_time <= warning.on_time


def test_play_returns_at_once_and_a_new_sound_cuts_the_old(factory: MockFactory) -> None:
    buzzer = GpioBuzzer(BUZZER, pin_factory=factory)
    mock_pin = pin(factory, BUZZER)
    try:
        started = time.monotonic()
        buzzer.play(Sound.GAME_OVER)  # a one-second beep
        assert time.monotonic() - started < 0.2
        wait_for_states(mock_pin, 2)
        assert mock_pin.state is True
        buzzer.play(Sound.TURN)
        wait_for_states(mock_pin, 5)
        assert mock_pin.state is False
        assert time.monotonic() - started < DEFAULT_PATTERNS[Sound.GAME_OVER].on_time
    finally:
        buzzer.close()
    assert mock_pin.function == "input"


def test_a_buzzer_needs_a_pattern_for_every_sound(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="game-over"):
        GpioBuzzer(BUZZER, patterns={Sound.WARNING: BeepPattern(0.1)}, pin_factory=factory)
    GpioBuzzer(BUZZER, pin_factory=factory).close()  # the refused one took no pin


# -- config -----------------------------------------------------------------------------------

FULL = {
    "buttons": {"roll": 5, "done": 6, "takeback": 13, "menu": 19},
    "buzzer": 18,
    "leds": {"white": 23, "black": 24},
    "dice_button": 26,
    "bounce_time": 0.03,
}


def test_a_full_config_reads_every_pin() -> None:
    config = GpioConfig.from_mapping(FULL)
    assert config.button_pins == BUTTON_PINS
    assert (config.buzzer, config.led_white, config.led_black, config.dice_button) == (18, 23, 24, 26)
    assert config.bounce_time == 0.03
    assert config.pins()["leds.white"] == 23


def test_an_empty_config_wires_nothing() -> None:
    config = GpioConfig.from_mapping({})
    assert config.pins() == {} and config.bounce_time == 0.05
    assert GpioConfig.from_mapping({"buttons": {"roll": 0, "menu": None}}).button_pins[Button.MENU] is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"buzzer": 40}, "gpio.buzzer: pin 40 is not a BCM GPIO number (0-27)"),
        ({"buzzer": -1}, "gpio.buzzer: pin -1 is not a BCM GPIO number (0-27)"),
        ({"buttons": {"menu": "17"}}, "gpio.buttons.menu: pin '17' is not an integer BCM GPIO number"),
        ({"dice_button": True}, "gpio.dice_button: pin True is not an integer"),
        ({"buttons": {"roll": 17}, "buzzer": 17}, "gpio: pin 17 is used by both buttons.roll and buzzer"),
        ({"leds": {"white": 4, "black": 4}}, "gpio: pin 4 is used by both leds.white and leds.black"),
        ({"leds": {"white": 4}}, "gpio.leds: wire both white and black"),
        ({"buttons": {"rol": 5}}, "gpio.buttons: unknown key(s) rol"),
        ({"buzer": 18}, "gpio: unknown key(s) buzer"),
        ({"leds": [23, 24]}, "gpio.leds: expected a mapping, not list"),
        ({"bounce_time": -0.1}, "gpio.bounce_time: -0.1 is not a number of seconds"),
    ],
)
def test_a_bad_config_names_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as error:
        GpioConfig.from_mapping(data)
    assert str(error.value).startswith(message)


def test_the_dataclass_checks_itself_too() -> None:
    with pytest.raises(ValueError, match="gpio.leds.black: pin 28"):
        GpioConfig(led_white=27, led_black=28)


def test_open_gpio_wires_what_the_config_names(
    factory: MockFactory, events: ThreadSafeQueue, clock: FixedClock
) -> None:
    devices = open_gpio(GpioConfig.from_mapping(FULL), events, clock, draw=lambda: 4, pin_factory=factory)
    try:
        assert devices.sounder is not None and devices.turn_indicator is not None and devices.dice is not None
        press(factory, 19)
        press(factory, DICE)
        assert events.drain() == [ButtonEvent(100.0, Button.MENU), DiceEvent(100.0, (4, 4), DiceKind.ELECTRONIC, late=0.0)]
        assert pin(factory, 19).bounce == 0.03
    finally:
        devices.close()
    bare = open_gpio(GpioConfig(roll=5), events, clock, pin_factory=factory)
    assert (bare.sounder, bare.turn_indicator, bare.dice) == (None, None, None)
    bare.close()


# -- queue and clock --------------------------------------------------------------------------


def test_the_queue_times_out_with_none() -> None:
    queue = ThreadSafeQueue()
    assert isinstance(queue, EventQueue)
    started = time.monotonic()
    assert queue.get(timeout=0.05) is None
    assert 0.04 <= time.monotonic() - started < 1.0
    assert queue.get(0) is None and queue.get(-1) is None


def test_the_queue_keeps_order_across_threads() -> None:
    queue = ThreadSafeQueue()
    queue.put(TickEvent(1.0))

    def post() -> None:
        for t in range(2, 100):
            queue.put(TickEvent(float(t)))

    poster = threading.Thread(target=post)
    poster.start()
    taken = [queue.get(timeout=1.0) for _ in range(99)]
    poster.join()
    assert taken == [TickEvent(float(t)) for t in range(1, 100)]
    assert queue.drain() == []


def test_the_monotonic_clock_moves_forward() -> None:
    clock = MonotonicClock()
    assert isinstance(clock, Clock)
    first = clock.now()
    assert clock.now() >= first
    assert abs(first - time.monotonic()) < 1.0
