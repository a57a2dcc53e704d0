"""A Dance with Dragons' house-card abilities, one module per house (Stark plays the Bolton cards).

The cards' numbers and texts are in ``game/data/a_dance_with_dragons/cards.toml``; the effects
only these cards have are applied by :mod:`adjudicator.engine.rules.dance_with_dragons`.
"""
