"""The turn-file lines of standing instructions (rulings 353-357), mixed into the parser's line builder.

``standing: LINE`` makes an answer hold from round to round, for every decision it fits, until
``withdraw: LINE`` (or ``withdraw all``) takes it back. Muster lines are built here too: their
fall-backs (``knight else footman else none``, ruling 357) are what a muster sent ahead needs. Only the answers of decisions that come
up again round after round may stand (:data:`~adjudicator.game.commands.STANDING_ANSWER_KINDS`);
any other line after ``standing:`` is refused with E210 and what would be valid.
"""

from __future__ import annotations

from typing import Any

from ..game import commands as C

# Why a line of another kind cannot stand: it answers this round's own orders or tokens.
_ONE_ROUND = {
    "orders": "orders are given anew each round (R112)",
    "raid": "a raid answers one of this round's raid orders (R129)",
    "march": "a march answers one of this round's march orders (R141)",
    "consolidate": "it answers one of this round's consolidate power or Iron Bank orders (R161, M117)",
    "raven": "the Messenger Raven is used in one round's Planning Phase (R096)",
    "raven_wildling": "the Messenger Raven is used in one round's Planning Phase (R096)",
    "give": "a gift of power is made once (M121)",
    "spymaster": "it places the cards one Spymaster showed (ruling 225)",
}
STANDING_FORMS = ("a Westeros card's choice", "muster", "supply", "bid", "tie-break", "distribute",
                  "a wildling card's choice", "interest", "command", "support", "refuse support", "play", "use or keep blade",
                  "casualties", "retreat", "a house card's choice", "take over ships")


class StandingLines:
    """The transformer callbacks of ``standing:`` and ``withdraw`` lines (the parser's ``_Lines`` inherits them)."""

    def standing_line(self, ch: list[Any]) -> Any:
        return _wrapped(ch[0], lambda cmd: C.Standing(command=cmd))

    def withdraw_one(self, ch: list[Any]) -> Any:
        return _wrapped(ch[0], lambda cmd: C.Withdraw(command=cmd))

    def withdraw_all(self, ch: list[Any]) -> Any:
        return _ctx().done(C.Withdraw())

    def muster_line(self, ch: list[Any]) -> Any:
        """``muster in AREA: CHOICE else CHOICE else none``: fall-backs, for lines sent ahead (ruling 357)."""
        from .parser import _muster  # the parser imports this module: its helpers are read when a line is built

        c = _ctx()
        plans = [_muster(c, part[1]) for part in ch[1:]]
        return c.done(C.Muster(area=c.name("area", ch[0]), actions=plans[0],
                               otherwise=tuple(map(C.MusterPlan, plans[1:])) or None))


def _wrapped(inner: Any, wrap: Any) -> Any:
    """The inner line's command wrapped, or E210 when its kind cannot stand."""
    c = _ctx()
    c.errors.extend(inner.errors)
    c.warnings.extend(inner.warnings)
    if c.errors or inner.command is None:
        return type(inner)(None, c.errors, c.warnings)
    cmd = inner.command
    kind = cmd.command.kind if isinstance(cmd, C.ForVassal) else cmd.kind
    if kind not in C.STANDING_ANSWER_KINDS:
        why = _ONE_ROUND.get(kind, "it answers one decision only")
        c.error("E210", f"this line cannot stand from round to round: {why}; send it without 'standing:' for this "
                "round (ruling 353)", _name("", 1, 2),
                suggestion="what may stand: " + ", ".join(STANDING_FORMS))
        return type(inner)(None, c.errors, c.warnings)
    return c.done(wrap(cmd))


def _ctx() -> Any:
    from .parser import _Ctx  # the parser imports this module: its helpers are read when a line is built

    return _Ctx()


def _name(text: str, col: int, end: int) -> Any:
    from .parser import _Name

    return _Name(text, col, end)
