"""The nine wildling cards: one registered function each (R106, R109).

Each function gets the :class:`Outcome` of the attack and applies the card: the Night's Watch
reward to the highest bidder, or the severe penalty to the lowest bidder and the lesser one to
every other house taking part, in turn order (read when the lesser penalties start). Choices are
asked with ``wildling_choice`` requests answered by :class:`~adjudicator.game.commands.WildlingChoice`;
the deadline default of each is in ``docs/decisions.md``. Numbers and texts stay in
``data/cards.toml``.

Units destroyed by a wildling card never let their house establish control (R110): nothing here
offers a power token; control is re-checked after every removal.

>>> sorted(WILDLING_CARDS) == sorted(CARDS.wildling_cards)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ...game.board import TRACKS, HouseId
from ...game.cards import CARDS
from ...game.commands import Command, Located, MusterAction, WildlingChoice
from ...game.state import GameState, Unit
from ..core.bidding import best_tracks, shift_on_track
from ..core.common import (
    after_control_change,
    available_units,
    destroy_units,
    gain_power,
    lose_power,
)
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.mustering import check_muster, legal_single_actions, muster, mustering_areas
from ..core.supply import CHEAP_FIRST, move_supply, reconcile, set_supply
from ..events.westeros import HouseCardsMoved, UnitsSwapped, WildlingEffect


@dataclass(frozen=True)
class Outcome:
    """What a wildling card needs to know about the attack that drew it."""

    card: str
    strength: int
    nights_watch_won: bool
    bids: tuple[tuple[HouseId, int], ...]  # every house taking part, in turn order
    highest: HouseId | None  # set when the Night's Watch won (ties already broken)
    lowest: HouseId | None  # set when the wildlings won
    attack: Callable[[int, frozenset[HouseId]], None]  # another attack: strength, houses left out

    def bid(self, house: HouseId) -> int:
        return dict(self.bids)[house]

    def everyone_else(self, state: GameState) -> list[HouseId]:
        """The houses taking the lesser penalty, in the turn order of this moment (R106)."""
        taking_part = dict(self.bids)
        return [h for h in state.turn_order() if h in taking_part and h != self.lowest]


@dataclass(frozen=True)
class WildlingCardEffect:
    card: str
    resolve: Callable[[Context, Outcome], None]
    needs_rank: bool = True  # False: the card ignores who bid most or least (no tie-break, ruling 74)


WILDLING_CARDS: dict[str, WildlingCardEffect] = {}


def wildling_card(card: str, fn: Callable[[Context, Outcome], None], *, needs_rank: bool = True) -> None:
    """Register the function that resolves one wildling card; called after the function, which
    stays plain so that ``make mutate`` mutates it (docs/testing.md)."""
    assert card in CARDS.wildling_cards, card
    WILDLING_CARDS[card] = WildlingCardEffect(card, fn, needs_rank)


# --- helpers --------------------------------------------------------------------------------


def _never_moves(state: GameState, house: HouseId) -> bool:
    """Mother of Dragons' Targaryen keeps position 8 of every track: a choice that would only move it
    on a track is not open to it (M097, M101, ruling 253)."""
    return house == "targaryen" and state.box.has("fixed_last")


def _name(card: str) -> str:
    return CARDS.wildling_cards[card].name


def _ask(
    ctx: Context, house: HouseId, card: str, role: str, prompt: str, context: dict[str, object],
    check: Callable[[WildlingChoice], str | None], default: WildlingChoice, only: WildlingChoice | None = None,
) -> WildlingChoice:
    """Ask one house one wildling-card choice (``role``: reward, severe or lesser)."""
    req = Request(
        key=ctx.key("wildling_choice", house), kind="wildling_choice", house=house,
        prompt=f"{_name(card)}: {prompt}", context={"card": card, "role": role, **context}, default=default,
    )

    def full(c: Command) -> Verdict | object:
        if not isinstance(c, WildlingChoice) or c.card != card:
            return NOT_APPLICABLE
        return check(c)

    cmd = ctx.ask(Ask(req, full, only=only))
    assert isinstance(cmd, WildlingChoice)
    return cmd


def _tally(units: tuple[Located, ...]) -> Counter[tuple[str, str]]:
    out: Counter[tuple[str, str]] = Counter()
    for loc in units:
        out[(loc.area, loc.unit)] += loc.count
    return out


def _check_units(
    state: GameState, house: HouseId, units: tuple[Located, ...], count: int, *,
    unit_type: str | None = None, one_area_of: list[str] | None = None, at_most: bool = False,
) -> str | None:
    """Why a list of the house's units does not fit the card, or ``None``."""
    if any(loc.count < 1 for loc in units):
        return "name each unit at least once (R109)"
    total = sum(loc.count for loc in units)
    if (total > count) if at_most else (total != count):
        return f"name {'at most' if at_most else 'exactly'} {count} unit{'s' if count != 1 else ''}, not {total} (R109)"
    for (area, unit), n in _tally(units).items():
        if unit_type and unit != unit_type:
            return f"only {unit_type.replace('_', ' ')}s can be chosen here, not a {unit.replace('_', ' ')} (R109)"
        have = sum(1 for u in state.area(area).units if u.house == house and u.type == unit)
        if have < n:
            return f"you have {have} {unit.replace('_', ' ')}(s) in {area.replace('_', ' ')}, not {n} (R109)"
    if one_area_of is not None:
        areas = {loc.area for loc in units}
        if len(areas) > 1 or not areas <= set(one_area_of):
            return f"the units must all be in one of {', '.join(a.replace('_', ' ') for a in one_area_of)} (R109)"
    return None


