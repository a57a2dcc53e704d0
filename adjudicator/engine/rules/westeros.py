"""The Westeros phase (R037-R057): three cards drawn, the wildling track, each card resolved.

The clean-up of the previous round has already moved the round marker (R037), and ends the game
after round 10 (R035, R168); this phase starts with the cards:

1. the top card of each Westeros deck is revealed (R038);
2. the threat moves one space per wildling icon; at 12 the wildlings attack at once (R039);
3. the cards resolve in deck order I, II, III (R040), each then going to its deck's discard pile
   (ruling 60). Winter is Coming shuffles its deck and its replacement resolves in its place, the
   replacement's icon counting then (ruling 61).

Orders banned by the cards are written to ``state.restrictions`` with the vocabulary
``march+1``, ``defense``, ``raid``, ``support``, ``consolidate``; the Planning Phase reads and
clears them (R057). They are cleared here too, so that none outlives the planning it was for
(ruling 75).
"""

from __future__ import annotations

from collections.abc import Callable

from ...game.box_setup import draw_shuffle
from ...game.cards import CARDS
from ...game.commands import Command, WesterosChoice
from ...game.hooks import hooked
from ...game.state import GameState
from ..cards import westeros_iv
from ..core.bidding import bid_on_tracks
from ..core.common import enemy_ships, gain_power
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.mustering import run_mustering
from ..core.supply import update_supply
from ..events import PhaseStarted
from ..events.westeros import (
    OrdersRestricted,
    WesterosCardResolved,
    WesterosCardRevealed,
    WesterosChoiceMade,
    WesterosDeckShuffled,
)
from .endgame import final_winner
from .wildlings import advance_threat, attack

WINTER = "winter_is_coming"

# The choices of the three cards a dominance token holder decides (R044, R047, R056): the
# canonical option first, then the other spellings a turn file may use.
CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "a_throne_of_blades": {
        "muster": ("mustering",), "supply": (), "nothing": ("none", "no effect", "pass"),
    },
    "dark_wings_dark_words": {
        "bid": ("bidding", "clash", "clash of kings"), "collect": ("power", "game of thrones"),
        "nothing": ("none", "no effect", "pass"),
    },
    "put_to_the_sword": {
        "no march+1": ("march+1", "no special march", "no march"), "no defense": ("defense", "no defence"),
        "nothing": ("none", "no effect", "pass"),
    },
}
DECIDER = {"a_throne_of_blades": "iron_throne", "dark_wings_dark_words": "kings_court", "put_to_the_sword": "fiefdoms"}
RULE = {"a_throne_of_blades": "R044", "dark_wings_dark_words": "R047", "put_to_the_sword": "R056"}
TOKEN_NAMES = {"iron_throne": "the Iron Throne", "fiefdoms": "the Valyrian Steel Blade", "kings_court": "the Messenger Raven"}
# Orders each restricting card bans in the coming Planning Phase (R051-R055).
BANS = {
    "rains_of_autumn": ("march+1",),
    "storm_of_swords": ("defense",),
    "sea_of_storms": ("raid",),
    "web_of_lies": ("support",),
    "feast_for_crows": ("consolidate",),
}


def run(ctx: Context) -> None:
    """Resolve one step of the Westeros phase (``state.step``); after deck III, the Planning Phase.

    The steps: "" draws and reveals the three cards (kept in ``westeros_revealed``), "threat" moves
    the wildling threat, "card_1" to "card_3" resolve the cards in deck order ("card_4" deck IV's,
    Mother of Dragons with Targaryen, M082).
    """
    st = ctx.state
    if not st.step:
        if st.round > st.last_round():
            final_winner(ctx)  # only if the clean-up of round 10 did not end the game already (ruling 77)
        ctx.emit(PhaseStarted(round=st.round, phase="westeros"))
        for begin in hooked("round_start", st.box):  # Mother of Dragons: the loans shift, then interest (M107-M110)
            begin(ctx)
        st.restrictions = []
        st.westeros_revealed = [_draw(ctx, deck) for deck in decks(st)]
        for deck, card in enumerate(st.westeros_revealed, 1):
            ctx.emit(WesterosCardRevealed(deck=deck, card=card, wildling_icon=_icon(deck, card)))
        st.step = "threat"
    elif st.step == "threat":
        icons = sum(_icon(d, c) for d, c in enumerate(st.westeros_revealed, 1))
        advance_threat(ctx, icons, "wildling icons on the Westeros cards")
        st.step = "card_1"
    else:
        deck = int(st.step.removeprefix("card_"))
        resolve_card(ctx, deck, st.westeros_revealed[deck - 1])
        st.step = f"card_{deck + 1}"
        if deck == len(decks(st)):
            st.westeros_revealed, st.step, st.phase = [], "", "planning"


