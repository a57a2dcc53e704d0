r"""Turn files: plain text in, typed commands out, and back again.

:func:`parse_turn_file` reads what a player sent: :func:`diagnostics.read_source` cleans the
text and cuts it into logical lines, each line is parsed with the Lark grammar in
``grammar/turnfile.lark``, and names are resolved by :mod:`adjudicator.turnfile.names`. A bad line never
hides the others: it becomes a problem with its line and column, and the valid lines stand.
:func:`~adjudicator.turnfile.printer.format_command` prints a command in the canonical form;
parsing the printed text gives the same command back.

>>> tf = parse_turn_file("Winterfall: march +1\nKarhold: raid*\n", filename="stark.txt")
>>> [format_command(c) for c in tf.commands]
['Winterfell: march +1', 'Karhold: raid*']
>>> print(tf.warnings[0])
stark.txt:1:1: W101 area 'Winterfall' read as 'Winterfell'
>>> print(parse_turn_file("Winterfell: parade\n").problems[0])
<turn>:1:13: E108 unknown order 'parade'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import PatternStr

from ..game import commands as C
from ..game.boxes import DEFAULT_BOX, box_named
from ..game.commands import Command, Where
from . import grammar
from .adwd_lines import DanceLines, adwd_form
from .diagnostics import (
    FOOTNOTES,
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    MAX_PROBLEMS,
    AmbiguousName,
    IllegalOrder,
    InvalidLine,
    Notice,
    SourceLine,
    TurnFileError,
    command_word_hint,
    header_hint,
    read_source,
    syntax_problem,
)
from .header import Header, HeaderError, format_header, read_header
from .linebuild import MAX_UNITS_NAMED, NO_ONE, Built, LineContext, Name, OrderText, muster_actions
from .names import (
    CARD_CHOICES,
    FORM_EXAMPLES,
    INFLUENCE_TRACKS,
    KEYWORD_OPTIONS,
    LOAN_WORDS,
    OPTION_WORDS,
    ORDER_KINDS,
    ORDER_TEXT,
    SEA_ORDER_WORDS,
    SPY_DECK_WORDS,
    SPY_PLACES,
    UNCLEAR_CHOICES,
    box_of,
    choice_forms_text,
    current_vocabulary,
    display_name,
    form_text,
    lookup,
    normalise,
    order_suggestions,
    vocabulary,
)
from .objective_lines import ObjectiveLines
from .parser_mod import deck_iv_form, distribute, mod_line, westeros_choice
from .printer import format_command
from .standing_lines import StandingLines
from .vassal_lines import VassalLines

__all__ = [
    "MAX_FILE_BYTES", "MAX_LINE_CHARS", "AmbiguousName", "IllegalOrder", "InvalidLine", "TurnFile", "TurnFileError",
    "parse_turn_file",
]

_SIDES = {"attacker": "attacker", "defender": "defender", "nobody": None, "no one": None, "noone": None}
_WHEN_TYPES = frozenset(t for t in C.COMMAND_TYPES if "when" in {f.name for f in fields(t)})


# --- the grammar ------------------------------------------------------------------------------


@cache
def _parser() -> Lark:
    """The parser, built once, with the line builder run inline (no parse tree is kept)."""
    return grammar.parser(_Lines())


@cache
def _expected_words() -> dict[str, str]:
    words = {t.name: f"'{t.pattern.value}'" for t in _parser().terminals if isinstance(t.pattern, PatternStr)}
    words |= {"WORD": "a name", "INT": "a number", "MODIFIER": "a modifier such as +1", "_NL": "the end of the line",
              "$END": "the end of the line", "_WS": "a space"}
    return words


def _only(ch: list[Any], kind: type) -> list[Any]:
    return [c for c in ch if isinstance(c, kind)]


def _tagged(ch: list[Any], tag: str) -> list[Any]:
    return [c for c in ch if isinstance(c, tuple) and not isinstance(c, (Name, OrderText)) and c and c[0] == tag]


# --- the line builder: grammar rules -> commands -------------------------------------------------


def _tag(tag: str, keep: str = "") -> Callable[[Any, list[Any]], Any]:
    """A callback for a rule that only tags what it holds: all children, the first, or none."""
    if keep == "all":
        return lambda self, ch: (tag, ch)
    if keep == "first":
        return lambda self, ch: (tag, ch[0])
    return lambda self, ch: (tag, []) if keep == "empty" else (tag,)


class _Lines(VassalLines, StandingLines, DanceLines, ObjectiveLines, Transformer[Token, Any]):
    """Shapes each rule's children; the rules that end a line resolve names and build a command."""

    # names and small pieces
    def words(self, ch: list[Any]) -> Any:
        return [ch[0]] if len(ch) == 1 else ch[0] + [ch[1]]

    head_words = card_words = words

    def name(self, ch: list[Any]) -> Any:
        toks = ch[0]
        return Name(" ".join(toks), toks[0].column, toks[-1].end_column)

    head_name = card_name = name

    def no_one(self, ch: list[Any]) -> Any:
        return Name(NO_ONE, ch[0].column, ch[0].end_column)

    def order_word(self, ch: list[Any]) -> Any:
        return ch

    def modifier(self, ch: list[Any]) -> Any:
        text = "".join(ch).replace(" ", "")
        return ("mod", int(text))

    def order_token(self, ch: list[Any]) -> Any:
        # SPECIAL? [order words] ("mod", n)? STAR?
        toks = [t for c in ch if not isinstance(c, tuple) for t in (c if isinstance(c, list) else (c,))]
        mod = next((c[1] for c in ch if isinstance(c, tuple)), None)
        words = [t for t in toks if t.type not in ("SPECIAL", "STAR")]
        star = toks[-1].type == "STAR"
        shown = " ".join(toks[:-1] if star else toks) + (f" {mod:+d}" if mod is not None else "") + ("*" if star else "")
        return OrderText(ORDER_KINDS[" ".join(words).lower()], mod, len(words) < len(toks), toks[0].column or 1,
                      toks[-1].end_column or 1, shown)

    def unit_spec(self, ch: list[Any]) -> Any:
        return ("unit", ch[0] if len(ch) == 2 else None, ch[-1])

    def located(self, ch: list[Any]) -> Any:
        return ("loc", ch[0] if len(ch) == 3 else None, ch[-2], ch[-1])

    def muster_new(self, ch: list[Any]) -> Any:
        count = ch[0] if isinstance(ch[0], Token) else None
        names = _only(ch, Name)
        return ("new", count, names[0], names[1] if len(names) > 1 else None)

    def muster_upgrade(self, ch: list[Any]) -> Any:
        return ("upgrade", ch[0] if len(ch) == 2 else None, ch[-1])

    def move(self, ch: list[Any]) -> Any:
        return ("move", ch[0][1], ch[1])

    def every_combat(self, ch: list[Any]) -> Any:
        return ("scope", None)

    def condition(self, ch: list[Any]) -> Any:
        role_tok = ch[0] if isinstance(ch[0], Token) else None
        role = {"ATTACKED": "defender", "DEFENDING": "defender", "ATTACKING": "attacker"}.get(role_tok.type if role_tok else "")
        area = next((c[1] for c in _tagged(ch, "area")), None)
        opponent = next((c[1] for c in _tagged(ch, "opponent")), None)
        return ("condition", role, area, opponent)

    def rhs_take_over(self, ch: list[Any]) -> Any:
        return ("take_over", ch[0], ch[1])

    def rhs_muster(self, ch: list[Any]) -> Any:
        return ("muster", ch[0], ch[1][1])

    # Rules that only tag what they hold: ("units", [children]), ("scope", child), ("stay",) ...
    unit_list, located_list, muster_actions = _tag("units", "all"), _tag("locs", "all"), _tag("actions", "all")
    raid_targets, retreat_areas = _tag("targets", "all"), _tag("areas", "all")
    no_muster, no_retreat = _tag("actions", "empty"), _tag("areas", "empty")
    stay, leave_power, blade_words = _tag("stay"), _tag("leave"), _tag("blade")
    rhs_no_order, rhs_no, rhs_muster_option = _tag("no_order"), _tag("no"), _tag("muster_option")
    support_scope, tie_context = _tag("scope", "first"), _tag("context", "first")
    cond_area = cond_target = _tag("area", "first")
    cond_opponent, rhs_names, gift, distribute_line = _tag("opponent", "first"), _tag("names", "all"), _tag("gift", "all"), mod_line(distribute, LineContext)  # fmt: skip
    rhs_order, rhs_ban, rhs_option = _tag("order", "first"), _tag("ban", "first"), _tag("option", "first")
    rhs_take_back, rhs_discard, rhs_swap = _tag("take_back", "first"), _tag("discard", "first"), _tag("swap", "first")
    rhs_remove_order, rhs_retreat = _tag("remove_order", "first"), _tag("retreat", "first")
    rhs_remove_card, rhs_remove, rhs_moves = _tag("remove_card", "first"), _tag("remove"), _tag("moves", "all")
    rhs_upgrade, rhs_downgrade, rhs_destroy = _tag("upgrade", "first"), _tag("downgrade", "first"), _tag("destroy", "first")

    # whole lines
    def file(self, ch: list[Any]) -> Any:
        return ch

    def head_line(self, ch: list[Any]) -> Any:
        return _head_line(ch[0], ch[1])

    def raven_swap(self, ch: list[Any]) -> Any:
        c = LineContext()
        area, token = c.name("area", ch[0]), c.order(ch[1])
        return c.done(C.Raven(action="swap", area=area, token=token))

    def raven_look(self, ch: list[Any]) -> Any: return LineContext().done(C.Raven(action="look"))

    def raven_pass(self, ch: list[Any]) -> Any: return LineContext().done(C.Raven(action="pass"))

    def wildling_card_line(self, ch: list[Any]) -> Any:
        c, names = LineContext(), _only(ch, Name)
        if len(set(cards := tuple(c.name("wildling_card", n) for n in names))) != len(cards) and not c.errors:
            c.error("E206", "a wildling card is named twice in this condition", names[-1], suggestion="name each card once")
        return c.done(C.RavenKeep(choice=str(ch[0]).lower(), cards=cards))  # type: ignore[arg-type]

    def raid_colon(self, ch: list[Any]) -> Any:
        return _raid(ch, colon=True)

    def raid_onto(self, ch: list[Any]) -> Any:
        return _raid(ch, colon=False)

    def march_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        names, parts = _only(ch, Name), [p for p in ch if isinstance(p, tuple) and not isinstance(p, Name)]
        origin = c.name("area", names[0])
        moves = tuple(C.Move(units=_units(c, p[1]), destination=c.name("area", p[2])) for p in parts if p[0] == "move")
        if moves and any(p[0] == "stay" for p in parts):
            c.error("E201", "'stay' cannot go with moves: leave 'stay' out, units not named stay", names[0])
        return c.done(C.March(origin=origin, moves=moves, leave_power=any(p[0] == "leave" for p in parts)))

    def support(self, ch: list[Any]) -> Any:
        return _support(None, ch[1], ch[2:])

    def support_from(self, ch: list[Any]) -> Any:
        return _support(ch[1], ch[2], ch[3:])

    def refuse_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.RefuseSupport(supporter=c.name("house", _only(ch, Name)[0])))

    def play_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.PlayCard(card=c.name("house_card", ch[0])))

    def use_blade(self, ch: list[Any]) -> Any:
        return LineContext().done(C.UseBlade(use=True))

    def keep_blade(self, ch: list[Any]) -> Any:
        return LineContext().done(C.UseBlade(use=False))

    def casualties_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.Casualties(units=_units(c, ch[0][1])))

    def retreat_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        areas = tuple(c.name("area", n) for n in ch[0][1] if n.text != NO_ONE)
        destroy = _units(c, ch[1][1]) if len(ch) > 1 else ()
        return c.done(C.Retreat(areas=areas, destroy=destroy))

    def bid_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        track = c.name("track", ch[0])
        return c.done(C.Bid(track=track, amount=c.count(ch[1], 0, 99, "a bid")))

    def tie_break_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        context = next((c.name("track", t[1]) for t in _tagged(ch, "context")), None)
        order = tuple(c.name("house", n) for n in _only(ch, Name))
        return c.done(C.TieBreak(order=order, context=context))

    def consolidate_power(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.Consolidate(area=c.name("area", _only(ch, Name)[0])))

    def consolidate_muster(self, ch: list[Any]) -> Any:
        c = LineContext()
        area = c.name("area", _only(ch, Name)[0])
        return c.done(C.Consolidate(area=area, muster=muster_actions(c, ch[-1][1])))

    def supply_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.Reconcile(removals=_located(c, ch[0][1])))

    def supply_none(self, ch: list[Any]) -> Any:
        return LineContext().done(C.Reconcile(removals=()))

    loan_areas = _tag("loan_areas", "all")

    def loan_word(self, ch: list[Any]) -> Any:
        return ("loan_word", ch[0], ch[1] if len(ch) > 1 else None)

    def iron_bank_take(self, ch: list[Any]) -> Any:
        c = LineContext()
        names = _only(ch, Name)
        fields_: dict[str, Any] = {"area": c.name("area", names[0])}
        if len(names) > 1 and names[1].text != NO_ONE:  # "no loan" / "none": the order takes nothing
            fields_["loan"] = c.name("loan", names[1])
        for part in _tagged(ch, "loan_areas"):
            fields_["areas"] = tuple(c.name("area", n) for n in part[1])
        for part in _tagged(ch, "locs"):
            fields_["units"] = _located(c, part[1])
        for _, word, number in _tagged(ch, "loan_word"):
            key, number = normalise(word.text), c.count(number, 1, 4, "a Westeros deck", 0)
            fields_["option"] = LOAN_WORDS.get(key) if not number else str(number) if key in SPY_DECK_WORDS else None
            if fields_["option"] is None:
                c.error("E206", f"{word.text!r} is not a loan's choice: write 'crown' or 'barrel' (Pyromancer) or "
                        "'deck N' (Spymaster)", word)
        return c.done(C.IronBank(**fields_))

    iron_bank_none = iron_bank_take

    def interest_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        removals = next((_located(c, p[1]) for p in _tagged(ch, "locs")), ())
        return c.done(C.InterestLosses(debtor=c.name("house", ch[0]), removals=removals))

    interest_none = interest_line

    def spy_group(self, ch: list[Any]) -> Any:
        return ("spy", str(ch[0]).lower(), [n for n in ch[1:] if isinstance(n, Name) and n.text != NO_ONE])

    def spymaster_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        groups: dict[str, tuple[int, ...]] = {"top": (), "bottom": ()}
        for _, where, names in _tagged(ch, "spy"):
            for n in names:
                if (place := SPY_PLACES.get(normalise(n.text))) is None:
                    c.error("E206", f"{n.text!r} is not a card's place: write 'first' (the top card) or 'second'", n)
                else:
                    groups[where] += (place,)
        return c.done(C.SpymasterChoice(top=groups["top"], bottom=groups["bottom"]))

    def give_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        amount = c.count(ch[0], 1, 20, "an amount of power")
        return c.done(C.Give(power=amount, to=c.name("house", _only(ch, Name)[0])))

    def cond_line(self, ch: list[Any]) -> Any:
        return _conditional(ch[0], ch[1])


