"""Forgiving names: areas, houses, cards, unit types, tracks and order tokens as players write them.

Every name is compared after :func:`normalise`: case, curly quotes, apostrophes, hyphens, commas
and a leading "the" or "a" do not matter. A name matches, in this order, a full name or a listed
alias, then a unique prefix of at least three letters; failing both, a unique name within a small
edit distance is accepted with a warning. Anything else is refused with the closest names.

>>> lookup("area", "KL").id
'kings_landing'
>>> lookup("area", "Winterfall").fuzzy
True
>>> lookup("area", "Kings").candidates
("King's Landing", 'Kingswood')
>>> lookup("unit", "footmen").id
'footman'

Each variant has its own vocabulary: a classic game knows no Braavos, a Mother of Dragons game
does. The parser reads a file in its game's vocabulary (``with vocabulary(state.variant): ...``).

>>> lookup("area", "Braavos").id, lookup("area", "Braavos", "mother-of-dragons").id
(None, 'braavos')
"""

from __future__ import annotations

import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache

from ..game.boxes import DEFAULT_BOX, box_named, box_names
from ..game.cards import CARDS, HOUSE_DECKS, VASSAL
from ..game.state import GameState
from ..util.suggest import close_matches

# Which spellings of a name count as the same: see normalise().
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "`": "'", "\u00b4": "'"})
_DROP = re.compile(r"['\"]")
_SPACE = re.compile(r"[\s\-_,.]+")
_ARTICLE = re.compile(r"^(?:the|a|an) (?=.)")

MIN_PREFIX = 3  # a shorter prefix ("k", "wi") is too easy to misread
MIN_FUZZY = 4  # below this, one wrong letter makes another word ("sh" is not "s")

# --- the vocabulary that is not on the board or on a card ------------------------------------

UNIT_NAMES: dict[str, tuple[str, str]] = {  # id -> (singular, plural)
    "footman": ("footman", "footmen"),
    "knight": ("knight", "knights"),
    "siege_engine": ("siege engine", "siege engines"),
    "ship": ("ship", "ships"),
    "dragon": ("dragon", "dragons"),
}
TRACK_NAMES: dict[str, str] = {
    "iron_throne": "iron throne",
    "fiefdoms": "fiefdoms",
    "kings_court": "king's court",
    "wildlings": "wildlings",
}
INFLUENCE_TRACKS: tuple[str, ...] = ("iron_throne", "fiefdoms", "kings_court")

# Order tokens as printed by the canonical printer (commands.ORDER_TOKENS ids -> text).
ORDER_TEXT: dict[str, str] = {
    "march-1": "march -1",
    "march+0": "march +0",
    "march+1": "march +1",
    "defense+1": "defense +1",
    "defense+2": "defense +2",
    "support+0": "support +0",
    "support+1": "support +1",
    "raid": "raid",
    "raid*": "raid*",
    "consolidate": "consolidate",
    "consolidate*": "consolidate*",
}
# A vassal's four order tokens (M043-M055) as printed, and how they may be written after "vassal".
VASSAL_ORDER_TEXT: dict[str, str] = {
    "vassal_march": "vassal march", "vassal_raid_support": "vassal raid/support",
    "vassal_defense_muster": "vassal defense/muster", "vassal_defense": "vassal defense 3",
}


