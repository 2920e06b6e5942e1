"""kumite — play, solve and balance fighting-themed tabletop card games."""

__version__ = "0.1.0"
