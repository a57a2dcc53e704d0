"""Typed commands: everything a player can say in a turn file, as plain frozen values.

The parser (:mod:`adjudicator.turnfile.parser`) turns text into these; the engine consumes them as
answers to its requests (:mod:`adjudicator.engine.core.context`). A command may arrive before the
request it answers (a standing instruction): the engine then matches it by kind and context.

Every command names areas, houses, cards and unit types by their canonical snake_case ids.
``where`` (file, line, column) is carried for messages and never compared.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field
from typing import Any, Literal

AreaId = str
HouseId = str
CardId = str

# The 15 order tokens of each house, by token id (R112). Special tokens are starred in the rulebook.
ORDER_TOKENS: dict[str, int] = {
    "march-1": 1,
    "march+0": 1,
    "march+1": 1,
    "defense+1": 2,
    "defense+2": 1,
    "support+0": 2,
    "support+1": 1,
    "raid": 2,
    "raid*": 1,
    "consolidate": 2,
    "consolidate*": 1,
}
SPECIAL_TOKENS: frozenset[str] = frozenset({"march+1", "defense+2", "support+1", "raid*", "consolidate*"})

# Mother of Dragons. Each player also owns 3 sea order tokens (M114, ruling 206: none special); each
# vassal is ordered from a set of 4 vassal order tokens (M039, M043-M055). Ids as in the expansion's
# board.toml. A sea order counts as the order it names (ruling 207); the two-faced vassal tokens are
# both of their kinds (M046, M050): the engine reads them with ``order_kinds``.
SEA_ORDER_TOKENS: dict[str, int] = {"sea_march": 1, "sea_support": 1, "iron_bank": 1}
VASSAL_ORDER_TOKENS: dict[str, int] = {
    "vassal_march": 1, "vassal_raid_support": 1, "vassal_defense_muster": 1, "vassal_defense": 1,
}
# What a two-faced vassal token becomes on the board once its commander has chosen its other face,
# never placed as such: a Raid/Support kept as a support order (M047, ruling 232) and a
# Defense 1/Muster that did not muster (M051, ruling 272).
VASSAL_KEPT_TOKENS: dict[str, str] = {"vassal_raid_support": "vassal_support", "vassal_defense_muster": "vassal_defense_1"}
ALL_ORDER_TOKENS: dict[str, int] = (ORDER_TOKENS | SEA_ORDER_TOKENS | VASSAL_ORDER_TOKENS
                                    | dict.fromkeys(VASSAL_KEPT_TOKENS.values(), 1))
_EXPANSION_TOKENS: dict[str, tuple[tuple[str, ...], int]] = {  # token -> (its kinds, first the main one; bonus)
    "sea_march": (("march",), -1),
    "sea_support": (("support",), 0),
    "iron_bank": (("iron_bank",), 0),
    "vassal_march": (("march",), 0),
    "vassal_raid_support": (("raid", "support"), 1),
    "vassal_defense_muster": (("defense", "consolidate"), 1),
    "vassal_defense": (("defense",), 3),
    "vassal_support": (("support",), 1),
    "vassal_defense_1": (("defense",), 1),
}


def order_kind(token: str) -> str:
    """``'march+1'`` -> ``'march'``; ``'consolidate*'`` -> ``'consolidate'``; ``'sea_march'`` -> ``'march'``.

    A two-faced vassal token gives its first kind (``'vassal_raid_support'`` -> ``'raid'``).
    """
    if token in _EXPANSION_TOKENS:
        return _EXPANSION_TOKENS[token][0][0]
    return token.rstrip("*").split("+")[0].split("-")[0]


def order_kinds(token: str) -> tuple[str, ...]:
    """Every kind a token is: ``('raid', 'support')`` for a vassal's Raid/Support, one kind for the rest.

    >>> order_kinds("vassal_defense_muster"), order_kinds("raid*")
    (('defense', 'consolidate'), ('raid',))
    """
    if token in _EXPANSION_TOKENS:
        return _EXPANSION_TOKENS[token][0]
    return (order_kind(token),)


def order_bonus(token: str) -> int:
    """The number printed on a token: march modifier, defense or support bonus.

    >>> order_bonus("march-1"), order_bonus("sea_march"), order_bonus("vassal_defense")
    (-1, -1, 3)
    """
    if token in _EXPANSION_TOKENS:
        return _EXPANSION_TOKENS[token][1]
    if "+" in token:
        return int(token.split("+")[1])
    if "-" in token:
        return -int(token.split("-")[1])
    return 0


@dataclass(frozen=True, slots=True)
class Where:
    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A number of units of one type, e.g. ``2 footmen``."""

    unit: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Located:
    """Units of one type in one area, e.g. ``footman in The Twins``."""

    area: AreaId
    unit: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class CombatFilter:
    """The condition of a standing combat instruction (``if attacked in Winterfell: ...``).

    Every field left ``None`` matches anything.
    """

    role: Literal["attacker", "defender"] | None = None
    area: AreaId | None = None
    opponent: HouseId | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    where: Where | None = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> str:
        return _KIND_OF[type(self).__name__]