def decks(state: GameState) -> tuple[int, ...]:
    """The Westeros decks drawn from, in resolution order: I, II, III, and IV when Targaryen plays (M082)."""
    return (1, 2, 3, 4) if "4" in state.westeros_decks else (1, 2, 3)


def _icon(deck: int, card: str) -> bool:
    return CARDS.westeros_card(deck, card).wildling_icon


def _draw(ctx: Context, deck: int) -> str:
    """The top card of a deck; an empty deck is first rebuilt from its discards (ruling 60)."""
    st, key = ctx.state, str(deck)
    if not st.westeros_decks[key]:
        st.westeros_decks[key] = draw_shuffle(st, st.westeros_discards[key])
        st.westeros_discards[key] = []
        ctx.emit(WesterosDeckShuffled(deck=deck, cause="the deck ran out; its discards form a new deck"))
    return st.westeros_decks[key].pop(0)


def resolve_card(ctx: Context, deck: int, card: str) -> None:
    """Do what one Westeros card says, then discard it (R040, ruling 60)."""
    st = ctx.state
    ctx.emit(WesterosCardResolved(deck=deck, card=card))
    if card == WINTER:
        _winter_is_coming(ctx, deck)
        return
    if deck == 4:  # Mother of Dragons: the banner's loyalty tokens first, then the text (M083)
        westeros_iv.resolve(ctx, card)
    elif card in RESOLVERS:
        RESOLVERS[card](ctx)
    else:  # a box's own deck (A Feast for Crows' deck I, F020)
        assert any(own(ctx, card) for own in hooked("westeros_card", st.box)), card
    st.westeros_discards[str(deck)].append(card)


def _winter_is_coming(ctx: Context, deck: int) -> None:
    """Shuffle the deck with this card; draw and resolve a replacement, icon included (R049)."""
    st, key = ctx.state, str(deck)
    pile = st.westeros_decks[key] + [WINTER]
    if all(c == WINTER for c in pile):  # nothing else to draw: the discards join (ruling 60)
        pile += st.westeros_discards[key]
        st.westeros_discards[key] = []
    st.westeros_decks[key] = draw_shuffle(st, pile)
    ctx.emit(WesterosDeckShuffled(deck=deck, cause="Winter is Coming"))
    card = _draw(ctx, deck)
    ctx.emit(WesterosCardRevealed(deck=deck, card=card, wildling_icon=_icon(deck, card)))
    advance_threat(ctx, int(_icon(deck, card)), "wildling icon on the card drawn for Winter is Coming")
    resolve_card(ctx, deck, card)


# --- the cards ------------------------------------------------------------------------------


def _supply(ctx: Context) -> None:
    update_supply(ctx, ctx.state.turn_order())


def _nothing(ctx: Context) -> None:
    """Last Days of Summer: nothing happens (R050)."""


def _throne_of_blades(ctx: Context) -> None:
    option = westeros_choice(ctx, "a_throne_of_blades")
    if option == "muster":
        run_mustering(ctx)
    elif option == "supply":
        update_supply(ctx, ctx.state.turn_order(), "A Throne of Blades")


def _dark_wings(ctx: Context) -> None:
    option = westeros_choice(ctx, "dark_wings_dark_words")
    if option == "bid":
        bid_on_tracks(ctx)
    elif option == "collect":
        collect_power(ctx, "Dark Wings, Dark Words")  # as Game of Thrones, ports included (ruling 62)