def _units(c: LineContext, specs: Sequence[tuple[Any, ...]]) -> tuple[C.UnitSpec, ...]:
    return tuple(C.UnitSpec(unit=c.name("unit", s[2]), count=c.count(s[1], 1, MAX_UNITS_NAMED, "a number of units")) for s in specs)


def _located(c: LineContext, locs: Sequence[tuple[Any, ...]]) -> tuple[C.Located, ...]:
    return tuple(
        C.Located(area=c.name("area", a), unit=c.name("unit", u), count=c.count(n, 1, MAX_UNITS_NAMED, "a number of units"))
        for _, n, u, a in locs
    )


def _raid(ch: list[Any], colon: bool) -> Built:
    c = LineContext()
    origin = c.name("area", _only(ch, Name)[0])
    raw = _tagged(ch, "targets")[0][1]
    targets = tuple(None if t.text == NO_ONE else c.name("area", t) for t in raw)
    if colon and targets == (None,):
        targets = ()
    return c.done(C.Raid(origin=origin, targets=targets))


def _support(origin: Name | None, side: Name, rest: list[Any]) -> Built:
    c = LineContext()
    key = normalise(side.text)
    if side.text == NO_ONE or key in _SIDES:
        who = _SIDES.get(key)
    elif origin is None and (spot := lookup("area", side.text)).id is not None and not lookup("house", side.text).id:
        c.error("E209", f"{side.text!r} is an area, where the side supported is expected", side,
                suggestion=f"name the support order's area: 'support from {spot.display}: HOUSE', or the combat's: "
                           f"'support HOUSE in {spot.display}'")  # fmt: skip
        who = None
    else:
        who = c.name("house", side)
    scope = next((s[1] for s in _tagged(rest, "scope")), None)
    area = c.name("area", scope) if scope else None
    return c.done(C.Support(side=who, combat_area=area, origin=c.name("area", origin) if origin else None))