def _expand(state: GameState, house: HouseId, units: tuple[Located, ...]) -> list[tuple[str, Unit]]:
    """Named units as (area, unit) pairs, in the order named."""
    out: list[tuple[str, Unit]] = []
    for loc in units:
        out.extend((loc.area, Unit(house, loc.unit)) for _ in range(loc.count))
    return out


def _located(pairs: list[tuple[str, str]]) -> tuple[Located, ...]:
    """(area, unit type) pairs grouped into removals, keeping the order of first mention."""
    counts: dict[tuple[str, str], int] = {}
    for pair in pairs:
        counts[pair] = counts.get(pair, 0) + 1
    return tuple(Located(area=a, unit=u, count=n) for (a, u), n in counts.items())


def default_units(state: GameState, house: HouseId, n: int, areas: list[str] | None = None) -> tuple[Located, ...]:
    """``n`` units to lose by default: from the largest armies, cheapest units first."""
    left = {a: sorted((u.type for u in s.units if u.house == house), key=CHEAP_FIRST.index)
            for a, s in sorted(state.areas.items()) if areas is None or a in areas}
    picks: list[tuple[str, str]] = []
    for _ in range(n):
        most = max((len(v) for v in left.values()), default=0)
        if most == 0:
            break
        area = next(a for a in left if len(left[a]) == most)  # the first largest, in area order
        picks.append((area, left[area].pop(0)))
    return _located(picks)


def _destroy(ctx: Context, house: HouseId, units: tuple[Located, ...], card: str) -> None:
    by_area: dict[str, list[Unit]] = {}
    for area, unit in _expand(ctx.state, house, units):
        by_area.setdefault(area, []).append(unit)
    for area, lost in by_area.items():
        destroy_units(ctx, area, lost, _name(card))
    after_control_change(ctx)


