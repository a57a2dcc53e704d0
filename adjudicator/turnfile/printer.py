"""The canonical printer of the turn-file language: a command back as the line a player would write.

Parsing the printed text gives the same command back (:mod:`adjudicator.turnfile.parser`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import commands as C
from ..game.commands import Command
from .header import Header, format_header
from .names import (
    CARD_VERBS,
    ORDER_TEXT,
    SEA_ORDER_TEXT,
    TRACK_NAMES,
    VASSAL_ORDER_TEXT,
    display_name,
    lookup,
    unit_text,
)

__all__ = ["DECLINE_WORDS", "format_command", "format_turn_file", "prints_short"]

DECLINE_WORDS = frozenset({"no", "keep", "pass", "none", "decline", "skip", "nothing"})  # a refused card choice


def format_turn_file(commands: Sequence[Command], header: Header | None = None) -> str:
    """A whole turn file in canonical form: the header, then one command per line."""
    lines = ([format_header(header)] if header else []) + [format_command(c) for c in commands]
    return "\n".join(lines) + "\n"


def format_command(cmd: Command) -> str:
    """One command as a line of the turn-file language; parsing it gives the command back.

    >>> format_command(C.March(origin="winterfell", moves=(C.Move(units=(C.UnitSpec("footman", 2),),
    ...                destination="castle_black"),), leave_power=True))
    'march from Winterfell: 2 footmen -> Castle Black; leave power'
    """
    when = getattr(cmd, "when", None)
    text: str = _PRINTERS[type(cmd)](cmd)
    return (_when(when) + ": " if when is not None else "") + text


# Commands that print to a short line whatever they hold: each field is one name, a number in its
# range or a word from a fixed table, and a condition at most one of each. Written out with the longest names of every vocabulary they stay far below a
# line's limit (tests/test_turnfile_shortcuts.py), so the parser's E002 check need not print them.
_SHORT_TYPES = frozenset({C.AssignOrder, C.LeaveUnordered, C.Raven, C.PlayCard, C.RefuseSupport, C.UseBlade,
                          C.CardChoice, C.PortShips, C.Support, C.Bid, C.Give})


def prints_short(cmd: Command) -> bool:
    """True when ``format_command(cmd)`` is short whatever names ``cmd`` holds (see _SHORT_TYPES)."""
    return type(cmd) in _SHORT_TYPES


def _area(a: str | None) -> str:
    return display_name("area", a) if a else "none"


def _card(c: str | None) -> str:
    return display_name("house_card", c or "")


# Westeros choices that are words; any other option is a Westeros IV card's area (M083).
_WESTEROS_WORDS = frozenset({"muster", "supply", "nothing", "bid", "collect", "no march+1", "no defense", "cancel",
                             "wildlings"})


def _westeros_option(option: str) -> str:
    if option.startswith("destroy "):  # Fire Made Flesh's dragon
        return f"destroy dragon in {_area(option.removeprefix('destroy '))}"
    if C.MOVE_ELSE in option:  # a loyalty-token move with fall-backs (ruling 295)
        return " else ".join(_westeros_option(part) for part in option.split(C.MOVE_ELSE))
    if option.startswith(C.CANCEL_MOVES):  # Targaryen's cancels of a card's moves (ruling 295)
        return "cancel " + (", ".join(option.removeprefix(C.CANCEL_MOVES).split("+")) or "none")
    if option in _WESTEROS_WORDS or not option:
        return {"no march+1": "no march +1"}.get(option, option)
    return ", ".join(_deck_iv_name(part) for part in option.split("+"))


def _deck_iv_name(ident: str) -> str:
    """A house (in lower case, as houses print), a unit or an area of a Westeros IV choice."""
    if lookup("house", ident).id == ident:
        return ident
    if lookup("unit", ident).id == ident:
        return unit_text(ident)
    return _area(ident)


def _units_text(specs: Sequence[C.UnitSpec]) -> str:
    return ", ".join(unit_text(s.unit, s.count) for s in specs)


def _located_text(locs: Sequence[C.Located]) -> str:
    return ", ".join(f"{unit_text(x.unit, x.count)} in {_area(x.area)}" for x in locs)


def _muster_text(actions: Sequence[C.MusterAction]) -> str:
    parts = [f"upgrade footman to {unit_text(a.unit)}" if a.upgrade else
             unit_text(a.unit) + (f" to {_area(a.to)}" if a.to else "") for a in actions]
    return ", ".join(parts) or "none"


def _iron_bank_text(c: C.IronBank) -> str:
    if c.loan is None:
        return f"iron bank in {_area(c.area)}: no loan"
    text = f"iron bank in {_area(c.area)}: take {display_name('loan', c.loan)}"
    if c.areas:
        text += " in " + ", ".join(_area(a) for a in c.areas)
    if c.units:
        text += ": " + _located_text(c.units)
    elif c.option in ("crown", "barrel"):
        text += ": " + c.option
    elif c.option:
        text += f": deck {c.option}"
    return text


def _when(f: C.CombatFilter) -> str:
    against = f" against {f.opponent}" if f.opponent else ""
    if f.role is None and f.area is None and f.opponent:
        return against.strip()
    if f.role == "attacker":
        return "if attacking" + (f" {_area(f.area)}" if f.area else "") + against
    verb = "if attacked" if f.role == "defender" else "if fighting"
    return verb + (f" in {_area(f.area)}" if f.area else "") + against


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}  # the Westeros decks, as the cards print them


def _card_choice_text(c: C.CardChoice) -> str:
    if c.option == "cancel":
        return "cancel"
    verb = CARD_VERBS.get(c.card, "")
    if c.amount:
        return str(c.amount)
    if c.westeros_card:
        return display_name("westeros_card", c.westeros_card) + (f", deck {ROMAN[c.deck]}" if c.deck else "")
    if c.track:
        return TRACK_NAMES.get(c.track, c.track)
    if c.house_card:
        prefix = {"swap": "swap to ", "take_back": "take back ", "remove_card": "remove ", "card": ""}.get(verb, "discard ")
        return prefix + _card(c.house_card)
    if c.area:
        return {"upgrade": "upgrade footman in ", "retreat": "retreat to ", "area": "",
                "destroy_one": "destroy footman in "}.get(verb, "remove order in ") + _area(c.area)
    return "no" if c.option is None or c.option in DECLINE_WORDS else c.option


def _wildling_choice_text(c: C.WildlingChoice) -> str:
    if c.units:
        verb = "destroy"
        if c.card == "crow_killers":
            verb = "downgrade" if c.units[0].unit == "knight" else "upgrade"
        return f"{verb} {_located_text(c.units)}"
    if c.house_card:
        return ("take back " if CARD_VERBS.get(c.card) == "take_back" else "discard ") + _card(c.house_card)
    if c.area:
        return f"muster in {_area(c.area)}: {_muster_text(c.muster)}"
    return TRACK_NAMES.get(c.track, c.track) if c.track else "nothing"


def _support_text(s: C.Support) -> str:
    side = "none" if s.side is None else s.side
    scope = f" in {_area(s.combat_area)}" if s.combat_area else " in every combat"
    return (f"support from {_area(s.origin)}: " if s.origin else "support ") + side + scope


def _raid_text(r: C.Raid) -> str:
    if not r.targets:
        return f"raid from {_area(r.origin)}: none"
    return f"raid from {_area(r.origin)} onto " + " else ".join(_area(t) for t in r.targets)


def _march_text(m: C.March) -> str:
    parts = [f"{_units_text(mv.units)} -> {_area(mv.destination)}" for mv in m.moves] or ["stay"]
    return f"march from {_area(m.origin)}: " + "; ".join(parts + (["leave power"] if m.leave_power else []))


def _retreat_text(r: C.Retreat) -> str:
    text = "retreat to " + (" else ".join(_area(a) for a in r.areas) or "none")
    return text + (f"; destroy {_units_text(r.destroy)}" if r.destroy else "")


def _raven_text(r: C.Raven) -> str:
    if r.action == "swap":
        return f"raven: swap {_area(r.area)} to {ORDER_TEXT.get(r.token or '', r.token)}"
    return f"raven: {r.action}"


_PRINTERS: dict[type, Any] = {
    C.AssignOrder: lambda c: f"{_area(c.area)}: {ORDER_TEXT.get(c.token) or SEA_ORDER_TEXT.get(c.token) or VASSAL_ORDER_TEXT.get(c.token, c.token)}",
    C.LeaveUnordered: lambda c: f"{_area(c.area)}: no order",
    C.Raven: _raven_text,
    C.RavenKeep: lambda c: f"wildling card: {c.choice}"
    + (" if " + ", ".join(display_name("wildling_card", x) for x in c.cards) if c.cards else ""),
    C.Raid: _raid_text,
    C.March: _march_text,
    C.Support: _support_text,
    C.RefuseSupport: lambda c: f"refuse support from {c.supporter}",
    C.PlayCard: lambda c: f"play {_card(c.card)}",
    C.UseBlade: lambda c: "use blade" if c.use else "keep blade",
    C.Casualties: lambda c: f"casualties: {_units_text(c.units)}",
    C.Retreat: _retreat_text,
    C.CardChoice: lambda c: f"{_card(c.card)}: " + _card_choice_text(c),
    C.PortShips: lambda c: f"{_area(c.port)}: take over {c.count} {'ship' if c.count == 1 else 'ships'}",
    C.Muster: lambda c: f"muster in {_area(c.area)}: " + " else ".join(_muster_text(a) for a in c.choices()),
    C.Consolidate: lambda c: f"consolidate in {_area(c.area)}" + ("" if c.muster is None else f": muster {_muster_text(c.muster)}"),
    C.IronBank: _iron_bank_text,
    C.SpymasterChoice: lambda c: "spymaster: " + "; ".join(
        f"{where} " + (", ".join(("first", "second")[i - 1] for i in places) or "none")
        for where, places in (("top", c.top), ("bottom", c.bottom)) if places or where == "top"),
    C.Give: lambda c: f"give {c.power} power to {c.to.title()}",
    C.KeepObjectives: lambda c: "keep objectives: " + ", ".join(display_name("objective", o) for o in c.objectives),
    C.ReturnObjective: lambda c: f"return objective: {display_name('objective', c.objective)}",
    C.TakeObjective: lambda c: f"take objective: {display_name('objective', c.objective)}",
    C.ScoreObjective: lambda c: "score objective: " + (display_name("objective", c.objective) if c.objective else "none"),
    C.InterestLosses: lambda c: f"interest for {c.debtor.title()}: " + (f"destroy {_located_text(c.removals)}" if c.removals else "none"),
    C.Bid: lambda c: f"bid {TRACK_NAMES.get(c.track, c.track)} {c.amount}",
    C.TieBreak: lambda c: "tie-break" + (f" {TRACK_NAMES.get(c.context, c.context)}" if c.context else "") + ": " + ", ".join(c.order),
    C.DistributeBid: lambda c: f"distribute {TRACK_NAMES.get(c.track, c.track)}: "
    + ", ".join(f"{g.amount} to {g.house}" for g in c.gifts),
    C.Reconcile: lambda c: "supply: " + (f"destroy {_located_text(c.removals)}" if c.removals else "none"),
    C.WesterosChoice: lambda c: f"{display_name('westeros_card', c.card)}: " + _westeros_option(c.option),
    C.WildlingChoice: lambda c: f"{display_name('wildling_card', c.card)}: " + _wildling_choice_text(c),
    C.CommandVassal: lambda c: "command " + " else ".join(v or "none" for v in c.picks()),
    C.ForVassal: lambda c: f"for {c.vassal}: {format_command(c.command)}",
    C.Standing: lambda c: f"standing: {format_command(c.command)}",
    C.Withdraw: lambda c: "withdraw all" if c.command is None else f"withdraw: {format_command(c.command)}",
}