def vassal_order_token(words: tuple[str, ...], number: int | None) -> tuple[str | None, str]:
    """The vassal token id for ``vassal WORDS NUMBER`` as written, or ``(None, reason)``.

    >>> vassal_order_token(("raid",), None), vassal_order_token(("defense",), 3)
    (('vassal_raid_support', ''), ('vassal_defense', ''))
    >>> vassal_order_token(("defense",), None)[1]
    "'vassal defense' could be vassal defense/muster or vassal defense 3"
    """
    kinds = {"defense" if w == "defence" else w for w in words}
    if kinds <= {"march"} and number in (None, 0):
        return "vassal_march", ""
    if kinds and kinds <= {"raid", "support"} and number in (None, 1):
        return "vassal_raid_support", ""
    if kinds <= {"defense", "muster"} and (number == 1 or "muster" in kinds) and number in (None, 1):
        return "vassal_defense_muster", ""
    if kinds == {"defense"} and number == 3:
        return "vassal_defense", ""
    if kinds == {"defense"} and number is None:
        return None, "'vassal defense' could be vassal defense/muster or vassal defense 3"
    return None, "the vassal orders are " + ", ".join(VASSAL_ORDER_TEXT.values())


# Mother of Dragons' sea orders (M114): written after an area's name like any order.
SEA_ORDER_TEXT: dict[str, str] = {"sea_march": "sea march", "sea_support": "sea support", "iron_bank": "iron bank"}
SEA_ORDER_WORDS: dict[str, str] = {
    "sea march": "sea_march", "sea march order": "sea_march", "sea support": "sea_support",
    "sea support order": "sea_support", "iron bank": "iron_bank", "iron bank order": "iron_bank",
}
# The words of the Iron Bank's loans: Pyromancer's improvement, Spymaster's deck and places (section 9.7).
LOAN_WORDS = {"crown": "crown", "power": "crown", "barrel": "barrel", "supply": "barrel"}
SPY_DECK_WORDS = frozenset({"deck", "westeros deck"})
SPY_PLACES = {"first": 1, "1st": 1, "top card": 1, "second": 2, "2nd": 2}
ORDER_KINDS: dict[str, str] = {
    "march": "march", "defense": "defense", "defence": "defense", "support": "support",
    "raid": "raid", "consolidate": "consolidate", "consolidate power": "consolidate", "cp": "consolidate",
}

_ALIASES: dict[str, dict[str, str]] = {
    "area": {
        "kl": "kings_landing",
        "redwyne straits": "redwyne_straights",
        "mountains of the moon": "the_mountains_of_the_moon",
        "motm": "the_mountains_of_the_moon",
        "ironmen's bay": "ironmans_bay",
        "flint's fingers": "flints_finger",
        "vale": "the_vale_of_arryn",  # Mother of Dragons' areas, where the printed name is long
        "eyrie port": "port_of_the_eyrie",
        "rhoyne": "the_rhoyne",
        "disputed lands": "the_disputed_lands",
        "orange shore": "the_orange_shore",
        "braavosi coastlands": "braavosian_coastlands",
        "bay of myrth": "sea_of_myrth",
    },
    "house": {f"house {h}": h for h in dict.fromkeys(h for b in box_names() for h in box_named(b).houses)}
    | {"greyjoys": "greyjoy", "starks": "stark", "targs": "targaryen"},
    "house_card": {"ned": "eddard_stark", "ned stark": "eddard_stark", "oberyn": "the_red_viper",
                   "olenna": "queen_of_thorns", "sandor": "the_hound", "sandor clegane": "the_hound",
                   "hotah": "areo_hotah", "tarly": "randyll_tarly", "florent": "alester_florent",
                   "umber": "greatjon_umber", "red viper": "the_red_viper",
                   "drogo": "khal_drogo", "dany": "daenerys_targaryen_a", "jorah": "ser_jorah_mormont",
                   "the mad king's son": "viserys_targaryen", "yohn royce": "bronze_yohn_royce_mod",
                   "royce": "bronze_yohn_royce_mod", "jaqen": "jaqen_hghar", "connington": "jon_connington"},
    "westeros_card": {"throne of blades": "a_throne_of_blades", "dark wings": "dark_wings_dark_words",
                      "feast of crows": "feast_for_crows", "wildling attack": "wildlings_attack",
                      "playing with fire": "playing_with_fire"},
    "wildling_card": {"horde descends": "the_horde_descends", "king beyond the wall": "a_king_beyond_the_wall",
                      "rattleshirt's raiders": "rattleshirts_raiders", "milkwater": "massing_on_the_milkwater"},
    "unit": {"f": "footman", "foot": "footman", "footmen": "footman", "footmans": "footman",
             "k": "knight", "knights": "knight", "s": "siege_engine", "siege": "siege_engine",
             "sieges": "siege_engine", "siege engines": "siege_engine", "siege tower": "siege_engine",
             "ships": "ship", "boat": "ship", "boats": "ship", "dragons": "dragon", "d": "dragon"},
    "track": {"throne": "iron_throne", "iron": "iron_throne", "fiefdom": "fiefdoms",
              "court": "kings_court", "wildling": "wildlings", "wildling track": "wildlings"},
}