def _destroy_penalty(ctx: Context, house: HouseId, card: str, role: str, n: int, areas: list[str] | None = None) -> None:
    """The house destroys ``n`` of its units (within ``areas`` if given, all in one of them);
    a house with fewer loses all it has (ruling 71)."""
    st = ctx.state
    pool = [(a, u) for a, u in st.units_of(house) if areas is None or a in areas]
    n = min(n, len(pool))
    if n == 0:
        return
    everything = _located([(a, u.type) for a, u in pool])
    forced = n == len(pool) and (areas is None or len({a for a, _ in pool}) == 1)
    only = WildlingChoice(card=card, units=everything) if forced else None
    names = [ctx.board.area(a).name for a in areas or ()]
    where = f" in one of {', '.join(names)}" if areas else " anywhere"
    choice = _ask(
        ctx, house, card, role, f"destroy {n} of your units{where}", {"units_to_destroy": n, "areas": areas or []},
        lambda c: _check_units(st, house, c.units, n, one_area_of=areas),
        WildlingChoice(card=card, units=default_units(st, house, n, areas) if not areas else _one_area_default(st, house, n, areas)),
        only,
    )
    _destroy(ctx, house, choice.units, card)


def _one_area_default(state: GameState, house: HouseId, n: int, areas: list[str]) -> tuple[Located, ...]:
    sizes = {a: sum(1 for u in state.area(a).units if u.house == house) for a in sorted(areas)}
    biggest = next(a for a in sizes if sizes[a] == max(sizes.values()))
    return default_units(state, house, n, [biggest])


# --- the nine cards -------------------------------------------------------------------------


def silence_at_the_wall(ctx: Context, out: Outcome) -> None:
    """Nothing happens, whoever won."""


wildling_card("silence_at_the_wall", silence_at_the_wall, needs_rank=False)


def preemptive_raid(ctx: Context, out: Outcome) -> None:
    """Watch: a second attack of strength 6 without the highest bidder. Wildlings: the lowest
    bidder destroys 2 units or drops 2 places on its best influence track (ruling 67)."""
    st = ctx.state
    if out.nights_watch_won:
        assert out.highest
        ctx.emit(WildlingEffect(house=out.highest, card=out.card, effect="sits out a second attack of strength 6"))
        out.attack(6, frozenset({out.highest}))
        return
    house = out.lowest
    assert house
    if _never_moves(st, house):  # dropping would not move it: it must destroy 2 units (ruling 253)
        _destroy_penalty(ctx, house, out.card, "severe", 2)
        return
    tracks = best_tracks(st, house)
    can_destroy = len(st.units_of(house)) >= 2

    def check(c: WildlingChoice) -> str | None:
        if c.track is not None and not c.units:
            return None if c.track in tracks else f"your highest influence track is {' or '.join(tracks)}, not {c.track} (R109)"
        if c.units and c.track is None:
            if not can_destroy:
                return "with fewer than 2 units you must drop on your highest influence track (ruling 67)"
            return _check_units(st, house, c.units, 2)
        return "choose either 2 units to destroy or the track to drop on, not both or neither (R109)"

    default = WildlingChoice(card=out.card, option="track", track=tracks[0])
    only = default if not can_destroy and len(tracks) == 1 else None
    choice = _ask(ctx, house, out.card, "severe", "destroy 2 of your units, or drop 2 places on your highest influence track",
                  {"tracks": tracks, "may_destroy": can_destroy}, check, default, only)
    if choice.units:
        _destroy(ctx, house, choice.units, out.card)
    else:
        assert choice.track
        place = min(st.position(choice.track, house) + 2, len(st.tracks[choice.track]))
        shift_on_track(ctx, choice.track, house, place, _name(out.card))


wildling_card("preemptive_raid", preemptive_raid)


def crow_killers(ctx: Context, out: Outcome) -> None:
    """Watch: up to 2 footmen become knights. Wildlings: the lowest bidder's knights all become
    footmen, everyone else's 2 knights; a knight with no footman left for it is destroyed."""
    st = ctx.state
    if out.nights_watch_won:
        assert out.highest
        _crow_killers_reward(ctx, out.highest, out.card)
        return
    assert out.lowest
    _knights_to_footmen(ctx, out.lowest, out.card, "severe", None)
    for house in out.everyone_else(st):
        _knights_to_footmen(ctx, house, out.card, "lesser", 2)