# --- planning -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignOrder(Command):
    """``Winterfell: march+1`` - place an order (D13)."""

    area: AreaId
    token: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveUnordered(Command):
    """``Winterfell: no order`` - only when short of tokens (D14, R122)."""

    area: AreaId


@dataclass(frozen=True, slots=True, kw_only=True)
class Raven(Command):
    """Messenger Raven (D15): ``raven swap Winterfell defense+1``, ``raven look``, ``raven pass``."""

    action: Literal["swap", "look", "pass"]
    area: AreaId | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RavenKeep(Command):
    """After looking: ``wildling card: top`` or ``wildling card: bottom``.

    With ``cards`` it is a conditional sent with ``raven: look`` (ruling 123): ``wildling card:
    bottom if Crow Killers, Mammoth Riders`` puts the card at the bottom when it is one of those,
    and leaves any other on top (and the reverse for ``top if ...``).
    """

    choice: Literal["top", "bottom"]
    cards: tuple[CardId, ...] = ()

    def for_card(self, card: str) -> Literal["top", "bottom"]:
        """Where this answer puts ``card``.

        >>> RavenKeep(choice="bottom", cards=("crow_killers",)).for_card("mammoth_riders")
        'top'
        """
        if not self.cards or card in self.cards:
            return self.choice
        return "top" if self.choice == "bottom" else "bottom"