_KIND_WORDS: dict[str, str] = {
    "area": "area", "house": "house", "house_card": "house card", "westeros_card": "Westeros card",
    "wildling_card": "wildling card", "card": "card", "unit": "unit type", "track": "track",
    "order": "order", "loan": "loan", "objective": "objective",
}
NAME_KINDS = ("area", "house", "house_card", "westeros_card", "wildling_card", "loan", "unit", "track", "objective")
CARD_KINDS = ("westeros_card", "wildling_card", "house_card", "loan")  # what may head a choice line

_VOCABULARY: ContextVar[str] = ContextVar("vocabulary", default=DEFAULT_BOX)


class vocabulary:  # lower case: it is used as a function, ``with vocabulary(variant):``
    """Read names in a variant's vocabulary for the duration (a game's turn files, its checks).

    >>> with vocabulary("mother-of-dragons"):
    ...     lookup("house", "Arryn").id
    'arryn'
    >>> lookup("house", "Arryn").id is None
    True

    A class rather than a generator: every turn file is parsed inside one, and a generator's
    context manager cost as much as reading the file's header.
    """

    __slots__ = ("_token", "_variant")

    def __init__(self, variant: str) -> None:
        box_named(box_of(variant))  # an unknown variant is refused here, not at the first lookup
        if deck_of(variant) not in HOUSE_DECKS:
            raise KeyError(f"unknown house deck {deck_of(variant)!r} in the vocabulary {variant!r}")
        self._variant = variant

    def __enter__(self) -> None:
        self._token = _VOCABULARY.set(self._variant)

    def __exit__(self, *exc: object) -> None:
        _VOCABULARY.reset(self._token)


def vocabulary_name(variant: str, deck: str = "base") -> str:
    """The vocabulary of a game: its variant's names, with the House cards of its house deck
    (``classic+adwd``: the base game dealt A Dance with Dragons' cards, whose names the base cards share).

    >>> vocabulary_name("classic"), vocabulary_name("classic", "adwd")
    ('classic', 'classic+adwd')
    """
    return variant if deck == "base" else f"{variant}+{deck}"


def vocabulary_of(state: GameState) -> str:
    """The vocabulary a game's turn files are read in (:func:`vocabulary_name`)."""
    return vocabulary_name(state.variant, state.house_deck())


def box_of(vocabulary_id: str) -> str:
    """The variant of a vocabulary (``classic+adwd`` -> ``classic``)."""
    return vocabulary_id.partition("+")[0]


def deck_of(vocabulary_id: str) -> str:
    """The house deck of a vocabulary (``classic+adwd`` -> ``adwd``; ``base`` when none is named)."""
    return vocabulary_id.partition("+")[2] or "base"


def current_vocabulary() -> str:
    """The variant whose names are read now (``classic`` unless inside :func:`vocabulary`)."""
    return _VOCABULARY.get()


@lru_cache(maxsize=4096)  # option words and sides come back in every file
def normalise(text: str) -> str:
    """The form two spellings of one name share.

    >>> normalise("  The Kings’  LANDING ")
    'kings landing'
    """
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    text = _SPACE.sub(" ", _DROP.sub("", text)).strip()
    return _ARTICLE.sub("", text)


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


