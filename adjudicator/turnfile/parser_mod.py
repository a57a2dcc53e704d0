"""Mother of Dragons' lines of the turn-file language that need more than a name: Targaryen's bids
given away (``distribute fiefdoms: 2 to stark``, M100) and the choices of Westeros deck IV (M083).

Called by :mod:`.parser` with its line context ``c`` (names, counts, errors); kept apart so that the
parser stays one readable module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import commands as C
from .names import OPTION_WORDS, lookup, normalise

NO_ONE_WORDS = frozenset({"none", "nobody", "no one", "nothing"})


def mod_line(builder: Callable[[Any, list[Any]], Any], context: Callable[[], Any]) -> Callable[[Any, list[Any]], Any]:
    """A transformer method building a line with a fresh line context."""
    return lambda self, ch: builder(context(), ch)


def deck_iv_form(c: Any, rhs: tuple[Any, ...], allowed: frozenset[str]) -> tuple[str, dict[str, Any]] | None:
    """The form of a Westeros IV choice naming areas, houses or units (M083); None for any other."""
    if "cancel_moves" in allowed and (moves := _cancel_moves(rhs)) is not None:
        return "cancel_moves", {"names": moves}
    if rhs[0] == "moves":  # "FROM, TO else FROM, TO": a loyalty-token move with fall-backs (ruling 295)
        names = list(rhs[1])
        return "moves", {"pairs": [names[i:i + 2] for i in range(0, len(names), 2)]}  # refused where not allowed
    if rhs[0] == "names" and "names" in allowed:
        return "names", {"names": list(rhs[1])}
    if rhs[0] != "option" or normalise(rhs[1].text) in OPTION_WORDS:
        return None
    if "names" in allowed:
        return "names", {"names": [rhs[1]]}
    if "area" in allowed:
        return "area", {"area": c.name("area", rhs[1])}
    return None


def _cancel_moves(rhs: tuple[Any, ...]) -> list[Any] | None:
    """``cancel stark, greyjoy`` (ruling 295): the houses named after the word, or ``None``."""
    names = list(rhs[1]) if rhs[0] == "names" else [rhs[1]] if rhs[0] == "option" else []
    if not names or not hasattr(names[0], "text"):
        return None
    word, _, rest = names[0].text.partition(" ")
    if normalise(word) != "cancel" or not rest.strip():
        return None  # a bare "cancel" answers one move
    first = names[0]._replace(text=rest.strip(), col=names[0].col + len(word) + 1)
    return [first, *names[1:]]


def distribute(c: Any, ch: list[Any]) -> Any:
    """``distribute TRACK: N to HOUSE, ...``: each gift is ("gift", [amount, house name])."""
    track = c.name("track", ch[0])
    gifts = tuple(C.Gift(house=c.name("house", g[1][1]), amount=c.count(g[1][0], 1, 20, "power given")) for g in ch[1:])
    return c.done(C.DistributeBid(track=track, gifts=gifts))


def westeros_choice(c: Any, card: str, form: str, fields_: dict[str, Any], place: Any) -> Any:
    """A Westeros card's choice; deck IV's name areas, houses and units (joined by ``+``), or the
    dragon Fire Made Flesh destroys (M083)."""
    if form == "area":
        return c.done(C.WesterosChoice(card=card, option=str(fields_["area"])))
    if form == "names":
        ids = [deck_iv_name(c, n) for n in fields_["names"]]
        if c.errors:
            return c.done(C.PlayCard(card=""))
        return c.done(C.WesterosChoice(card=card, option="+".join(str(i) for i in ids)))
    if form == "moves":
        pairs = [(c.name("area", a), c.name("area", b)) for a, b in fields_["pairs"]]
        if c.errors:
            return c.done(C.PlayCard(card=""))
        return c.done(C.WesterosChoice(card=card, option=C.MOVE_ELSE.join(f"{a}+{b}" for a, b in pairs)))
    if form == "cancel_moves":  # "cancel none": Targaryen cancels no move
        named = [n for n in fields_["names"] if normalise(n.text) not in NO_ONE_WORDS]
        houses = [c.name("house", n) for n in named]
        if c.errors:
            return c.done(C.PlayCard(card=""))
        return c.done(C.WesterosChoice(card=card, option=C.CANCEL_MOVES + "+".join(str(h) for h in houses)))
    if form == "destroy":
        units = fields_["units"]
        if len(units) != 1 or units[0].count != 1 or units[0].unit != "dragon":
            c.error("E206", "Fire Made Flesh destroys one dragon: write 'destroy dragon in AREA'", place)
            return c.done(C.PlayCard(card=""))
        return c.done(C.WesterosChoice(card=card, option=f"destroy {units[0].area}"))
    return c.done(C.WesterosChoice(card=card, option=form))


def deck_iv_name(c: Any, name: Any) -> str | None:
    """A house, a unit or an area named in a Westeros IV choice: an exact house or unit first."""
    for kind in ("house", "unit"):
        match = lookup(kind, name.text)
        if match.id is not None and not match.fuzzy:
            return str(match.id)
    area: str | None = c.name("area", name)
    return area