wildling_card("crow_killers", crow_killers)


def _crow_killers_reward(ctx: Context, house: HouseId, card: str) -> None:
    st, board = ctx.state, ctx.board
    footmen = sum(1 for _, u in st.units_of(house) if u.type == "footman")
    most = min(2, footmen, available_units(st, board, house, "knight"))
    decline = WildlingChoice(card=card)
    choice = _ask(ctx, house, card, "reward", f"replace up to {most} of your footmen with knights",
                  {"at_most": most}, lambda c: _check_units(st, house, c.units, most, unit_type="footman", at_most=True),
                  decline, decline if most == 0 else None)
    for area, _ in _expand(st, house, choice.units):
        units = st.area_mut(area).units
        units[units.index(Unit(house, "footman"))] = Unit(house, "knight")
        ctx.emit(UnitsSwapped(house=house, area=area, old="footman", new="knight", count=1))


def _knights_to_footmen(ctx: Context, house: HouseId, card: str, role: str, limit: int | None) -> None:
    """Knights (all, or ``limit`` of them) become footmen while footmen last; the rest are
    destroyed, in the order the house names them (ruling 69)."""
    st, board = ctx.state, ctx.board
    knights = [(a, u.type) for a, u in st.units_of(house) if u.type == "knight"]
    n = len(knights) if limit is None else min(limit, len(knights))
    if n == 0:
        return
    footmen = available_units(st, board, house, "footman")
    fixed_set = n == len(knights)
    spread = len({a for a, _ in knights}) > 1
    default = WildlingChoice(card=card, units=_located(knights[:n]))
    only = default if fixed_set and (footmen >= n or footmen == 0 or not spread) else None
    choice = _ask(ctx, house, card, role,
                  f"name {n} of your knights, in order: the first {min(footmen, n)} become footmen, the rest are destroyed",
                  {"knights": n, "footmen_available": footmen},
                  lambda c: _check_units(st, house, c.units, n, unit_type="knight"), default, only)
    lost: list[Located] = []
    for i, (area, _) in enumerate(_expand(st, house, choice.units)):
        if i < footmen:
            units = st.area_mut(area).units
            units[units.index(Unit(house, "knight"))] = Unit(house, "footman")
            ctx.emit(UnitsSwapped(house=house, area=area, old="knight", new="footman", count=1))
        else:
            lost.append(Located(area=area, unit="knight"))
    if lost:
        _destroy(ctx, house, tuple(lost), card)


def rattleshirts_raiders(ctx: Context, out: Outcome) -> None:
    """Watch: +1 supply. Wildlings: lowest bidder -2 supply, everyone else -1; armies reconciled."""
    st = ctx.state
    cause = _name(out.card)
    if out.nights_watch_won:
        assert out.highest
        set_supply(ctx, out.highest, st.houses[out.highest].supply + 1, cause)
        return
    assert out.lowest
    move_supply(ctx, out.lowest, st.houses[out.lowest].supply - 2, cause)
    others = out.everyone_else(st)
    for house in others:
        move_supply(ctx, house, st.houses[house].supply - 1, cause)
    reconcile(ctx, [out.lowest, *others])


wildling_card("rattleshirts_raiders", rattleshirts_raiders)