def _conditional(cond: tuple[Any, ...], inner: Built) -> Built:
    c = LineContext()
    _, role, area, opponent = cond
    when = C.CombatFilter(
        role=role, area=c.name("area", area) if area else None, opponent=c.name("house", opponent) if opponent else None
    )
    c.errors.extend(inner.errors)
    c.warnings.extend(inner.warnings)
    cmd = inner.command
    if cmd is not None and type(cmd) not in _WHEN_TYPES:
        c.error("E208", "a condition ('if attacked in ...:', 'against ...:') goes only before a combat answer: "
                "play, use or keep blade, casualties, retreat, refuse support or a house card's choice",
                Name("", 1, 2))
    if cmd is None or c.errors:
        return Built(None, c.errors, c.warnings)
    # Completed rather than copied, as _placed does: the inner line built it a moment ago for this line.
    object.__setattr__(cmd, "when", when)
    return c.done(cmd)


# --- "NAME: ..." lines ---------------------------------------------------------------------------


def _head_line(head: Name, rhs: tuple[Any, ...]) -> Built:
    c = LineContext()
    form = rhs[0]
    if form in ("order", "no_order", "take_over"):
        if lookup("area", head.text).id is None and lookup("card", head.text).id is not None and form == "order":
            c.error("E209", f"{head.text!r} is a card; an order goes after an area's name", head)
            return c.done(C.LeaveUnordered(area=""))
        area = c.name("area", head)
        if form == "order":
            return c.done(C.AssignOrder(area=area, token=c.order(rhs[1])))
        if form == "no_order":
            return c.done(C.LeaveUnordered(area=area))
        return c.done(C.PortShips(port=area, count=c.count(rhs[1], 0, 3, "a number of ships", 0)))
    card_match, area_match = lookup("card", head.text), lookup("area", head.text)
    # A name that is exactly an area is the area, whatever card it is a misspelling of: "The Rhoyne"
    # (Bronze Yohn Royce), "The Eyrie" (Syrio), "The Twins" (Tywin), "The Arbor" (Areo), ruling 350.
    if (card_match.id is None or (card_match.fuzzy and not area_match.fuzzy)) and area_match.id is not None:
        sea = SEA_ORDER_WORDS.get(normalise(rhs[1].text)) if form == "option" else None
        if sea is not None and box_named(box_of(current_vocabulary())).has("sea_orders"):  # Mother of Dragons' (M114)
            return c.done(C.AssignOrder(area=c.name("area", head), token=sea))
        if form == "option":
            sugg = order_suggestions(rhs[1].text)
            hint = "did you mean " + " or ".join(repr(s) for s in sugg) + "?" if sugg else "orders: " + ", ".join(ORDER_TEXT.values())
            c.error("E108", f"unknown order {rhs[1].text!r}", rhs[1], suggestion=hint)
        else:
            c.error("E209", f"{head.text!r} is an area; after an area's name comes an order", head)
        return c.done(C.LeaveUnordered(area=""))
    key = c.name("card", head)
    if key is None:
        return c.done(C.LeaveUnordered(area=""))
    return _choice(c, key, head, rhs)