@dataclass(frozen=True, slots=True)
class Match:
    """The result of looking a name up: an id, or the candidates and suggestions for a message."""

    text: str
    kind: str
    id: str | None = None
    fuzzy: bool = False  # accepted within edit distance: worth a warning
    candidates: tuple[str, ...] = ()  # several names fit (ambiguous)
    suggestions: tuple[str, ...] = ()  # nothing fits; these come close

    @property
    def display(self) -> str:
        """The canonical name of the match (empty when there is none)."""
        return display_name(self.kind, self.id) if self.id else ""

    @property
    def kind_word(self) -> str:
        return _KIND_WORDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class Namespace:
    """All spellings of one kind of name: normalised key -> id, and id -> display name."""

    kind: str
    keys: dict[str, str]  # every spelling, aliases included: for exact matches and edit distance
    display: dict[str, str]
    primary: dict[str, str]  # full names and ids only: for prefixes ("lannis" is not "Lannisport port")

    def lookup(self, text: str) -> Match:
        key = normalise(text)
        if key in self.keys:
            return Match(text, self.kind, self.keys[key])
        if len(key) >= MIN_PREFIX:
            ids = sorted({i for k, i in self.primary.items() if k.startswith(key)})
            if len(ids) == 1:
                return Match(text, self.kind, ids[0])
            if ids:
                return Match(text, self.kind, candidates=tuple(sorted(self.display[i] for i in ids)))
        limit = 2 if len(key) > 4 else 1
        near = set()
        if len(key) >= MIN_FUZZY:
            near = {i for k, i in self.keys.items() if len(k) >= MIN_FUZZY and edit_distance(key, k, limit) <= limit}
        if len(near) == 1:
            return Match(text, self.kind, near.pop(), fuzzy=True)
        close = close_matches(key, list(self.keys), n=6, cutoff=0.6)
        names = list(dict.fromkeys(self.display[self.keys[k]] for k in close))
        return Match(text, self.kind, suggestions=tuple(names[:3]))


def _build(kind: str, names: dict[str, str], extra: dict[str, str] | None = None) -> Namespace:
    keys: dict[str, str] = {}
    for ident, name in names.items():
        keys[normalise(name)] = ident
        if ":" not in ident:  # merged namespaces carry "kind:id" ids, which nobody writes
            keys.setdefault(normalise(ident), ident)
    primary = dict(keys)
    for alias, ident in (extra or {}).items():
        keys.setdefault(normalise(alias), ident)
    return Namespace(kind, keys, dict(names), primary)


def _card_first_names(cards: dict[str, str]) -> dict[str, str]:
    """``jaime`` -> ser_jaime_lannister: a card's first name, when no other card shares it."""
    firsts: dict[str, list[str]] = {}
    for ident, name in cards.items():
        words = normalise(name).split()
        if words and words[0] == "ser":
            words = words[1:]
        firsts.setdefault(words[0], []).append(ident)
    return {w: ids[0] for w, ids in firsts.items() if len(ids) == 1}


