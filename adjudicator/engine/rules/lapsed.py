"""Answers no decision left in their round can use: refused as soon as that is certain (ruling 161).

An answer waits in the pool for the first decision it fits (standing instructions). Some answers
can be seen never to fit any decision still to come in their round: a bid once the Westeros
Phase is over, a raid from an area without a raid order of the house in the Action Phase, "use
blade" after the Blade was used, support from an order that cannot support the combat the answer
names. :func:`lapsed` says why, with the rule; the step machine refuses such answers when a file
brings them and again at the start of every phase, so the house learns it in its next report
instead of at the end of the round. The judgement is cautious: an answer is refused here only
when nothing the rest of the round can bring (Doran Martell moving a track, Ser Loras Tyrell
moving a March order) would let a decision use it.
"""

from __future__ import annotations

from ...game.board import Board
from ...game.cards import VASSAL
from ...game.commands import (
    AssignOrder,
    Command,
    Consolidate,
    InterestLosses,
    IronBank,
    KeepObjectives,
    LeaveUnordered,
    March,
    PlayCard,
    Raid,
    ReturnObjective,
    ScoreObjective,
    SpymasterChoice,
    Support,
    TakeObjective,
    UseBlade,
    order_kinds,
)
from ...game.objectives_setup import KEPT as KEPT_OBJECTIVES
from ...game.state import GameState
from ..core.context import PoolEntry
from .standing_fit import house_card_problem, never_fits, vassal_never

# The kinds of answer each phase asks for. Only the Action Phase asks for combat and order
# answers; only the Westeros Phase for bids, tie-breaks, supply, mustering and the cards' choices.
PHASE_KINDS = {
    "westeros": frozenset({"westeros_choice", "bid", "tie_break", "reconcile", "muster", "wildling_choice",
                           "interest", "distribute", "objective_returned", "objective_taken"}),
    "planning": frozenset({"orders", "raven", "raven_wildling", "vassal_choice", "objectives_kept"}),
    "action": frozenset({"raid", "march", "consolidate", "support", "refuse_support", "house_card", "card_choice",
                         "blade", "casualties", "retreat", "port_ships", "objective"}),
}
PHASE_ORDER = ("westeros", "planning", "action")
PHASE_WORDS = {"westeros": "Westeros Phase", "planning": "Planning Phase", "action": "Action Phase"}


def lapsed(state: GameState, board: Board, entry: PoolEntry) -> tuple[str, str] | None:
    """Whether ``entry`` can fit no decision left in its round: ``("expired", why)`` when the part
    of the round that asks for it is over, ``("refused", why)`` when no decision could ever have
    used it; ``why`` ends with the rule. ``None`` while a decision may still use it.

    >>> from adjudicator.game.setup import new_game
    >>> from adjudicator.game.commands import Bid, PlayCard
    >>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
    >>> lapsed(s, Board.classic(), PoolEntry("stark/1", "stark", 1, Bid(track="fiefdoms", amount=1), ""))
    ('expired', 'bids are asked in the Westeros Phase, and round 1 has none (R034)')
    >>> lapsed(s, Board.classic(), PoolEntry("stark/2", "stark", 1, PlayCard(card="tywin_lannister"), ""))
    ('refused', 'Tywin Lannister is a House card of Lannister, not one of yours (R192)')
    """
    if entry.standing:  # it outlives its round: refused only when no decision of the game could use it (ruling 356)
        why = never_fits(state, board, entry)
        return ("refused", why) if why else None
    if state.phase not in PHASE_ORDER or entry.round != state.round:
        return None  # answers of an earlier round expire with it; the end of the game settles the rest
    cmd, house = entry.command, entry.vassal or entry.house
    if entry.vassal and entry.vassal not in state.vassals:
        return "refused", f"{entry.vassal.title()} is not a vassal in this game; 'for HOUSE:' answers for a vassal (M030)"
    if state.is_vassal(house) and (why := vassal_never(house, cmd)):  # a bid, a dominance card's choice...
        return "refused", why
    phase = next((p for p, kinds in PHASE_KINDS.items() if cmd.kind in kinds), None)
    if phase is not None and PHASE_ORDER.index(phase) < PHASE_ORDER.index(state.phase):
        what = f"{_kind_words(cmd.kind)} are asked in the {PHASE_WORDS[phase]}"
        if phase == "westeros" and state.round == 1:
            return "expired", f"{what}, and round 1 has none (R034)"
        return "expired", f"{what}, which is over for round {state.round} (R033)"
    if isinstance(cmd, InterestLosses) and state.phase == "westeros" and _interest_collected(state):
        return "expired", (f"units for unpaid interest are chosen first thing in the Westeros Phase, which is past that "
                           f"for round {state.round} (M109, ruling 274)")
    why = _never(state, board, house, cmd)
    return ("refused", why) if why else None