def _choice(c: LineContext, key: str, head: Name, rhs: tuple[Any, ...]) -> Built:
    kind, card = key.split(":", 1)
    shown = display_name(kind, card)
    allowed = CARD_CHOICES.get(key, frozenset())
    if not allowed:
        c.error("E207", f"{shown} asks no choice of its player; nothing to answer", head)
        return c.done(C.PlayCard(card=""))
    form, fields_ = deck_iv_form(c, rhs, allowed) or adwd_form(c, rhs, allowed) or _form(c, rhs, allowed)
    if rhs[0] == "option" and (unclear := UNCLEAR_CHOICES.get((key, normalise(rhs[1].text)))):
        c.error("E206", f"{rhs[1].text!r} is unclear for {shown}", _place(rhs, head), suggestion=unclear)
    if form not in allowed:
        hint = f"write {choice_forms_text(key)}"
        if normalise(form.lstrip("?")) == "influence":
            hint = f"name the track you drop on: {choice_forms_text(key)}"
        c.error("E206", f"{form_text(form)!r} is not a choice of {shown}", _place(rhs, head), suggestion=hint)
    if form in ("upgrade", "downgrade"):
        want = "footman" if form == "upgrade" else "knight"
        if any(u.unit not in (want, None) for u in fields_["units"]):
            c.error("E206", f"'{form}' names {want}s: write '{FORM_EXAMPLES[form]}'", _place(rhs, head))
    if c.errors:
        return c.done(C.PlayCard(card=""))
    if kind == "westeros_card":
        return cast(Built, westeros_choice(c, card, form, fields_, _place(rhs, head)))
    if kind == "wildling_card":
        return c.done(C.WildlingChoice(card=card, **fields_))
    if form == "upgrade":  # Renly: one footman, named by its area
        units = fields_.pop("units")
        if len(units) != 1 or units[0].count != 1:
            c.error("E206", f"{shown} upgrades one footman: write 'upgrade footman in AREA'", _place(rhs, head))
            return c.done(C.PlayCard(card=""))
        fields_["area"] = units[0].area
    if form == "nothing":
        fields_["option"] = "no"
    return c.done(C.CardChoice(card=card, **fields_))