@cache
def namespace(kind: str, variant: str = DEFAULT_BOX) -> Namespace:
    """The namespace of one kind in a variant's vocabulary: area, house, house_card, westeros_card,
    wildling_card, loan, unit, track, or card (every card that may head a choice line).

    A variant knows its own areas (the largest map it has), houses and cards; unit types and tracks
    are the same in every variant.
    """
    box, deck = box_named(box_of(variant)), deck_of(variant)
    variant = box.name  # the box decides everything below but the House cards' names
    if kind == "area":
        board = box.board(box.houses)
        names = {a.id: a.name for a in board.areas.values()}
        ports = {f"{board.area(p.port_of).name} port": p.id for p in board.ports() if p.port_of}
        return _build(kind, names, {k: v for k, v in _ALIASES["area"].items() if v in names} | ports)
    if kind == "house":
        aliases = {k: v for k, v in _ALIASES["house"].items() if v in box.houses}
        return _build(kind, {h: h for h in box.houses}, aliases)
    if kind == "house_card":
        sets = box.card_sets if deck == "base" else (box.card_sets - HOUSE_DECKS["base"]) | HOUSE_DECKS[deck]
        names = {c.id: c.name for c in CARDS.house_cards.values()
                 if c.set in sets and (c.house in box.houses or c.house == VASSAL)}
        aliases = {k: v for k, v in _ALIASES["house_card"].items() if v in names}
        return _build(kind, names, _card_first_names(names) | aliases)
    if kind == "westeros_card":
        names = {c.id: c.name for c in CARDS.westeros if c.deck in box.westeros_decks and c.set == box.westeros_set(c.deck)}
        return _build(kind, names, {k: v for k, v in _ALIASES["westeros_card"].items() if v in names})
    if kind == "wildling_card":
        return _build(kind, {c.id: c.name for c in CARDS.wildling_cards.values()}, _ALIASES["wildling_card"])
    if kind == "loan":
        return _build(kind, {c.id: c.name for c in CARDS.loans.values()} if box.has("iron_bank") else {})
    if kind == "objective":  # A Feast for Crows' objective cards (their data read only for a box that has them)
        if not box.has("objectives"):
            return _build(kind, {})
        from ..game.objective_cards import OBJECTIVES

        return _build(kind, {o.id: o.name for o in OBJECTIVES.values()})
    if kind == "unit":  # the dragon is Mother of Dragons' (Targaryen's) unit
        units = {u: s for u, (s, _) in UNIT_NAMES.items() if u != "dragon" or box.has("dragons")}
        return _build(kind, units, {k: v for k, v in _ALIASES["unit"].items() if v in units})
    if kind == "track":
        return _build(kind, TRACK_NAMES, _ALIASES["track"])
    if kind == "card":  # every card that can head a choice line; ids carry their kind
        merged: dict[str, str] = {}
        spellings: dict[str, str] = {}
        kinds = CARD_KINDS if box.has("iron_bank") else CARD_KINDS[:3]  # a loan heads a choice line too
        whole = vocabulary_name(variant, deck)
        for sub in kinds:
            ns = namespace(sub, whole)
            merged |= {f"{sub}:{i}": n for i, n in ns.display.items()}
            spellings |= {k: f"{sub}:{i}" for k, i in ns.keys.items()}
        merged_ns = _build(kind, merged, spellings)
        for sub in kinds:  # "tyrion": a prefix of a card's id form
            merged_ns.primary.update({k: f"{sub}:{i}" for k, i in namespace(sub, whole).primary.items()})
        return merged_ns
    raise KeyError(kind)


def lookup(kind: str, text: str, variant: str | None = None) -> Match:
    """Look a name up in one namespace of a variant's vocabulary (by default the one being read,
    :func:`vocabulary`); never raises for any text.

    >>> lookup("house_card", "jaime").id
    'ser_jaime_lannister'
    >>> lookup("area", "Winterfeld").id, lookup("area", "Winterfeld").fuzzy
    ('winterfell', True)
    >>> lookup("area", "Riverlands").suggestions
    ('Riverrun',)
    """
    return _lookup(kind, text, variant or _VOCABULARY.get())


@lru_cache(maxsize=4096)
def _lookup(kind: str, text: str, variant: str) -> Match:
    return namespace(kind, variant).lookup(text)


def display_name(kind: str, ident: str) -> str:
    """The canonical printed name of an id: ``kings_landing`` -> ``King's Landing``.

    Houses, unit types and tracks print in lower case, like keywords; areas and cards by their
    printed names. Any variant's id prints by its name, whatever the vocabulary being read.
    """
    return _display_name(kind, ident, _VOCABULARY.get())


