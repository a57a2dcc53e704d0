"""The game as data: the board, the cards, the state and its text forms, the setup, the typed commands.

The bottom layer of the package: it knows the box and the rules' vocabulary, not how a phase is
played (that is :mod:`adjudicator.engine`). ``variants.py`` chooses the board, cards and setup of a game.
"""