def _put_to_the_sword(ctx: Context) -> None:
    option = westeros_choice(ctx, "put_to_the_sword")
    if option != "nothing":
        restrict(ctx, "put_to_the_sword", (option.removeprefix("no "),))


def collect_power(ctx: Context, cause: str = "Game of Thrones") -> None:
    """Each house takes a power per crown it controls, and per trading port (R045).

    A port trades when it holds a ship of its owner and its sea holds no enemy ship.
    """
    st, board = ctx.state, ctx.board
    for house in st.turn_order():
        crowns = sum(a.power for a in st.land_areas(board) if st.controller(a.id, board) == house)
        ports = sum(
            1 for p in board.ports()
            if st.controller(p.id, board) == house
            and any(u.house == house for u in st.area(p.id).units)
            and not enemy_ships(st, house, p.opens_onto or "")
        )
        gain_power(ctx, house, crowns + ports, cause)


def restrict(ctx: Context, card: str, tokens: tuple[str, ...]) -> None:
    """Ban order tokens for the coming Planning Phase (R051-R057)."""
    st = ctx.state
    st.restrictions += [t for t in tokens if t not in st.restrictions]
    ctx.emit(OrdersRestricted(card=card, tokens=tokens))


def _ban(card: str) -> Callable[[Context], None]:
    return lambda ctx: restrict(ctx, card, BANS[card])


RESOLVERS: dict[str, Callable[[Context], None]] = {
    "supply": _supply,
    "mustering": run_mustering,
    "a_throne_of_blades": _throne_of_blades,
    "last_days_of_summer": _nothing,
    "game_of_thrones": collect_power,
    "clash_of_kings": bid_on_tracks,
    "dark_wings_dark_words": _dark_wings,
    "wildlings_attack": lambda ctx: attack(ctx),
    "put_to_the_sword": _put_to_the_sword,
    **{card: _ban(card) for card in BANS},
}


# --- the dominance token holders' choices ---------------------------------------------------


def canonical_option(card: str, option: str | None) -> str | None:
    """The canonical spelling of a Westeros choice, or ``None`` when it is not one.

    >>> canonical_option("put_to_the_sword", "No Defence")
    'no defense'
    """
    said = " ".join((option or "").lower().replace("_", " ").split())
    for canon, others in CHOICES[card].items():
        if said == canon or said in others:
            return canon
    return None


def check_westeros_choice(card: str, cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` is a legal choice for ``card``."""
    if not isinstance(cmd, WesterosChoice) or cmd.card != card:
        return NOT_APPLICABLE
    if canonical_option(card, cmd.option) is None:
        return f"{cmd.option!r} is not a choice of {_card_name(card)}: choose {', '.join(CHOICES[card])} ({RULE[card]})"
    return None


def _card_name(card: str) -> str:
    return next(c.name for c in CARDS.westeros if c.id == card)


def westeros_choice(ctx: Context, card: str) -> str:
    """Ask the holder of the card's dominance token to choose; returns the canonical option.

    The same choice sent by any other house is refused with the reason (the holder decides,
    R044/R047/R056), once, when the holder's decision is taken (ruling 73).
    """
    st = ctx.state
    track = DECIDER[card]
    holder = st.holder(track)
    req = Request(
        key=ctx.key("westeros_choice", holder), kind="westeros_choice", house=holder,
        prompt=f"choose how {_card_name(card)} resolves", context={"card": card},
        options=tuple(WesterosChoice(card=card, option=o) for o in CHOICES[card]),
        default=WesterosChoice(card=card, option="nothing"),
    )
    reason = f"only the holder of {TOKEN_NAMES[track]} ({holder.title()}) chooses for {_card_name(card)} ({RULE[card]})"
    strays = [e for h in st.houses_in_play if h != holder for e in ctx.entries(h, "westeros_choice")
              if isinstance(e.command, WesterosChoice) and e.command.card == card]
    cmd = ctx.ask_refusing(Ask(req, lambda c: check_westeros_choice(card, c)), strays, lambda e: reason)
    assert isinstance(cmd, WesterosChoice)
    option = canonical_option(card, cmd.option)
    assert option is not None
    ctx.emit(WesterosChoiceMade(house=holder, card=card, option=option))
    return option