@lru_cache(maxsize=4096)
def _display_name(kind: str, ident: str, vocabulary: str) -> str:
    if kind == "unit":
        return UNIT_NAMES.get(ident, (ident.replace("_", " "),))[0]
    if kind == "track":
        return TRACK_NAMES.get(ident, ident.replace("_", " "))
    for variant in dict.fromkeys((vocabulary, *box_names())):
        shown = namespace(kind, variant).display.get(ident)
        if shown is not None:
            return shown
    card = CARDS.house_cards.get(ident.removeprefix("house_card:"))
    return card.name if card is not None and kind in ("house_card", "card") else ident


def unit_text(unit: str, count: int = 1) -> str:
    """``footman``, ``2 footmen``."""
    singular, plural = UNIT_NAMES.get(unit, (unit.replace("_", " "), unit.replace("_", " ") + "s"))
    return singular if count == 1 else f"{count} {plural}"


def describe_match_error(m: Match) -> tuple[str, str]:
    """(message, suggestion) for a failed lookup, in the project's wording."""
    other = other_kind(m.text, m.kind)
    if other:
        return f"{m.text!r} is {other}, where {_article(m.kind_word)} is expected", ""
    if m.candidates:
        listed = ", ".join(repr(c) for c in m.candidates)
        return f"{m.kind_word} {m.text!r} is ambiguous: it could be {listed}", "write more of the name"
    if m.suggestions:
        listed = " or ".join(repr(s) for s in m.suggestions)
        return f"unknown {m.kind_word} {m.text!r}; did you mean {listed}?", f"did you mean {listed}?"
    return f"unknown {m.kind_word} {m.text!r}", ""


def other_kind(text: str, kind: str) -> str:
    """'an area' when a text failing as one kind of name is exactly a name of another kind."""
    key = normalise(text)
    variant = _VOCABULARY.get()
    for other in NAME_KINDS:
        if other != kind and not (kind == "card" and other in CARD_KINDS) and key in namespace(other, variant).keys:
            return _article(_KIND_WORDS[other])
    return ""


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


# --- order tokens ----------------------------------------------------------------------------


def order_token(kind: str, modifier: int | None, special: bool) -> tuple[str | None, str]:
    """The token id for an order as written, or ``(None, reason)``; an ambiguous one says "could be".

    >>> order_token("march", 1, False)
    ('march+1', '')
    >>> order_token("defense", None, True)
    ('defense+2', '')
    >>> order_token("march", None, False)[1]
    "'march' could be march -1 or march +0"
    """
    if kind in ("raid", "consolidate"):
        if modifier not in (None, 0):
            return None, f"a {kind} order has no modifier"
        return (f"{kind}*" if special else kind), ""
    allowed = {"march": (-1, 0, 1), "defense": (1, 2), "support": (0, 1)}[kind]
    special_value = allowed[-1]
    if modifier is None:
        if special:
            return f"{kind}{special_value:+d}", ""
        normal = allowed[:-1]
        if len(normal) == 1:
            return f"{kind}{normal[0]:+d}", ""
        return None, f"{kind!r} could be " + " or ".join(f"{kind} {m:+d}" for m in normal)
    if modifier not in allowed:
        listed = ", ".join(f"{kind} {m:+d}" for m in allowed)
        return None, f"there is no {kind} {modifier:+d} order; the {kind} orders are {listed}"
    if special and modifier != special_value:
        return None, f"the special {kind} order is {kind} {special_value:+d}"
    return f"{kind}{modifier:+d}", ""


def order_suggestions(text: str) -> tuple[str, ...]:
    """Order texts close to a word that is not an order (for 'Winterfell: defend')."""
    words = list(ORDER_TEXT.values()) + ["no order", "special march", "consolidate power"]
    key = normalise(text)
    close = close_matches(key, words, n=3, cutoff=0.5)
    if not close:
        close = [w for w in words if w.split()[0].startswith(key[:3])][:3] if len(key) >= 3 else []
    return tuple(close)