def _never(state: GameState, board: Board, house: str, cmd: Command) -> str | None:
    """Why no decision of the rest of the round could use ``cmd``, or ``None``."""
    if isinstance(cmd, PlayCard) and (why := house_card_problem(state, VASSAL if state.is_vassal(house) else house, cmd.card)):
        return why
    if isinstance(cmd, InterestLosses):
        return _interest(state, house, cmd)
    if isinstance(cmd, SpymasterChoice):
        return _spymaster(state, house)
    if isinstance(cmd, (KeepObjectives, ScoreObjective, ReturnObjective, TakeObjective)):
        return _objectives(state, house, cmd)
    if state.phase == "planning":
        return _planning(state, house, cmd)
    if state.phase == "action":
        return _action(state, board, house, cmd)
    return None


def _objectives(state: GameState, house: str, cmd: Command) -> str | None:
    """A Feast for Crows' objectives: kept once, before the first orders; none in another box (F033)."""
    if not state.box.has("objectives"):
        return f"{state.box.title} has no objective cards (they are A Feast for Crows', F033)"
    if isinstance(cmd, KeepObjectives) and len(state.objectives.get(house, [])) <= KEPT_OBJECTIVES:
        return "the objectives are kept once, before the orders of round 1, and yours are kept (F033)"
    return None


def _kind_words(kind: str) -> str:
    words = {"westeros_choice": "choices for Westeros cards", "bid": "bids", "tie_break": "tie-break orders",
             "reconcile": "supply reconciliations", "interest": "units for unpaid interest", "muster": "musters", "wildling_choice": "choices for wildling cards",
             "orders": "orders", "raven": "Messenger Raven answers", "raven_wildling": "Messenger Raven answers",
             "distribute": "distributions of Targaryen's bid", "vassal_choice": "choices of vassals",
             "objectives_kept": "the objectives kept", "objective": "objectives scored",
             "objective_returned": "objectives given back", "objective_taken": "objectives taken"}
    return words.get(kind, kind.replace("_", " "))


def _interest_collected(state: GameState) -> bool:
    """Whether this Westeros Phase is past its first step, where interest is collected (ruling 274)."""
    started = state.segment.start.get("step", "") if state.segment else state.step
    return bool(started)


def _interest(state: GameState, house: str, cmd: InterestLosses) -> str | None:
    """Units for unpaid interest named for a house that owes none, or by a house that does not choose
    them (M109, M110): nothing before interest is collected changes who owes or who chooses."""
    from ..core.bank import bank_in_play  # the Iron Bank's rules: loaded only where an answer needs them
    from .iron_bank import chooser

    debtor = cmd.debtor
    if not bank_in_play(state):
        return "the Iron Bank is in play only with Targaryen: no house pays interest in this game (M103, ruling 205)"
    if debtor not in state.houses_in_play:
        return f"{debtor.title()} is not in this game, so it owes the Iron Bank nothing (M109)"
    if state.is_vassal(debtor):
        return f"{debtor.title()} is a vassal, which holds no power and pays no interest (M067, ruling 262)"
    if not state.houses[debtor].loans:
        return f"{debtor.title()} holds no loan, so it owes the Iron Bank no interest (M109)"
    who = chooser(state, debtor)
    if house != who:
        blade = state.holder("fiefdoms")
        why = ("the holder of the Valyrian Steel Blade" if who == blade else
               f"the next player below {debtor.title()}, the Blade's holder, on the Fiefdoms track")
        return (f"only {who.title()}, {why}, chooses which of {debtor.title()}'s units its unpaid interest destroys "
                "(M110, ruling 256)")
    return None


