"""Card abilities, one small registered function per card: house cards, wildling cards, Tides of Battle.

The card data (numbers, icons, texts) is in :mod:`adjudicator.game.cards`; only a card's text is code here.
"""