# --- choices after a card's name ("Tyrion Lannister: cancel") --------------------------------

# The forms of answer each card with a choice accepts: its ``choice`` table in its box's cards.toml
# (game/cards.py ChoiceForms), stated there once. The command carries the objects named (area, house
# card, track, units, muster) as the engine reads them; only a Westeros card's option, Tyrion's
# "cancel" and a refusal ("no") are keywords. docs/turn-files.md lists them all.
CARD_CHOICES: dict[str, frozenset[str]] = {key: frozenset(c.forms) for key, c in CARDS.choices.items()}

# A bare word after a card's name, and the form it gives.
OPTION_WORDS: dict[str, str] = {
    "nothing": "nothing", "none": "nothing", "no effect": "nothing", "pass": "nothing", "skip": "nothing",
    "decline": "nothing", "nobody": "nothing", "keep": "nothing",
    "muster": "muster", "mustering": "muster", "supply": "supply",
    "bid": "bid", "bidding": "bid", "bids": "bid", "clash": "bid", "clash of kings": "bid",
    "collect": "collect", "collect power": "collect", "power": "collect", "game of thrones": "collect",
    "cancel": "cancel", "return": "return", "pay": "pay", "up": "up", "down": "down",
    "wildlings": "wildlings", "wildling threat": "wildlings", "threat": "wildlings",  # The Burden of Power (F023)
}

# The option words a CardChoice carries as its ``option`` (the others fill no field, or say "no").
KEYWORD_OPTIONS = frozenset({"cancel", "return", "pay", "up", "down"})

# How each form is written, for messages and the guide.
FORM_EXAMPLES: dict[str, str] = {
    "muster": "muster", "supply": "supply", "nothing": "nothing", "bid": "bid", "collect": "collect",
    "cancel_moves": "cancel HOUSE, HOUSE", "moves": "FROM, TO else FROM, TO",
    "no march+1": "no march +1", "no defense": "no defense",
    "destroy": "destroy footman in AREA, ...", "upgrade": "upgrade footman in AREA",
    "downgrade": "downgrade knight in AREA, ...", "track": "iron throne | fiefdoms | king's court",
    "discard": "discard CARD", "take_back": "take back CARD", "cancel": "cancel", "swap": "swap to CARD",
    "remove_order": "remove order in AREA", "retreat": "retreat to AREA",
    "return": "return", "remove_card": "remove CARD", "remove": "remove",
    "area": "AREA", "names": "NAME, NAME", "pay": "pay",
    "destroy_one": "destroy footman in AREA", "card": "CARD", "up": "up", "down": "down",
    "westeros": "WESTEROS CARD[, deck II]", "amount": "NUMBER", "wildlings": "wildlings",
}

# The verb that names an object for each card whose choice is an area or a house card.
CARD_VERBS: dict[str, str] = {key.partition(":")[2]: c.verb for key, c in CARDS.choices.items() if c.verb}

# Words a card's answer would read the wrong way: "keep" declines every other card, but for Lysa
# Arryn it would read as "keep her" (ruling 291). Refused with what to write instead.
UNCLEAR_CHOICES: dict[tuple[str, str], str] = {
    (key, word): why for key, c in CARDS.choices.items() for word, why in c.unclear.items()
}


def form_text(form: str) -> str:
    """How a (possibly unknown) form was written, for a message."""
    if form.startswith("?"):
        return {"?order": "an order", "?no_order": "no order", "?take_over": "take over"}.get(form, form[1:])
    return FORM_EXAMPLES.get(form, form)


def choice_forms_text(card_key: str) -> str:
    """``'cancel' or 'nothing'``: the forms a card accepts, as a player writes them."""
    forms = sorted(CARD_CHOICES.get(card_key, ()))
    return " or ".join(repr(FORM_EXAMPLES[f]) for f in forms)