def _spymaster(state: GameState, house: str) -> str | None:
    """Where to put the cards Spymaster showed (ruling 225), from a house that is not looking at them
    and cannot buy Spymaster any more this round: the loans shift only as a round begins (M107)."""
    if any(p.get("kind") == "spymaster" and p.get("house") == house for p in state.pending):
        return None  # it is placing them now
    if "spymaster" not in _face_up(state):
        return ("Spymaster is not face up in the Iron Bank this round and you are not placing cards it showed you: "
                "no decision this round can use this answer (M104, ruling 225)")
    if state.phase == "action" and not _orders(state, house, "iron_bank"):
        return "you have no Iron Bank order left to buy Spymaster with this round, so it shows you no card (M104, M117)"
    return None


def _face_up(state: GameState) -> list[str]:
    """The loans face up in the Iron Bank this round: at the very start of a Westeros phase, before
    they shift (M107, ruling 254), as they will lie once shifted."""
    slots = state.loan_slots
    if slots and state.phase == "westeros" and not state.step and state.segment is None:
        deck = [*state.loan_deck, *slots[:1]] if slots[0] else list(state.loan_deck)
        return [*slots[1:], deck[0] if deck else ""]
    return slots


def _planning(state: GameState, house: str, cmd: Command) -> str | None:
    """The orders once placed; the Messenger Raven of another house, or once used."""
    if isinstance(cmd, (AssignOrder, LeaveUnordered)):
        seg = state.segment
        taken = seg is not None and any(k.endswith(f".orders.{house}") and k.startswith(f"r{state.round}.planning.")
                                        for k in seg.decisions)  # placed in turn order, not revealed yet
        if taken or state.step == "raven":
            return f"your orders for round {state.round} are placed already, one in each area (R115)"
        return None
    if cmd.kind in ("raven", "raven_wildling"):
        holder = state.holder("kings_court")
        if holder != house:
            return f"only the holder of the Messenger Raven ({holder.title()}) uses it (R096, R125)"
        if cmd.kind == "raven" and state.raven_used:  # where to put the card seen is asked after the use
            return "the Messenger Raven has been used this round (R096)"
    return None


def _action(state: GameState, board: Board, house: str, cmd: Command) -> str | None:
    """No order of the kind left to resolve; support from orders that cannot give it; the Blade used."""
    if isinstance(cmd, (Raid, March, Consolidate, IronBank)) and (why := already_decided(state, board, house, cmd)):
        return why
    if isinstance(cmd, Raid) and not _has_order(state, house, cmd.origin, "raid"):
        return f"you have no raid order in {_name(board, cmd.origin)} (never placed, or already removed) (R129, R140)"
    if isinstance(cmd, Consolidate) and _has_order(state, house, cmd.area, "consolidate") \
            and state.area(cmd.area).order.token == "vassal_defense_muster":  # type: ignore[union-attr]
        from .consolidate import defense_muster_problem  # the action phase's rules, loaded only when needed

        return defense_muster_problem(state, board, cmd.area)  # M052, M053
    if isinstance(cmd, Consolidate) and not _has_order(state, house, cmd.area, "consolidate"):
        return (f"you have no consolidate power order in {_name(board, cmd.area)} (never placed, or raided) "
                "(R161, R166)")
    if isinstance(cmd, IronBank):
        from .iron_bank import no_order_problem  # the Iron Bank's rules: loaded only where an answer needs them

        return no_order_problem(state, board, house, cmd.area)
    if cmd.kind == "march" and not _orders(state, house, "march"):
        return "you have no march order left on the board this round (R141)"
    if isinstance(cmd, March) and state.is_vassal(house):  # never legal, whatever happens first (M044)
        ports = [m.destination for m in cmd.moves if m.destination in board.areas and board.area(m.destination).is_port]
        if ports:
            from .marches import family_entry_problem

            return family_entry_problem(state, board, house, ports[0])
    if isinstance(cmd, Support):
        return _support(state, board, house, cmd)
    if isinstance(cmd, UseBlade) and cmd.use and state.blade_used:
        return "the Valyrian Steel Blade has already been used this round (R093)"
    return None


