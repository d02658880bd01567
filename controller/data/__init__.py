"""Bundled data: the sample game record."""