def _form(c: LineContext, rhs: tuple[Any, ...], allowed: frozenset[str]) -> tuple[str, dict[str, Any]]:
    """The form of a choice, and the command fields it fills (unknown forms start with '?')."""
    form = rhs[0]
    if form == "option":
        key = normalise(rhs[1].text)
        if key in OPTION_WORDS:
            option = OPTION_WORDS[key]
            return option, ({"option": option} if option in KEYWORD_OPTIONS else {})
        if "track" in allowed and key not in ("influence", "drop"):
            track = c.name("track", rhs[1])
            if track is not None and track not in INFLUENCE_TRACKS:
                c.error("E107", "choose an Influence track: iron throne, fiefdoms or king's court", rhs[1])
            return "track", {"track": track}
        return f"?{rhs[1].text}", {}
    if form in ("no", "muster_option", "remove"):  # a bare "remove": Robert Arryn with no card to name
        return {"no": "nothing", "muster_option": "muster"}.get(form, form), ({"option": form} if form == "remove" else {})
    if form == "ban":
        token = c.order(rhs[1])
        ban = {"march+1": "no march+1", "defense+1": "no defense", "defense+2": "no defense"}.get(token or "")
        return (ban or f"?no {rhs[1].text}"), {}
    if form in ("discard", "take_back", "swap", "remove_card"):
        return form, {"house_card": c.name("house_card", rhs[1])}
    if form in ("remove_order", "retreat"):
        return form, {"area": c.name("area", rhs[1])}
    if form in ("upgrade", "downgrade", "destroy"):
        return form, {"units": _located(c, rhs[1][1])}
    if form == "muster":
        return form, {"area": c.name("area", rhs[1]), "muster": muster_actions(c, rhs[2])}
    return f"?{form}", {}  # an order or a port take-over after a card's name


