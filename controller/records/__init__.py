"""Game records: the plain-text match files the board writes and reads."""
