"""Hardware abstraction: the interfaces the controller talks to, and the drivers behind them."""