def _place(rhs: tuple[Any, ...], head: Name) -> Name:
    for part in rhs[1:]:
        if isinstance(part, (Name, OrderText)):
            return Name("", part.col, part.end)
    return Name("", head.end + 2, head.end + 3)


# --- the whole file ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnFile:
    """A parsed turn file: the header, every accepted command, and everything wrong with it.

    ``commands`` carry their ``where`` (file, line, column). ``missing`` is filled by
    :func:`adjudicator.folder.check.check_turn_file`, which alone knows the game.
    """

    filename: str
    header: Header | None
    commands: tuple[Command, ...]
    problems: tuple[TurnFileError, ...] = ()
    warnings: tuple[Notice, ...] = ()
    missing: tuple[str, ...] = ()
    header_line: SourceLine | None = None  # where the header was read, for messages
    texts: dict[int, str] = field(default_factory=dict, compare=False, repr=False)  # line number -> text read

    @property
    def errors(self) -> tuple[TurnFileError, ...]:
        """The problems, under the name a parse result's errors usually go by."""
        return self.problems

    @property
    def ok(self) -> bool:
        """True when every line was accepted and nothing is missing."""
        return not self.problems and not self.missing

    def receipt(self) -> str:
        """The answer to a player: every accepted line restated, then warnings, problems, gaps."""
        refused = {p.where.line for p in self.problems}
        good = [c for c in self.commands if (c.where.line if c.where else 0) not in refused]
        out = [f"Turn file {self.filename} ({format_header(self.header) if self.header else 'no header'})",
               f"Accepted lines ({len(good)}):"]
        out += [f"  line {c.where.line if c.where else '?'}: {format_command(c)}" for c in good] or ["  none"]
        for title, items in (("Warnings", [w for w in self.warnings if w.code not in FOOTNOTES]), ("Problems", self.problems)):
            if items:
                out.append(f"{title} ({len(items)}):")
                out += ["  " + x.render().replace("\n", "\n  ") for x in items]
        if self.missing:
            out.append(f"Still missing ({len(self.missing)}):")
            out += [f"  {m}" for m in self.missing]
        out.append("Result: " + ("complete: every line accepted, nothing missing" if self.ok else
                                 f"{len(self.problems)} problem(s), {len(self.missing)} missing"))
        notes = dict.fromkeys(f"Note: {w.message} ({w.code})" for w in self.warnings if w.code in FOOTNOTES)  # once
        return "\n".join([*out, *notes]) + "\n"


