"""Position files: any game position as short, readable TOML (see ``docs/positions.md``).

A position names its houses; everything it leaves out takes the setup value for those houses,
so a test position can be a few lines long. :func:`~adjudicator.game.position_dump.dump_position`
writes every field, and :func:`load_position` reads it back to an equal state.

>>> state = load_position('''
... houses = ["stark", "lannister", "baratheon"]
... phase = "action"
... start = "empty"
... [areas]
... winterfell = { units = ["2 stark footmen", "stark knight"], order = "march+1" }
... ''', filename="doc.toml")
>>> state.area("winterfell").units[2], state.area("winterfell").order
(Unit(house='stark', type='knight', routed=False), Order(house='stark', token='march+1'))
>>> from adjudicator.game.position_dump import dump_position
>>> load_position(dump_position(state), filename="again.toml") == state
True
>>> load_position('houses = ["stark", "lannister", "baratheon"]\\n[areas]\\nwinterfel = []', filename="t.toml")
Traceback (most recent call last):
...
adjudicator.game.position.PositionError: t.toml:3: areas.winterfel: unknown area 'winterfel'; did you mean 'winterfell'?
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from .board import ALL_HOUSES, HOUSES, TRACKS, Board, HouseId
from .boxes import DEFAULT_BOX, Box, box_named, box_names
from .cards import CARDS, HOUSE_DECKS
from .commands import ALL_ORDER_TOKENS, ORDER_TOKENS, VASSAL_KEPT_TOKENS
from .keyed_toml import DataFileError, KeyedReader, show, suggest
from .mod_setup import check_mod_houses
from .position_mod import MOD_AREA_KEYS, MOD_HOUSE_KEYS, MOD_TABLE, read_expansion
from .setup import SetupError, check_houses
from .state import (
    CYCLE_STEPS,
    PHASES,
    PLURALS,
    STEPS,
    AreaState,
    GameState,
    Order,
    Segment,
    StateError,
    Unit,
    validate_dict,
    validate_engine,
)

POSITION_FORMAT = 1
DEFAULT_SEED = "position"
KEPT_AS = {kept: token for token, kept in VASSAL_KEPT_TOKENS.items()}  # a vassal token's other face (M047, M051)

# ``houses`` lists the houses in play; their holdings live under ``[house.<id>]`` (TOML cannot
# hold both a list and tables under one key).
TOP_KEYS = (
    "position_format", "game_id", "round", "phase", "step", "cycle_done", "houses", "start", "wildling_threat",
    "kings_court_overlay", "impassable", "restrictions", "winner", "tracks", "dominance", "house",
    "areas", "decks", "options", "rng", "engine", "expansion", MOD_TABLE,
)
HOUSE_KEYS = ("power", "supply", "hand", "discards")
AREA_KEYS = ("units", "order", "power_token", "garrison", "garrison_house", "neutral_force")
DECK_KEYS = (
    "westeros_1", "westeros_2", "westeros_3", "westeros_1_discards", "westeros_2_discards",
    "westeros_3_discards", "westeros_revealed", "wildling", "tides", "tides_discards",
)
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
OPTION_KEYS = ("tides_of_battle", "tides_reshuffle_each_combat")  # each true or false
SETTING_KEYS = {"setup": str, "rounds": int, "victory_target": int,  # table settings a setup chose (docs/setups.md)
                "random_houses": dict}  # seat = house, drawn by the seed (ruling 450)
DECK_OPTION = "house_cards"  # the house deck dealt: "base" or "adwd" (cards.HOUSE_DECKS)

_UNIT_WORDS = {
    "footman": "footman", "footmen": "footman", "knight": "knight", "knights": "knight",
    "ship": "ship", "ships": "ship", "siege_engine": "siege_engine", "siege_engines": "siege_engine",
    "siege engine": "siege_engine", "siege engines": "siege_engine", "dragon": "dragon", "dragons": "dragon",
}
_UNIT_RE = re.compile(
    r"^\s*(?:(?P<count>\d+)\s+)?(?P<house>[a-z_]+)\s+(?P<unit>siege[ _]engines?|[a-z]+)(?P<routed>\s+routed)?\s*$",
    re.IGNORECASE,
)


class PositionError(DataFileError):
    """A position file that cannot be read: names the file, the line and the key at fault."""


def read_position(path: str | Path, *, board: Board | None = None, seed: str = DEFAULT_SEED) -> GameState:
    """Load a position file from disk.

    :raises PositionError: for an unreadable or malformed file.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(str(path), None, "", f"cannot read the file: {e}") from None
    return load_position(text, filename=str(path), board=board, seed=seed)