# --- action phase ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Raid(Command):
    """``raid from Bay of Ice onto Castle Black else none`` (D16/D17).

    ``targets`` is a preference list; ``None`` in it means "no effect". An empty tuple means none.
    """

    origin: AreaId
    targets: tuple[AreaId | None, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(Command):
    units: tuple[UnitSpec, ...]
    destination: AreaId


@dataclass(frozen=True, slots=True, kw_only=True)
class March(Command):
    """``march from Winterfell: footman, knight -> Moat Cailin; leave power`` (D18/D19)."""

    origin: AreaId
    moves: tuple[Move, ...] = ()
    leave_power: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Support(Command):
    """``support stark in every combat`` / ``support none in Winterfell`` (D20).

    ``side`` is a house id, ``"attacker"``, ``"defender"`` or ``None`` (support no one).
    ``combat_area`` limits it to the combat in that area; ``origin`` to one support order.
    """

    side: str | None
    combat_area: AreaId | None = None
    origin: AreaId | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseSupport(Command):
    """``refuse support from greyjoy`` (D21)."""

    supporter: HouseId
    when: CombatFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayCard(Command):
    """``play eddard stark`` / ``if attacked in Winterfell: play eddard stark`` (D22)."""

    card: CardId
    when: CombatFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UseBlade(Command):
    """``use blade`` / ``keep blade`` (D24, D25)."""

    use: bool
    when: CombatFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Casualties(Command):
    """``casualties: footman, knight`` (D26, D27)."""

    units: tuple[UnitSpec, ...]
    when: CombatFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Retreat(Command):
    """``retreat to Karhold`` (preference list) ``destroy footman`` (D28)."""

    areas: tuple[AreaId, ...]
    destroy: tuple[UnitSpec, ...] = ()
    when: CombatFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardChoice(Command):
    """A house-card ability choice (D23): ``tyrion: cancel``, ``doran: fiefdoms``,
    ``patchface: discard eddard stark``, ``cersei: remove order in Winterfell`` ...

    ``option`` is a keyword (cancel, keep, yes, no, a track id ...); ``area``, ``house_card``
    and ``track`` carry the objects named.
    """

    card: CardId
    option: str | None = None
    area: AreaId | None = None
    house_card: CardId | None = None
    track: str | None = None
    when: CombatFilter | None = None
    amount: int | None = None  # power tokens paid (Aeron Damphair of A Dance with Dragons)
    westeros_card: CardId | None = None  # and its deck: the card Rodrik the Reader puts on top
    deck: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PortShips(Command):
    """``port of lannisport: take over 2 ships`` (D29, R246)."""

    port: AreaId
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MusterAction(Command):
    """One mustering purchase: a new unit, an upgrade, or a ship placed into port or sea."""

    unit: str  # footman | knight | siege_engine | ship
    upgrade: bool = False  # replace a footman in the area with `unit`
    to: AreaId | None = None  # ships: the port or sea area they go into


@dataclass(frozen=True, slots=True)
class MusterPlan:
    """One fall-back of a muster: what to muster when the choices before it cannot be (ruling 357)."""

    actions: tuple[MusterAction, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Muster(Command):
    """``muster in Lannisport: footman, ship to The Golden Sound`` (D7). No actions = pass.

    ``otherwise`` are fall-backs, ``muster in Winterfell: knight else footman else none``: the first
    choice that can be mustered when the decision comes is (ruling 357).
    """

    area: AreaId
    actions: tuple[MusterAction, ...] = ()
    otherwise: tuple[MusterPlan, ...] | None = None  # None, not (): a muster without fall-backs is stored as before

    def choices(self) -> tuple[tuple[MusterAction, ...], ...]:
        """The musters named, in the order they are tried.

        >>> Muster(area="winterfell", actions=(MusterAction(unit="knight"),), otherwise=(MusterPlan(),)).choices()
        ((MusterAction(unit='knight', upgrade=False, to=None),), ())
        """
        return (self.actions, *(p.actions for p in self.otherwise or ()))


@dataclass(frozen=True, slots=True, kw_only=True)
class Consolidate(Command):
    """``consolidate in Lannisport`` / ``consolidate in Lannisport: muster footman`` (D30)."""

    area: AreaId
    muster: tuple[MusterAction, ...] | None = None  # None: take power


@dataclass(frozen=True, slots=True, kw_only=True)
class IronBank(Command):
    """Mother of Dragons: resolve an Iron Bank order (M104, M117), taking a loan or none.

    ``iron bank in Shipbreaker Bay: take customs officer`` / ``iron bank in Shipbreaker Bay: no loan``.
    Its kind is ``consolidate``: it answers a house's turn of the Resolve Consolidate Power step
    (ruling 259). ``areas`` are the areas a loan improves, ``units`` the units it places or destroys,
    ``option`` its word choice (Pyromancer's ``crown``/``barrel``, Spymaster's deck ``1``-``4``).
    """

    area: AreaId
    loan: CardId | None = None
    areas: tuple[AreaId, ...] = ()
    units: tuple[Located, ...] = ()
    option: str | None = None


# --- Westeros phase -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Bid(Command):
    """``bid iron throne 3`` / ``bid wildlings 2`` (D8, D10)."""

    track: Literal["iron_throne", "fiefdoms", "kings_court", "wildlings"]
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TieBreak(Command):
    """``tie-break: stark, lannister, baratheon`` (D9, D11, D31); ``context`` None = any tie."""

    order: tuple[HouseId, ...]
    context: str | None = None


@dataclass(frozen=True, slots=True)
class Gift:
    """Power Targaryen gives from its bid to one house, e.g. ``2 to stark``."""

    house: HouseId
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DistributeBid(Command):
    """``distribute fiefdoms: 2 to stark, 1 to arryn`` (Mother of Dragons' Targaryen, M100)."""

    track: str
    gifts: tuple[Gift, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reconcile(Command):
    """``supply: destroy footman in The Twins, footman in Harrenhal`` (D6)."""

    removals: tuple[Located, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class WesterosChoice(Command):
    """``a throne of blades: muster`` / ``dark wings: bid`` / ``put to the sword: no defense`` (D3-D5)."""

    card: CardId
    option: str


# Targaryen's standing answer to every move of Scattering Dissent or Word Spreads Quickly (ruling 295):
# ``scattering dissent: cancel stark, greyjoy`` is the option "cancel:stark+greyjoy" ("cancel:" for none).
CANCEL_MOVES = "cancel:"
# A loyalty-token move with fall-backs, ``Karhold, Winterfell else The Twins, Riverrun``: the moves joined
# ("karhold+winterfell|the_twins+riverrun"); the first still legal at its turn is made (ruling 295).
MOVE_ELSE = "|"


def cancels_moves(cmd: Command) -> bool:
    """Whether ``cmd`` is Targaryen's standing answer naming whose loyalty-token moves it cancels."""
    return isinstance(cmd, WesterosChoice) and cmd.option.startswith(CANCEL_MOVES)


@dataclass(frozen=True, slots=True, kw_only=True)
class SpymasterChoice(Command):
    """Mother of Dragons' Spymaster loan (ruling 225), after its secret look at the top two cards of a
    Westeros deck: ``spymaster: bottom second; top first``. Cards are named by where they lay (1 the
    top one, 2 the next); each group is listed top to bottom as it will lie."""

    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Give(Command):
    """Mother of Dragons (M121, ruling 261): ``give 2 power to Stark``, a gift of available power."""

    power: int
    to: HouseId


@dataclass(frozen=True, slots=True, kw_only=True)
class InterestLosses(Command):
    """Mother of Dragons (M110): ``interest for stark: destroy footman in Winterfell, ship in Bay of Ice``,
    the units of a debtor destroyed for the interest it could not pay."""

    debtor: HouseId
    removals: tuple[Located, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingChoice(Command):
    """A wildling card choice (D12): units to destroy or swap, a track, a house card, an area."""

    card: CardId
    option: str | None = None
    units: tuple[Located, ...] = ()
    track: str | None = None
    house_card: CardId | None = None
    area: AreaId | None = None
    muster: tuple[MusterAction, ...] = ()


# --- Mother of Dragons: vassals ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandVassal(Command):
    """``command tyrell`` / ``command none`` - with a set of vassal orders, take a vassal or pass (M034);
    ``command tyrell else martell else none``: the first of them still free when asked (ruling 296)."""

    vassal: HouseId | None
    otherwise: tuple[HouseId | None, ...] | None = None

    def picks(self) -> tuple[HouseId | None, ...]:
        """The vassals named, in the order they are tried; ``None`` passes the set on."""
        return (self.vassal, *(self.otherwise or ()))


@dataclass(frozen=True, slots=True, kw_only=True)
class ForVassal(Command):
    """``for tyrell: raid from Highgarden onto none`` - a commander's answer on its vassal's behalf
    (M030). Never reaches the engine: the answer pool keeps the inner command and the vassal
    (:func:`adjudicator.engine.core.context.pool_entry`)."""

    vassal: HouseId
    command: Command


# --- standing instructions: answers that hold from round to round (rulings 353-357) ------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing(Command):
    """``standing: a throne of blades: muster`` - an answer that stands from round to round, for every
    decision it fits, until withdrawn or replaced (ruling 353). Never reaches the engine: the answer
    pool keeps the inner command with a ``standing`` mark (:func:`adjudicator.engine.core.context.pool_entry`)."""

    command: Command


@dataclass(frozen=True, slots=True, kw_only=True)
class Withdraw(Command):
    """``withdraw: a throne of blades: muster`` withdraws the standing instruction of that line;
    ``withdraw all`` (``command`` None) every standing instruction of the house (ruling 353)."""

    command: Command | None = None


# The kinds of answer that may stand from round to round (ruling 353): the decisions of the Westeros
# Phase, the choice of a vassal and the answers of a combat. Orders and the answers that name this
# round's orders (raids, marches, consolidations), the raven, gifts and Spymaster are for one round.
STANDING_ANSWER_KINDS: frozenset[str] = frozenset({
    "westeros_choice", "muster", "reconcile", "bid", "tie_break", "distribute", "wildling_choice", "interest",
    "vassal_choice", "support", "refuse_support", "house_card", "card_choice", "blade", "casualties", "retreat",
    "port_ships",
})


# The field that names what a standing line's decision is about, beyond its kind and condition.
_SLOT_FIELDS = {"Muster": "area", "Bid": "track", "TieBreak": "context", "DistributeBid": "track",
                "InterestLosses": "debtor", "PortShips": "port", "RefuseSupport": "supporter", "CardChoice": "card"}


def standing_slot(cmd: Command) -> tuple[object, ...]:
    """The decision a standing instruction answers, as far as its line says: a later standing line of
    the same slot replaces an earlier one (ruling 354).

    >>> standing_slot(Muster(area="winterfell", actions=())) == standing_slot(Muster(area="winterfell"))
    True
    >>> standing_slot(WesterosChoice(card="a_throne_of_blades", option="muster"))
    ('westeros_choice', 'a_throne_of_blades', '')
    """
    kind = cmd.kind
    if isinstance(cmd, WesterosChoice):
        return kind, cmd.card, "cancel" if cancels_moves(cmd) else ""
    if isinstance(cmd, WildlingChoice):  # Crow Killers' reward (upgrade) and penalty (downgrade) are two decisions
        role = "reward" if cmd.card == "crow_killers" and cmd.units and cmd.units[0].unit == "footman" else ""
        # A line naming units stands beside one naming as many other units only: the severe and the
        # lesser penalty of a card ask for different numbers, and its reward names none (ruling 360).
        return kind, cmd.card, role, sum(u.count for u in cmd.units)
    subject = _SLOT_FIELDS.get(type(cmd).__name__)
    parts: tuple[object, ...] = (kind, getattr(cmd, subject) if subject else "")
    if isinstance(cmd, (InterestLosses, Reconcile)):  # a line for each shortfall: "if Stark is 2 short, these two"
        parts += (sum(r.count for r in cmd.removals),)  # and for each cut of the supply (ruling 362)
    if isinstance(cmd, Support):
        parts += (cmd.combat_area, cmd.origin)
    return parts + (getattr(cmd, "when", None),)


# Request kind of each command: one name used by the grammar, the engine and the docs.
_KIND_OF: dict[str, str] = {
    "AssignOrder": "orders",
    "LeaveUnordered": "orders",
    "Raven": "raven",
    "RavenKeep": "raven_wildling",
    "Raid": "raid",
    "Move": "march",
    "March": "march",
    "Support": "support",
    "RefuseSupport": "refuse_support",
    "PlayCard": "house_card",
    "UseBlade": "blade",
    "Casualties": "casualties",
    "Retreat": "retreat",
    "CardChoice": "card_choice",
    "PortShips": "port_ships",
    "MusterAction": "muster",
    "Muster": "muster",
    "Consolidate": "consolidate",
    "IronBank": "consolidate",
    "InterestLosses": "interest",
    "Give": "give",
    "SpymasterChoice": "spymaster",
    "Bid": "bid",
    "TieBreak": "tie_break",
    "Reconcile": "reconcile",
    "DistributeBid": "distribute",
    "WesterosChoice": "westeros_choice",
    "WildlingChoice": "wildling_choice",
    "CommandVassal": "vassal_choice",
    "ForVassal": "for_vassal",
    "Standing": "standing",
    "Withdraw": "withdraw",
}

COMMAND_TYPES: tuple[type[Command], ...] = (
    AssignOrder, LeaveUnordered, Raven, RavenKeep, Raid, March, Support, RefuseSupport,
    PlayCard, UseBlade, Casualties, Retreat, CardChoice, PortShips, Muster, Consolidate,
    Bid, TieBreak, Reconcile, WesterosChoice, WildlingChoice, IronBank, InterestLosses, Give, SpymasterChoice,
    CommandVassal, ForVassal, DistributeBid, Standing, Withdraw,
)

_BY_NAME: dict[str, type] = {t.__name__: t for t in COMMAND_TYPES}
_NESTED: dict[str, type] = {
    "UnitSpec": UnitSpec, "Located": Located, "CombatFilter": CombatFilter, "Move": Move,
    "MusterAction": MusterAction, "Gift": Gift, "MusterPlan": MusterPlan,
}


def to_dict(value: object) -> dict[str, object]:
    """A command as a TOML-ready dict (``type`` plus its fields; ``None`` fields left out).

    >>> to_dict(Bid(track="fiefdoms", amount=3))
    {'type': 'Bid', 'track': 'fiefdoms', 'amount': 3}
    """
    out: dict[str, object] = {"type": type(value).__name__}
    for name in value.__dataclass_fields__:  # type: ignore[attr-defined]
        if name == "where":
            continue
        out_v = _plain(getattr(value, name))
        if out_v is not None:
            out[name] = out_v
    return out


def _plain(v: object) -> object:
    if v is None:
        return None
    if hasattr(v, "__dataclass_fields__"):
        return to_dict(v)
    if isinstance(v, tuple):
        # TOML has no null: "no effect" inside a preference list is written as "".
        return ["" if x is None else _plain(x) for x in v]
    return v


def from_dict(d: dict[str, object]) -> Command:
    """The inverse of :func:`to_dict`.

    :raises KeyError: for an unknown command type.
    """
    value = _build(d)
    assert isinstance(value, Command)
    return value


def _build(d: dict[str, object]) -> object:
    cls: Any = _BY_NAME.get(str(d["type"])) or _NESTED[str(d["type"])]
    kwargs = {k: _unplain(v) for k, v in d.items() if k != "type"}
    for name, f in cls.__dataclass_fields__.items():
        # TOML has no null: a required field left out was None (``support none``).
        if name not in kwargs and f.default is MISSING and f.default_factory is MISSING:
            kwargs[name] = None
    return cls(**kwargs)


def _unplain(v: object) -> object:
    if isinstance(v, dict):
        return _build(v)
    if isinstance(v, list):
        return tuple(None if x == "" else _unplain(x) for x in v)
    return v