def already_decided(state: GameState, board: Board, house: str, cmd: Raid | March | Consolidate | IronBank) -> str | None:
    """An answer for an order whose decision was taken already, without asking (ruling 351): the only
    legal answer (ruling 14); or a vassal's Raid/Support order kept as a support order (M047)."""
    subject = cmd.origin if isinstance(cmd, (Raid, March)) else cmd.area
    if _has_order(state, house, subject, "iron_bank" if isinstance(cmd, IronBank) else cmd.kind):
        return None  # the order is still to resolve
    for u in state.unasked:
        if (u.get("house"), u.get("kind"), u.get("subject")) == (house, cmd.kind, subject):
            return (f'already decided: the only legal answer, "{u.get("answer", "")}", was taken without asking, '
                    f"as nothing else could be chosen (ruling 14, ruling 351)")
    order = state.area(subject).order if subject in board.areas else None
    if isinstance(cmd, Raid) and order and order.house == house and order.token == "vassal_support":
        return (f"already decided: the Raid/Support order in {_name(board, subject)} did not raid and stays as a "
                "support order (M047, ruling 232)")
    return None


def _support(state: GameState, board: Board, house: str, cmd: Support) -> str | None:
    """A support answer none of the house's Support Orders can ever give (R172, R181, R185)."""
    from .support import can_support  # the combat's rules, loaded only for a support answer

    if cmd.origin:
        if not _has_order(state, house, cmd.origin, "support"):
            return f"you have no support order in {_name(board, cmd.origin)} (never placed, or raided) (R172)"
        if cmd.combat_area and cmd.combat_area in board.areas and not can_support(board, cmd.origin, cmd.combat_area):
            return cannot_support_why(board, cmd.origin, cmd.combat_area)
        return None
    mine = _orders(state, house, "support")
    if not mine:
        return "you have no support order on the board this round (R172)"
    if cmd.combat_area and cmd.combat_area in board.areas and not any(can_support(board, a, cmd.combat_area)
                                                                       for a in mine):
        listed = ", ".join(_name(board, a) for a in sorted(mine))
        return (f"none of your support orders ({listed}) can support a combat in {_name(board, cmd.combat_area)} "
                "(R172)")
    return None


def cannot_support_why(board: Board, support_area: str, combat_area: str) -> str:
    """Why units in ``support_area`` can never support a combat in ``combat_area`` (R181, R185)."""
    s, c = board.area(support_area), board.area(combat_area)
    if not board.adjacent(support_area, combat_area):
        return (f"{s.name} is not next to {c.name}; support comes only from areas next to the embattled area, "
                "never by ship transport (R185)")
    if s.is_port:
        return f"ships in {s.name} support only a combat in the sea area it opens onto, not in {c.name} (R185)"
    return f"footmen, knights and siege engines in {s.name} never support a combat in the sea area {c.name} (R181)"


def _orders(state: GameState, house: str, kind: str) -> list[str]:
    return [a for a, st in state.areas.items() if st.order and st.order.house == house
            and kind in order_kinds(st.order.token)]  # a vassal's two-faced token is both (M046, M050)


def _has_order(state: GameState, house: str, area: str, kind: str) -> bool:
    order = state.area(area).order
    return bool(order and order.house == house and kind in order_kinds(order.token))


def _name(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)
