"""The Pico GPIO numbers the board is wired to (HARDWARE.md, "Pin map"), checked once."""

ADC_GPIOS = (26, 27, 28)  # ADC0-ADC2; ADC3 (GPIO29) reads VSYS/3 on a Pico


class PinMap:
    """Which GPIO does what: mux select lines S0-S3, mux bank enables (active low), ADC inputs,
    the WS2812 data line, the status LED and the SMPS mode pin (high: quieter ADC); ValueError
    names a bad pin."""

    def __init__(self, select=(2, 3, 4, 5), enable=(6, 7, 8, 9), adc=(26, 27, 28),
                 neopixel=16, status_led=25, smps_mode=23):
        self.select = tuple(select)
        self.enable = tuple(enable)
        self.adc = tuple(adc)
        self.neopixel = neopixel
        self.status_led = status_led
        self.smps_mode = smps_mode
        self._check()

    def _check(self):
        if len(self.select) != 4:
            raise ValueError("a CD74HC4067 has 4 select lines, not %d" % len(self.select))
        if not self.enable:
            raise ValueError("at least one mux bank enable line is needed")
        if not self.adc:
            raise ValueError("at least one ADC input is needed")
        for gpio in self.adc:
            if gpio not in ADC_GPIOS:
                raise ValueError("GPIO %r is no ADC input (use %s)" % (gpio, ADC_GPIOS))
        used = list(self.select) + list(self.enable) + list(self.adc) + [self.neopixel, self.status_led]
        if self.smps_mode is not None:
            used.append(self.smps_mode)
        for gpio in used:
            if not isinstance(gpio, int) or not 0 <= gpio <= 29:
                raise ValueError("a Pico GPIO is 0 to 29, not %r" % (gpio,))
        for gpio in used:
            if used.count(gpio) > 1:
                raise ValueError("GPIO %d is used twice in the pin map" % gpio)


DEFAULT_PINS = PinMap()
