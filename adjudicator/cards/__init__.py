"""Card data (``data/cards.toml``) and, in the modules beside this one, the card abilities."""

from .data import CARDS, CardData, HouseCard, TidesCard, WesterosCard, WildlingCard

__all__ = ["CARDS", "CardData", "HouseCard", "TidesCard", "WesterosCard", "WildlingCard"]