def massing_on_the_milkwater(ctx: Context, out: Outcome) -> None:
    """Watch: all discarded house cards back to hand. Wildlings: with 2+ cards in hand, the lowest
    bidder discards every card of its highest strength (ruling 68), everyone else one card."""
    st = ctx.state
    cause = _name(out.card)
    if out.nights_watch_won:
        assert out.highest
        hs = st.houses[out.highest]
        back, hs.hand, hs.discards = list(hs.discards), hs.hand + hs.discards, []
        ctx.emit(HouseCardsMoved(house=out.highest, cards=tuple(back), to="hand", cause=cause))
        return
    assert out.lowest
    hs = st.houses[out.lowest]
    if len(hs.hand) >= 2:
        top = max(CARDS.house_cards[c].strength for c in hs.hand)
        gone = [c for c in hs.hand if CARDS.house_cards[c].strength == top]
        _discard(ctx, out.lowest, gone, cause)
    for house in out.everyone_else(st):
        hand = st.houses[house].hand
        if len(hand) < 2:
            continue
        weakest = min(hand, key=lambda c: (CARDS.house_cards[c].strength, c))

        def check(c: WildlingChoice, hand: list[str] = hand) -> str | None:
            return None if c.house_card in hand else f"choose a house card in your hand: {', '.join(hand)} (R109)"

        choice = _ask(ctx, house, out.card, "lesser", "discard one house card from your hand", {"hand": list(hand)},
                      check, WildlingChoice(card=out.card, house_card=weakest))
        assert choice.house_card
        _discard(ctx, house, [choice.house_card], cause)


wildling_card("massing_on_the_milkwater", massing_on_the_milkwater)


def _discard(ctx: Context, house: HouseId, cards: list[str], cause: str) -> None:
    hs = ctx.state.houses[house]
    hs.hand = [c for c in hs.hand if c not in cards]
    earlier, hs.discards = list(hs.discards), hs.discards + cards
    ctx.emit(HouseCardsMoved(house=house, cards=tuple(cards), to="discards", cause=cause))
    if not hs.hand and earlier:
        # Ruling 68: an emptied hand takes back the earlier discards, as after a seventh card (R196).
        hs.hand, hs.discards = earlier, list(cards)
        ctx.emit(HouseCardsMoved(house=house, cards=tuple(earlier), to="hand", cause=f"{cause}: hand emptied"))


def a_king_beyond_the_wall(ctx: Context, out: Outcome) -> None:
    """Watch: the highest bidder may go to the top of one influence track. Wildlings: the lowest
    bidder goes to the bottom of all three; everyone else, in turn order, to the bottom of
    Fiefdoms or King's Court."""
    st = ctx.state
    cause = _name(out.card)
    if out.nights_watch_won:
        house = out.highest
        assert house
        open_tracks = [t for t in TRACKS if st.position(t, house) > 1 and not _never_moves(st, house)]
        decline = WildlingChoice(card=out.card)
        choice = _ask(ctx, house, out.card, "reward", "move to the top of one influence track, or decline",
                      {"tracks": open_tracks},
                      lambda c: None if c.track in (None, *TRACKS) else f"{c.track} is not an influence track (R109)",
                      decline, decline if not open_tracks else None)
        if choice.track:
            shift_on_track(ctx, choice.track, house, 1, cause)
        return
    assert out.lowest
    for track in TRACKS:
        shift_on_track(ctx, track, out.lowest, len(st.tracks[track]), cause)
    for house in [h for h in out.everyone_else(st) if not _never_moves(st, h)]:  # Targaryen: ruling 253
        lower = "kings_court" if st.position("kings_court", house) > st.position("fiefdoms", house) else "fiefdoms"
        choice = _ask(ctx, house, out.card, "lesser", "move to the bottom of the Fiefdoms or the King's Court track",
                      {"tracks": ["fiefdoms", "kings_court"]},
                      lambda c: None if c.track in ("fiefdoms", "kings_court") else "choose fiefdoms or kings_court (R109)",
                      WildlingChoice(card=out.card, track=lower))
        assert choice.track
        shift_on_track(ctx, choice.track, house, len(st.tracks[choice.track]), cause)


wildling_card("a_king_beyond_the_wall", a_king_beyond_the_wall)