def parse_turn_file(text: str | bytes, *, filename: str = "<turn>", variant: str = DEFAULT_BOX) -> TurnFile:
    """Parse a whole turn file; never raises for any input.

    Each logical line is parsed on its own; valid lines stand whatever happens to the others.
    Names are read in the vocabulary of the game's ``variant`` (a classic game knows no Braavos).

    >>> tf = parse_turn_file("game demo · house stark · round 1 · planning · seq 1\\nplay eddard\\n")
    >>> tf.header.house, tf.commands
    ('stark', (PlayCard(card='eddard_stark', when=None),))
    """
    with vocabulary(variant):
        return _parse_turn_file(text, filename)


def _parse_turn_file(text: str | bytes, filename: str) -> TurnFile:
    src = read_source(text, filename)
    problems: list[TurnFileError] = list(src.problems)
    notices: list[Notice] = list(src.notices)
    header, header_line = _header(src.headers, filename, problems)
    if header_line is not None and src.lines and src.lines[0].number < header_line.number:
        problems.append(InvalidLine("E303", "the header must come before every other line", line_text=header_line.text,
                                    where=Where(filename, header_line.number), suggestion="move it to the top"))
    accepted: list[Command] = []
    for line, built in _parse_lines(src.lines):
        if len(problems) >= MAX_PROBLEMS:
            problems.append(InvalidLine("E005", f"more than {MAX_PROBLEMS} problems; the rest of the file was not read",
                                        where=Where(filename, line.number)))
            break
        if built.errors:
            for cls, code, message, col, end, hint, expected in built.errors:
                problems.append(cls(code, message, where=Where(filename, line.number, col), line_text=line.text,
                                    end_column=end, suggestion=hint, expected=expected))
        elif built.command is not None:
            col = len(line.text) - len(line.text.lstrip()) + 1
            accepted.append(_placed(built.command, Where(filename, line.number, col)))
        if built.warnings:
            notices += [Notice(code, msg, Where(filename, line.number, col), line.text) for code, msg, col in built.warnings]
    if header is None and src.lines and not src.problems:
        notices.append(Notice("W301", "no header line ('game ... · house ... · round N · step · seq N')", Where(filename, 0)))
    problems.sort(key=lambda p: (p.where.line, p.where.column))
    texts = {line.number: line.text for line in src.lines}
    return TurnFile(filename, header, tuple(accepted), tuple(problems), tuple(notices), (), header_line, texts)