def load_position(
    text: str, *, filename: str = "<position>", board: Board | None = None, seed: str = DEFAULT_SEED
) -> GameState:
    """The game state a position file describes; ``seed`` shuffles the decks it leaves out.

    :raises PositionError: for TOML syntax errors, unknown keys or ids, wrong types, and any
        position the box cannot hold (11 footmen, two orders in one area, a ship on land ...).
    """
    return _Reader(text, filename, board or Board.classic(), seed).read()


# --- reading ------------------------------------------------------------------------------------


class _Reader(KeyedReader):
    """One pass over one file; every failure names the key and, where known, its line."""

    error = PositionError

    def __init__(self, text: str, filename: str, board: Board, seed: str) -> None:
        super().__init__(text, filename)
        self.board, self.seed = board, seed

    @property
    def expansion(self) -> bool:
        """True while reading a Mother of Dragons position (its own keys, houses, units and tokens)."""
        return self.box.has("vassals")

    @property
    def box(self) -> Box:
        return box_named(self.variant)

    variant = DEFAULT_BOX

    def read(self) -> GameState:
        data = self.parse()
        self.known_keys(data, TOP_KEYS, "")
        self.whole_numbers(data)
        fmt = self.get(data, "position_format", "", int, POSITION_FORMAT)
        if fmt != POSITION_FORMAT:
            self.fail("position_format", f"this Maester reads position format {POSITION_FORMAT}, not {fmt}")
        expansion = self.get(data, "expansion", "", str, "")
        expansions = [b for b in box_names() if box_named(b).expansion]
        if expansion and expansion not in expansions:
            self.fail("expansion", f"unknown expansion {expansion!r}; the expansions are {', '.join(expansions)}")
        self.variant = expansion or DEFAULT_BOX
        houses = self.str_list(data, "houses", "", None)
        if houses is None:
            self.fail("houses", "a position must name its houses, e.g. houses = [\"stark\", \"lannister\", \"baratheon\"]")
        try:
            # a box's own map seats its houses (A Feast for Crows: Arryn on the base map)
            in_play = check_mod_houses(houses) if self.expansion else check_houses(houses, self.box.board(self.box.houses))
        except SetupError as e:
            self.fail("houses", str(e))
        self.board = self.box.board(in_play)
        rng = self.get(data, "rng", "", dict, {})
        self.known_keys(rng, ("seed", "counter"), "rng.")
        options = self.get(data, "options", "", dict, {})
        self.known_keys(options, OPTION_KEYS + (DECK_OPTION, *SETTING_KEYS), "options.")
        for key in OPTION_KEYS:
            self.get(options, key, "options.", bool, None)
        for key, kind in SETTING_KEYS.items():
            self.get(options, key, "options.", kind, None)
        if not 1 <= options.get("rounds", 1) <= self.board.constants["rounds"]:
            self.fail("options.rounds", f"a game has 1 to {self.board.constants['rounds']} rounds, not {options['rounds']}")
        castles = sum(a.fortification != "none" for a in self.board.areas.values())
        if not 1 <= options.get("victory_target", 1) <= castles:
            self.fail("options.victory_target", f"the map has {castles} castles and strongholds: a target of 1 to "
                      f"{castles}, not {options['victory_target']}")
        tides = self.get(options, "tides_of_battle", "options.", bool, False)
        deck = self.get(options, DECK_OPTION, "options.", str, "base")
        if deck not in HOUSE_DECKS:
            self.fail(f"options.{DECK_OPTION}", f"unknown house deck {deck!r}; the house decks are {', '.join(HOUSE_DECKS)}")
        from .variants import variant  # the setups sit above the position reader's own imports

        state = variant(self.variant).setup(
            in_play,
            seed=self.get(rng, "seed", "rng.", str, self.seed),
            game_id=self.get(data, "game_id", "", str, "game"),
            tides_of_battle=tides,
            board=self.board,
            house_cards=deck,
        )
        state.options.update(options)
        seated = sorted(str(h) for h in options.get("random_houses", {}).values())
        if "random_houses" in options and seated != sorted(state.players()):
            self.fail("options.random_houses", f"seats each house in play once (seat = house): {', '.join(state.players())}")
        state.rng_counter = self.get(rng, "counter", "rng.", int, state.rng_counter)
        if state.rng_counter < 0:
            self.fail("rng.counter", "cannot be negative")
        self.read_game(data, state)
        self.read_houses(data, state)
        self.read_areas(data, state)
        self.read_decks(data, state)
        if self.expansion:
            read_expansion(self, data, state)
        elif MOD_TABLE in data:
            self.fail(MOD_TABLE, "belongs to a Mother of Dragons position: add expansion = \"mother-of-dragons\"")
        self.read_engine(data, state)
        self.check_orders_have_units(state)
        state.tidy()
        problems = state.check(self.board)
        if problems:
            self.fail("", "the box cannot hold this position: " + "; ".join(problems))
        return state

    def read_game(self, data: dict[str, Any], state: GameState) -> None:
        state.round = self.get(data, "round", "", int, 1)
        if not 1 <= state.round <= state.last_round():
            self.fail("round", f"a game has rounds 1 to {state.last_round()}, not {state.round}")
        state.phase = self.get(data, "phase", "", str, "planning")
        if state.phase not in PHASES:
            self.fail("phase", f"unknown phase {state.phase!r}; the phases are {', '.join(PHASES)}")
        state.step = self.get(data, "step", "", str, "")
        if state.step not in STEPS[state.phase]:
            steps = ", ".join(repr(x) for x in STEPS[state.phase])
            self.fail("step", f"{state.step!r} is not a step of the {state.phase} phase; its steps are {steps}")
        threat = self.get(data, "wildling_threat", "", int, state.wildling_threat)
        if threat not in self.board.constants["wildling_track"]:
            self.fail("wildling_threat", f"the wildling track has the spaces 0, 2, 4 ... 12, not {threat}")
        state.wildling_threat = threat
        state.kings_court_overlay = self.get(data, "kings_court_overlay", "", bool, state.kings_court_overlay)
        impassable = self.str_list(data, "impassable", "", state.impassable) or []
        for a in impassable:
            self.area_id(a, "impassable")
        state.impassable = list(impassable)
        restrictions = self.str_list(data, "restrictions", "", []) or []
        for r in restrictions:
            if r not in ORDER_KINDS:
                self.fail("restrictions", f"unknown order kind {r!r}; the kinds are {', '.join(ORDER_KINDS)}")
        state.restrictions = restrictions
        winner = self.get(data, "winner", "", str, None)
        if winner is not None and winner not in state.houses_in_play:
            self.fail("winner", f"{winner!r} is not a house in play")
        state.winner = winner
        tracks = self.get(data, "tracks", "", dict, {})
        self.known_keys(tracks, TRACKS, "tracks.")
        for t in TRACKS:
            order = self.str_list(tracks, t, "tracks.", None)
            if order is None:
                continue
            if sorted(order) != sorted(state.houses_in_play):
                self.fail(f"tracks.{t}", f"must list each house in play once: {', '.join(state.houses_in_play)}")
            state.tracks[t] = order
        dominance = self.get(data, "dominance", "", dict, {})
        self.known_keys(dominance, ("blade_used", "raven_used"), "dominance.")
        state.blade_used = self.get(dominance, "blade_used", "dominance.", bool, False)
        state.raven_used = self.get(dominance, "raven_used", "dominance.", bool, False)
        done = self.str_list(data, "cycle_done", "", []) or []
        for h in done:
            self.house(h, "cycle_done", state)
        if done and state.step not in CYCLE_STEPS:
            self.fail("cycle_done", f"only the steps {', '.join(CYCLE_STEPS)} of the action phase go in cycles, "
                      f"not {state.phase} {state.step or 'start'}")
        if len(set(done)) != len(done):
            self.fail("cycle_done", "names a house twice: each resolves one order per cycle")
        state.cycle_done = done

    def read_houses(self, data: dict[str, Any], state: GameState) -> None:
        table = self.get(data, "house", "", dict, {})
        for h, d in table.items():
            path = f"house.{h}."
            if h not in state.houses_in_play:
                self.fail(f"house.{h}", f"{h!r} is not a house in play{suggest(h, state.houses_in_play)}")
            if not isinstance(d, dict):
                self.fail(f"house.{h}", f"expected a table, got {show(d)}")
            self.known_keys(d, HOUSE_KEYS + (MOD_HOUSE_KEYS if self.expansion else ()), path)
            hs = state.houses[h]
            hs.power = self.get(d, "power", path, int, hs.power)
            if hs.power < 0:
                self.fail(f"{path}power", "cannot be negative")
            hs.supply = self.get(d, "supply", path, int, hs.supply)
            if not 0 <= hs.supply <= self.board.constants["supply_track_max"]:
                self.fail(f"{path}supply", f"the supply track runs from 0 to 6, not {hs.supply}")
            own = [] if state.is_vassal(h) else CARDS.hand_of(h, state.card_sets())  # a vassal has no house cards (M010)
            discards = self.str_list(d, "discards", path, []) or []
            hand = self.str_list(d, "hand", path, [c for c in own if c not in discards]) or []
            for key, cards in (("hand", hand), ("discards", discards)):
                for c in cards:
                    if c not in own:
                        self.fail(f"{path}{key}", f"{c!r} is not a house card of {h}{suggest(c, own)}")
            twice = [c for c, n in Counter(hand + discards).items() if n > 1]
            if twice:
                self.fail(f"{path}hand", f"{twice[0]!r} appears twice in the hand and discards")
            hs.hand, hs.discards = hand, discards

    def read_areas(self, data: dict[str, Any], state: GameState) -> None:
        start = self.get(data, "start", "", str, "setup")
        if start not in ("setup", "empty"):
            self.fail("start", f"expected 'setup' or 'empty', not {start!r}")
        if start == "empty":
            state.areas.clear()
        table = self.get(data, "areas", "", dict, {})
        for area_id, entry in table.items():
            path = f"areas.{area_id}"
            self.area_id(area_id, path)
            if isinstance(entry, list):
                entry = {"units": entry}
            if not isinstance(entry, dict):
                self.fail(path, f"expected a list of units or a table, got {show(entry)}")
            self.known_keys(entry, AREA_KEYS + (MOD_AREA_KEYS if self.expansion else ()), path + ".")
            self.read_area(area_id, entry, state.area_mut(area_id), state)
        self.check_area_limits(state)

    def read_area(self, area_id: str, entry: dict[str, Any], st: AreaState, state: GameState) -> None:
        path = f"areas.{area_id}."
        units = self.str_list(entry, "units", path, None)
        if units is not None:
            st.units = [u for spec in units for u in self.units(spec, f"{path}units", state)]
        if "order" in entry:
            st.order = self.order(self.get(entry, "order", path, str, ""), f"{path}order", st)
        if "power_token" in entry:
            token = self.get(entry, "power_token", path, str, "")
            st.power_token = self.house(token, f"{path}power_token", state) if token else None
        st.garrison = self.get(entry, "garrison", path, int, st.garrison)
        if st.garrison < 0:
            self.fail(f"{path}garrison", "cannot be negative")
        if "garrison_house" in entry:  # a garrison outside its house's home area (a box's setup)
            owner = self.get(entry, "garrison_house", path, str, "")
            st.garrison_house = self.house(owner, f"{path}garrison_house", state) if owner else None
        nf = self.get(entry, "neutral_force", path, int, st.neutral_force or 0)
        if nf < 0:
            self.fail(f"{path}neutral_force", "cannot be negative")
        st.neutral_force = nf or None

    def units(self, spec: str, key: str, state: GameState) -> list[Unit]:
        m = _UNIT_RE.match(spec)
        if not m:
            self.fail(key, f"cannot read {spec!r}; write e.g. \"stark footman\", \"2 stark knights\" or \"stark ship routed\"")
        house = self.house(m["house"].lower(), key, state)
        word = m["unit"].lower().replace("_", " ")
        unit = _UNIT_WORDS.get(word) or _UNIT_WORDS.get(word.replace(" ", "_"))
        if unit is None or (unit == "dragon" and not self.box.has("dragons")):
            more = ", dragon" if self.box.has("dragons") else ""
            self.fail(key, f"unknown unit {m['unit']!r}; the units are footman, knight, ship, siege engine{more}")
        digits = (m["count"] or "1").lstrip("0") or "0"
        limit = self.board.unit_limit(unit, house)
        if limit == 0:
            self.fail(key, f"{house} has no {PLURALS[unit]} (M087)")
        if len(digits) > 2 or not 1 <= int(digits) <= limit:  # checked before a single unit is built
            shown = digits if len(digits) <= 12 else f"{digits[:6]}...({len(digits)} digits)"
            self.fail(key, f"cannot place {shown} {PLURALS[unit]}: a house has 1 to {limit}")
        return [Unit(house, unit, bool(m["routed"])) for _ in range(int(digits))]

    def order(self, text: str, key: str, st: AreaState) -> Order | None:
        words = text.split()
        if not words:
            return None
        if len(words) > 2:
            self.fail(key, f"cannot read {text!r}; write e.g. \"march+1\" or \"stark march+1\"")
        token = words[-1].lower()
        known = ALL_ORDER_TOKENS if self.expansion else ORDER_TOKENS
        if token not in known:
            self.fail(key, f"unknown order token {token!r}; the tokens are {', '.join(known)}")
        if len(words) == 2:
            house = words[0].lower()
            houses = ALL_HOUSES if self.expansion else HOUSES
            if house not in houses:
                self.fail(key, f"unknown house {house!r}{suggest(house, houses)}")
        elif st.units:
            house = st.units[0].house
        else:
            self.fail(key, "an order needs units of its house in the area (R111)")
        return Order(house, token)

    def house(self, name: str, key: str, state: GameState) -> HouseId:
        if name not in state.houses_in_play:
            what = "house in play" if name in (ALL_HOUSES if self.expansion else HOUSES) else "house"
            self.fail(key, f"{name!r} is not a {what}{suggest(name, state.houses_in_play)}")
        return name

    def area_id(self, area_id: str, key: str) -> str:
        if area_id not in self.board.areas:
            self.fail(key, f"unknown area {area_id!r}{suggest(area_id, list(self.board.areas))}")
        return area_id

    def check_orders_have_units(self, state: GameState) -> None:
        """Every order stands with its units (R115), except in a combat under way, whose orders stay
        until its clean-up (ruling 50): known only once the engine's records are read."""
        fighting = state.combat_under_way()
        for area_id, st in sorted(state.areas.items(), key=lambda kv: self.lines.get(("areas", kv[0]), 0)):
            if st.order and area_id not in fighting and all(u.house != st.order.house for u in st.units):
                name = self.board.area(area_id).name
                self.fail(f"areas.{area_id}.order", f"an order of {st.order.house} needs its units in {name} (R115)")

    def check_area_limits(self, state: GameState) -> None:
        """Per-area limits, reported against the area's own key and line."""
        seen: Counter[tuple[str, str]] = Counter()
        orders: Counter[tuple[str, str]] = Counter()
        in_file_order = sorted(state.areas.items(), key=lambda kv: self.lines.get(("areas", kv[0]), 0))
        for area_id, st in in_file_order:  # so an excess is reported where the file adds it
            a, key = self.board.area(area_id), f"areas.{area_id}"
            houses = sorted({u.house for u in st.units})
            if len(houses) > 1:
                self.fail(f"{key}.units", f"units of {' and '.join(houses)} cannot share an area: entering an area held by another house starts a combat (R147)")
            for u in st.units:
                if u.type == "ship" and a.is_land:
                    self.fail(f"{key}.units", f"{a.name} is a land area: ships stay at sea or in a port (R145)")
                if u.type != "ship" and not a.is_land:
                    self.fail(f"{key}.units", f"{a.name} is a {a.kind} area: only ships may be there (R145, R250)")
                seen[(u.house, u.type)] += 1
                if seen[(u.house, u.type)] > (limit := self.board.unit_limit(u.type, u.house)):
                    self.fail(f"{key}.units", f"{u.house} has more than {limit} {PLURALS[u.type]}; the box holds {limit}")
            if a.is_port and len(st.units) > self.board.constants["port_max_ships"]:
                self.fail(f"{key}.units", f"{a.name} holds {len(st.units)} ships; a port holds 3 (R250)")
            if st.order:
                token = KEPT_AS.get(st.order.token, st.order.token)  # a token turned to its other face (M047)
                orders[(st.order.house, token)] += 1
                owned = state.order_tokens(st.order.house).get(token, 0)
                if not owned:
                    self.fail(f"{key}.order", f"{st.order.house} owns no '{st.order.token}' order token (a vassal "
                              "has only vassal orders, a player none, M039, M114)")
                if orders[(st.order.house, token)] > owned:
                    self.fail(f"{key}.order", f"{st.order.house} owns only {owned} '{st.order.token}' order token(s)")
            if st.power_token and not a.is_land:
                self.fail(f"{key}.power_token", f"power tokens are placed in land areas only, not in {a.name}")
            if area_id in state.impassable and (st.units or st.order or st.power_token):
                self.fail(key, f"{a.name} is impassable in this game")
            owner = st.garrison_house or a.home_of
            if st.garrison and (owner not in state.houses_in_play or set(houses) - {owner}):
                self.fail(f"{key}.garrison", "a garrison lies only on the home area of a house in play (or where "
                          "the box's setup put one, garrison_house), and never under enemy units (R225, R228)")
            if st.neutral_force and (st.units or st.power_token):
                self.fail(f"{key}.neutral_force", "a neutral force holds its area alone: units enter only by destroying it (R231, R233)")

    def read_decks(self, data: dict[str, Any], state: GameState) -> None:
        decks = self.get(data, "decks", "", dict, {})
        numbers = ("1", "2", "3", "4") if "4" in state.westeros_decks else ("1", "2", "3")  # IV: Mother of Dragons
        self.known_keys(decks, DECK_KEYS + (("westeros_4", "westeros_4_discards") if len(numbers) == 4 else ()),
                        "decks.")  # fmt: skip
        revealed = self.revealed(decks, state)
        # A revealed card lies face up until its deck's turn (step card_N resolves deck N); a resolved
        # one is in its discard pile (or, Winter is Coming, shuffled back into its deck).
        first = int(state.step.removeprefix("card_")) if state.step.startswith("card_") else 1
        for n in numbers:
            box = CARDS.westeros_deck(int(n), state.box.westeros_set(int(n)))
            up = [revealed[int(n) - 1]] if len(revealed) >= int(n) and int(n) >= first else []
            deck = self.str_list(decks, f"westeros_{n}", "decks.", state.westeros_decks[n]) or []
            discards = self.str_list(decks, f"westeros_{n}_discards", "decks.", state.westeros_discards[n]) or []
            if f"westeros_{n}" not in decks:  # a deck left out holds the box's other cards, in the setup's order
                for card in discards + up:
                    if card in deck:
                        deck.remove(card)
            self.box_cards(f"decks.westeros_{n}", deck, discards + up, box,
                           f"Westeros deck {'IV' if n == '4' else 'I' * int(n)}")
            state.westeros_decks[n], state.westeros_discards[n] = deck, discards
        wild = self.str_list(decks, "wildling", "decks.", state.wildling_deck) or []
        self.box_cards("decks.wildling", wild, [], sorted(CARDS.wildling_cards), "the wildling deck")
        state.wildling_deck = wild
        tides = self.str_list(decks, "tides", "decks.", state.tides_deck) or []
        tides_discards = self.str_list(decks, "tides_discards", "decks.", state.tides_discards) or []
        self.box_cards("decks.tides", tides, tides_discards, CARDS.tides_deck(), "the Tides of Battle deck")
        state.tides_deck, state.tides_discards = tides, tides_discards

    def revealed(self, decks: dict[str, Any], state: GameState) -> list[str]:
        """The Westeros cards face up in this phase, deck I first: from "threat" to "card_3" only."""
        cards = self.str_list(decks, "westeros_revealed", "decks.", []) or []
        needed = state.phase == "westeros" and state.step != ""
        four = "4" in state.westeros_decks  # Mother of Dragons with Targaryen: deck IV too (M082)
        if needed and len(cards) != (4 if four else 3):
            self.fail("decks.westeros_revealed" if cards else "step",
                      f"the Westeros step {state.step!r} needs the {'four' if four else 'three'} cards revealed this "
                      "phase, deck I first: [decks] westeros_revealed = [\"...\", \"...\", \"...\""
                      + (", \"...\"]" if four else "]"))
        if cards and not needed:
            self.fail("decks.westeros_revealed", "cards lie face up only from the Westeros step 'threat' to "
                      + ("'card_4'" if four else "'card_3'"))
        for n, card in enumerate(cards, 1):
            box = CARDS.westeros_deck(n, state.box.westeros_set(n))
            if card not in box:
                self.fail("decks.westeros_revealed", f"{card!r} is not in Westeros deck {'I' * n}{suggest(card, box)}")
        state.westeros_revealed = cards
        return cards

    def box_cards(self, key: str, deck: list[str], discards: list[str], box: list[str], name: str) -> None:
        have, owned = Counter(deck + discards), Counter(box)
        for card, n in have.items():
            if card not in owned:
                self.fail(key, f"{card!r} is not in {name}{suggest(card, list(owned))}")
            if n > owned[card]:
                self.fail(key, f"{name} holds {owned[card]} {card!r}, not {n}")

    def read_engine(self, data: dict[str, Any], state: GameState) -> None:
        engine = self.get(data, "engine", "", dict, {})
        self.known_keys(engine, ("pending", "answers", "segment", "decisions_asked", "unasked"), "engine.")
        state.decisions_asked = self.get(engine, "decisions_asked", "engine.", int, 0)
        if state.decisions_asked < 0:
            self.fail("engine.decisions_asked", "cannot be negative")
        for key in ("pending", "answers", "unasked"):
            for i, entry in enumerate(self.get(engine, key, "engine.", list, []), 1):
                if not isinstance(entry, dict):
                    self.fail(f"engine.{key}", f"entry {i}: expected a table, got {show(entry)}")
        state.pending = [dict(p) for p in engine.get("pending", [])]
        state.answers = [dict(a) for a in engine.get("answers", [])]
        state.unasked = [dict(u) for u in engine.get("unasked", [])]
        seg = self.get(engine, "segment", "engine.", dict, None)
        try:  # every part of its type before anything is built from it (decisions = "ab" was a ValueError)
            if seg is not None:
                validate_dict({**state.to_dict(), "segment": seg})
                state.segment = Segment(
                    name=seg["name"], start=seg["start"], decisions=dict(seg.get("decisions", {})),
                    used=list(seg.get("used", [])), events_seen=seg.get("events_seen", 0),
                )
            validate_engine(state.to_dict())
        except StateError as e:
            key, _, message = str(e).partition(": ")
            self.fail(f"engine.{key}" if key.startswith(("pending", "answers", "segment", "unasked")) else key, message)


# --- writing ------------------------------------------------------------------------------------


# --- helpers ------------------------------------------------------------------------------------


