"""Maester: a play-by-email adjudicator for A Game of Thrones: The Board Game, Second Edition."""

__version__ = "0.1.0"

__all__ = ["__version__"]