def mammoth_riders(ctx: Context, out: Outcome) -> None:
    """Watch: one discarded house card back to hand. Wildlings: the lowest bidder destroys 3
    units anywhere, everyone else 2."""
    st = ctx.state
    if out.nights_watch_won:
        house = out.highest
        assert house
        discards = list(st.houses[house].discards)
        if not discards:
            return
        decline = WildlingChoice(card=out.card)
        choice = _ask(ctx, house, out.card, "reward", "take one house card back from your discards, or decline",
                      {"discards": discards},
                      lambda c: None if c.house_card in (None, *discards) else f"choose one of your discards: {', '.join(discards)} (R109)",
                      decline)
        if choice.house_card:
            hs = st.houses[house]
            hs.discards.remove(choice.house_card)
            hs.hand.append(choice.house_card)
            ctx.emit(HouseCardsMoved(house=house, cards=(choice.house_card,), to="hand", cause=_name(out.card)))
        return
    assert out.lowest
    _destroy_penalty(ctx, out.lowest, out.card, "severe", 3)
    for house in out.everyone_else(st):
        _destroy_penalty(ctx, house, out.card, "lesser", 2)


wildling_card("mammoth_riders", mammoth_riders)


def the_horde_descends(ctx: Context, out: Outcome) -> None:
    """Watch: muster in one castle or stronghold. Wildlings: the lowest bidder destroys 2 units in
    one of its castle areas, or anywhere if no castle area holds 2 (ruling 70); everyone else 1."""
    st, board = ctx.state, ctx.board
    if out.nights_watch_won:
        assert out.highest
        _horde_muster(ctx, out.highest, out.card)
        return
    house = out.lowest
    assert house
    castles = [a for a in mustering_areas(st, board, house)
               if sum(1 for u in st.area(a).units if u.house == house) >= 2]
    _destroy_penalty(ctx, house, out.card, "severe", 2, castles or None)
    for other in out.everyone_else(st):
        _destroy_penalty(ctx, other, out.card, "lesser", 1)


wildling_card("the_horde_descends", the_horde_descends)


def _horde_muster(ctx: Context, house: HouseId, card: str) -> None:
    st, board = ctx.state, ctx.board
    areas = {a: st.effective_area(a, board).muster_points for a in mustering_areas(st, board, house)}
    usable = [a for a, p in areas.items() if legal_single_actions(st, board, house, a, p)]

    def check(c: WildlingChoice) -> str | None:
        if c.area is None:
            return None if not c.muster else "name the castle or stronghold you muster in (R109)"
        if c.area not in areas:
            return check_muster(st, board, house, c.area, (), 0) or f"you cannot muster in {c.area} (R109)"
        return check_muster(st, board, house, c.area, c.muster, areas[c.area])

    decline = WildlingChoice(card=card)
    choice = _ask(ctx, house, card, "reward", "muster in one of your castles or strongholds, or decline",
                  {"areas": areas}, check, decline, decline if not usable else None)
    if choice.area:
        actions: tuple[MusterAction, ...] = choice.muster
        muster(ctx, house, choice.area, actions, areas[choice.area])


def skinchanger_scout(ctx: Context, out: Outcome) -> None:
    """Watch: the highest bidder takes back the power it bid. Wildlings: the lowest bidder
    discards all its available power, everyone else 2."""
    st = ctx.state
    cause = _name(out.card)
    if out.nights_watch_won:
        assert out.highest
        gain_power(ctx, out.highest, out.bid(out.highest), cause)
        return
    assert out.lowest
    for house, amount in ((out.lowest, st.houses[out.lowest].power), *((h, 2) for h in out.everyone_else(st))):
        if st.houses[house].power:
            lose_power(ctx, house, amount, cause)
        else:  # said in words: a loss of nothing would read as a gain of 0
            ctx.emit(WildlingEffect(house=house, card=out.card, effect="has no power to discard"))


wildling_card("skinchanger_scout", skinchanger_scout)