def _placed(command: Command, where: Where) -> Command:
    """The command with its place in the file. It was built for this line a moment ago and nothing
    else holds it yet, so it is completed rather than copied (``dataclasses.replace`` took a tenth
    of a short file's parse)."""
    object.__setattr__(command, "where", where)
    return command


def _header(lines: list[SourceLine], filename: str, problems: list[TurnFileError]) -> tuple[Header | None, SourceLine | None]:
    header: Header | None = None
    found: SourceLine | None = None
    for i, line in enumerate(lines):
        try:
            h = read_header(line.text)
        except HeaderError as e:
            problems.append(InvalidLine("E301", str(e), where=Where(filename, line.number), line_text=line.text,
                                        suggestion=header_hint(line.text)))
            continue
        if header is not None or i:
            problems.append(InvalidLine("E302", "a second header line; a turn file has one", where=Where(filename, line.number),
                                        line_text=line.text, suggestion="send one file per step"))
            continue
        header, found = h, line
    return header, found


def _parse_lines(lines: list[SourceLine]) -> Iterator[tuple[SourceLine, Built]]:
    """Parse all lines in one go when they are all well-formed, else each on its own, as it is asked for.

    One at a time, the reading stops where the caller stops asking (after 100 problems): a file of
    thousands of bad lines once had every line parsed and explained first (4 s for 250 KB).
    """
    if not lines:
        return iter(())
    parser = _parser()
    try:
        built: Any = parser.parse("\n".join(line.text for line in lines), start="file")
        if isinstance(built, list) and len(built) == len(lines):
            return zip(lines, built)
    except Exception:
        pass
    return ((line, _parse_line(parser, line.text)) for line in lines)


def _parse_line(parser: Lark, text: str) -> Built:
    built: Any
    try:
        built = parser.parse(text, start="line")
    except UnexpectedInput as e:
        built = Built(None, [syntax_problem(e, text, _expected_words())], [])
    except Exception as e:
        message = f"internal error while reading this line: {type(e).__name__}: {e} (please report this)"
        return Built(None, [(InvalidLine, "E900", message, 1, 2, "", ())], [])
    if built.errors:
        hint = command_word_hint(text)
        if hint is not None:
            return Built(None, [hint], [])
    return cast(Built, built)
