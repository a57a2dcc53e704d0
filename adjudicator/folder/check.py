"""``maester check``: a turn file against a game's current state, changing nothing.

Two passes. The static checks need only the state and the board: the header and the sequence
number here, each command in ``static_check.py`` (orders only where the house has units and one
per area, special orders within the King's Court stars, bids within available power, cards in
hand, and the rest). Then the rules engine runs on a copy of
the state with the file's answers added: every answer it refuses (``AnswerUnusable``) becomes a
problem on its line, and every decision it still needs from the house is listed as missing.
When the engine cannot run, the static checks still do, and a warning says so.

>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc", game_id="doc")
>>> tf = parse_turn_file("game doc · house stark · round 1 · planning · seq 1\\nPyke: march +1\\n")
>>> for p in check_turn_file(tf, state, engine=False).problems: print(p)
<turn>:2:1: E401 you have no units in Pyke; orders go only on areas with your units (R115)
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..game import commands as C
from ..game.board import Board
from ..game.commands import Command
from ..game.state import GameState
from ..turnfile.diagnostics import IllegalOrder, InvalidLine, Notice, TurnFileError
from ..turnfile.header import STEPS, Header, format_header
from ..turnfile.names import lookup, vocabulary, vocabulary_of
from ..turnfile.parser import TurnFile, parse_turn_file
from ..turnfile.printer import format_command
from ..turnfile.shadowing import shadowed
from ..util.lines import WRAP_WIDTH, long_lines, long_lines_text
from .published import PublishedStateError, old_state, published_state
from .static_check import StaticCheck, used_ids

__all__ = ["CheckError", "check_file", "check_turn_file"]

class CheckError(ValueError):
    """The check cannot start: no such game folder, an unreadable file, no house to check for."""


def check_file(game_dir: str | Path, path: str | Path, *, house: str | None = None) -> TurnFile:
    """Read a turn file and check it against the game in ``game_dir`` as it is now.

    ``game_dir`` may also be a published public state (a step's ``report.json``, attached to every
    report mail): a player's offline check. The rules engine needs the moderator's full state, so
    only the checks that the public state allows run then.

    :raises CheckError: for a folder that is not a game, or a file that cannot be read.
    """
    from .gamedir import GameDir, GameDirError

    if Path(game_dir).is_file():
        try:
            state = published_state(game_dir)
        except PublishedStateError as e:
            raise CheckError(str(e)) from None
        data = _read(path)
        tf = check_turn_file(parse_turn_file(data, filename=_name(path), variant=vocabulary_of(state)), state,
                             game_id=state.game_id, house=house, engine=False, source=Path(game_dir).name)  # fmt: skip
        note = Notice("W902", "checked against the published state: the rules engine's own checks run when the "
                      "moderator adjudicates", C.Where(tf.filename, 0))  # fmt: skip
        return replace(tf, warnings=(*tf.warnings, *wrap_notices(data, tf.filename), *old_state(game_dir, tf.filename), note))
    try:
        gd = GameDir.open(game_dir)
        game_id, state = gd.info().id, gd.load_state()
    except GameDirError as e:
        raise CheckError(str(e)) from None
    data = _read(path)
    tf = parse_turn_file(data, filename=_name(path), variant=vocabulary_of(state))
    with vocabulary(vocabulary_of(state)):
        last = _last_seq(gd.root, tf, house, state)
    tf = check_turn_file(tf, state, game_id=game_id, house=house, last_seq=last)
    return replace(tf, warnings=(*tf.warnings, *wrap_notices(data, tf.filename)))


def wrap_notices(data: bytes, filename: str) -> list[Notice]:
    """W209 for the lines a mail program may wrap, which would break the seal: one notice, at the first."""
    long = long_lines(data.decode("utf-8", "replace"))
    if not long:
        return []
    it = "them" if len(long) > 1 else "it"
    return [Notice("W209", f"{long_lines_text(long)}, over {WRAP_WIDTH}: a mail program may wrap {it} and break the "
                   "seal; send the sealed file as an attachment, or from a mail program that sends format=flowed "
                   f"(mutt: set text_flowed), or shorten {it}", C.Where(filename, long[0][0]))]  # fmt: skip


def _last_seq(root: Path, tf: TurnFile, house: str | None, state: GameState) -> int | None:
    """The highest ``seq`` accepted from the file's house for the open step (``None``: unknown)."""
    from .registry import RegistryError, highest_accepted_seq

    who = lookup("house", house or (tf.header.house if tf.header else "")).id
    if who is None:
        return None
    try:
        return highest_accepted_seq(root, who, state.round, state.phase)
    except (RegistryError, OSError, ValueError):
        return None


def _read(path: str | Path) -> bytes:
    try:
        return sys.stdin.buffer.read() if str(path) == "-" else Path(path).read_bytes()
    except OSError as e:
        raise CheckError(f"cannot read {path}: {e.strerror}") from None


def _name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else Path(path).name


def check_turn_file(tf: TurnFile, state: GameState, *, game_id: str | None = None, house: str | None = None,
                    board: Board | None = None, engine: bool = True, last_seq: int | None = None,
                    source: str | None = None) -> TurnFile:
    """The parsed file with the game's problems added and what is still missing listed.

    ``last_seq`` is the highest sequence number already accepted from the house for the open
    step, when known (a game folder's log): a file must carry a higher one. ``source`` names the
    published state file ``state`` was read from: a header for another step then says that it is
    that file's step, which may be old, and not necessarily the game's.

    :raises CheckError: when neither the header nor ``house`` names the house, or ``house`` is not in the game.
    """
    with vocabulary(vocabulary_of(state)):
        return _check_turn_file(tf, state, game_id, house, board or state.board(), engine, last_seq, source)


def _check_turn_file(tf: TurnFile, state: GameState, game_id: str | None, house: str | None, board: Board,
                     engine: bool, last_seq: int | None, source: str | None = None) -> TurnFile:  # fmt: skip
    if house is None and tf.header is None and any(p.code == "E301" for p in tf.problems):
        return replace(tf, warnings=tuple(w for w in tf.warnings if w.code != "W301"))  # mend the header first
    who = _house(tf, house, state)
    problems: list[TurnFileError] = list(tf.problems) + _header_problems(tf, state, game_id or state.game_id, who, house,
                                                                         last_seq, source)
    now = f"round {state.round} {state.phase}"
    problems += _seq_problems(tf, state, who, last_seq)
    if who not in state.houses_in_play:  # the header names a house not in the game: nothing else can be judged
        return replace(tf, problems=tuple(sorted(problems, key=lambda p: (p.where.line, p.where.column))))
    early = _early(tf, state)
    if early is not None:  # ruling 90: the run keeps it for its step; judge it as of that step, statically
        state, engine = early, False
    static = StaticCheck(tf, state, board, who, early=early is not None)
    for cmd in tf.commands:
        static.check(cmd)
    static.check_bids()
    static.notices += shadowed(tf, refused={p.where.line for p in static.problems})
    problems += static.problems
    notices = [w for w in tf.warnings if w.code != "W301"] + static.notices  # E307 says it for a check
    if early is not None:
        later = (f"later than {now}, the step of {source}: if the game has moved on since, check against the state "
                 "attached to your latest report mail; if not, it is a step not open yet, and" if source else
                 "a step not open yet:")  # fmt: skip
        notices.append(Notice("W302", f"this file is for round {state.round} {state.phase}, {later} the run keeps it "
                              "and applies it when that step opens (ruling 90); it is checked against the board as it "
                              "is now, and the rules engine's checks come then", _where(tf, 0)))  # fmt: skip
    replaced = _replaced(tf, state, who)
    if replaced:
        notices.append(Notice("W207", f"this file replaces your earlier answers for round {state.round} "
                              f"{state.phase} that are not used yet: {'; '.join(replaced)}; repeat here every one "
                              "you still mean, or write 'add' at the end of the header to add to them (rulings 94, 120)",
                              _where(tf, 0)))  # fmt: skip
    missing = static.missing()
    if engine:
        # Lines refused here are not sent; orders only as a whole legal set (the engine takes them together).
        flagged = {p.where.line for p in static.problems}
        orders_ok = not missing  # a refused line for an area not the house's does not hold up the rest
        sent = [c for c in tf.commands if (c.where.line if c.where else 0) not in flagged
                and (orders_ok or not isinstance(c, (C.AssignOrder, C.LeaveUnordered)))]
        eng_problems, eng_missing, note = _engine(tf, sent, state, board, who)
        problems += eng_problems
        missing += [m for m in eng_missing if not (m.startswith("orders:") and not orders_ok)]
        notices += [note] if note else []
    problems.sort(key=lambda p: (p.where.line, p.where.column))
    return replace(tf, problems=tuple(problems), warnings=tuple(notices), missing=tuple(missing))


def _house(tf: TurnFile, house: str | None, state: GameState) -> str:
    if house is not None:
        m = lookup("house", house)
        if m.id is None:
            raise CheckError(f"unknown house {house!r}")
        if m.id not in state.houses_in_play:
            raise CheckError(f"house {m.id} is not playing in this game ({', '.join(state.houses_in_play)} are)")
        return m.id
    if tf.header is None:
        raise CheckError("the file has no header naming its house: give --house")
    m = lookup("house", tf.header.house)
    return m.id or tf.header.house


def _header_problems(tf: TurnFile, state: GameState, game_id: str, house: str, given: str | None,
                     last_seq: int | None = None, source: str | None = None) -> list[TurnFileError]:
    h = tf.header
    same_step = h is not None and (h.round, h.step) == (state.round, state.phase)
    seq = h.seq if h is not None and same_step else (last_seq or 0) + 1
    expected = format_header(Header(game_id, house, state.round, state.phase, seq))
    if h is None:
        return [InvalidLine("E307", "the file has no header line", where=_where(tf, 0),
                            suggestion=f"begin the file with '{expected}'")]
    where = _where(tf, tf.header_line.number if tf.header_line else 0)
    text = tf.header_line.text if tf.header_line else ""
    out: list[TurnFileError] = []
    if h.game != game_id:
        out.append(IllegalOrder("E304", f"the header is for game {h.game!r}; this is game {game_id!r}", where=where,
                                line_text=text, suggestion=f"write '{expected}'"))
    if lookup("house", h.house).id not in state.houses_in_play:
        out.append(IllegalOrder("E305", f"house {h.house!r} is not playing in this game", where=where, line_text=text))
    elif given is not None and lookup("house", h.house).id != house:
        out.append(IllegalOrder("E305", f"the header is for house {h.house}, but the check is for {house}",
                                where=where, line_text=text))
    if state.phase == "game_over":
        out.append(IllegalOrder("E306", "the game is over; no turn is expected", where=where, line_text=text))
    elif (h.round, h.step) != (state.round, state.phase) and _early(tf, state) is None:
        at = f"the game is at round {state.round} {state.phase}"
        if source and (h.round, STEPS.index(h.step) if h.step in STEPS else 0) > (state.round, _step_index(state.phase)):
            at = (f"{source} holds the game at round {state.round} {state.phase}, an earlier step: if the game has "
                  "moved on since, check against the state attached to your latest report mail")  # fmt: skip
        elif source:
            at = f"{source} holds the game at round {state.round} {state.phase}"
        out.append(IllegalOrder("E306", f"the header is for round {h.round} {h.step}; {at}", where=where,
                                line_text=text, suggestion=f"write '{expected}'"))
    return out


def _step_index(phase: str) -> int:
    return STEPS.index(phase) if phase in STEPS else len(STEPS)


def _early(tf: TurnFile, state: GameState) -> GameState | None:
    """For a file sealed for a later step of the game (ruling 90): the state with that step open."""
    import copy

    h = tf.header
    if h is None or state.phase not in STEPS or h.step not in STEPS or h.round > state.round + 1:
        return None
    if (h.round, STEPS.index(h.step)) <= (state.round, STEPS.index(state.phase)):
        return None
    later = copy.copy(state)
    later.round, later.phase = h.round, h.step
    if h.step == "planning":  # the orders of the step before are gone by then
        later.areas = {a: replace_order(st) for a, st in state.areas.items()}
    return later


def replace_order(st: Any) -> Any:
    """An area's state without its order token."""
    import copy

    out = copy.copy(st)
    out.order = None
    return out


def _seq_problems(tf: TurnFile, state: GameState, house: str, last_seq: int | None) -> list[TurnFileError]:
    h = tf.header
    if h is None or last_seq is None or h.seq > last_seq or (h.round, h.step) != (state.round, state.phase):
        return []
    where = _where(tf, tf.header_line.number if tf.header_line else 0)
    fixed = format_header(replace(h, seq=last_seq + 1))
    return [IllegalOrder("E308", f"seq {h.seq} is not higher than seq {last_seq}, the last file accepted from you "
                         f"for round {state.round} {state.phase}; the seal check would refuse it as a replay",
                         where=where, line_text=tf.header_line.text if tf.header_line else "",
                         suggestion=f"write '{fixed}'")]  # fmt: skip


def _where(tf: TurnFile, line: int, column: int = 1) -> C.Where:
    return C.Where(tf.filename, line, column)


# --- the house's answers waiting in the game ---------------------------------------------------


def _step_prefix(tf: TurnFile, state: GameState, house: str) -> str | None:
    """How the pool ids of the house's answers for the file's step start (ruling 94), or ``None``."""
    h = tf.header
    if h is None or h.add or (h.round, h.step) != (state.round, state.phase):
        return None  # a file whose header says "add" replaces nothing (ruling 120)
    return f"{house}/{h.round}.{h.step}/"


def _earlier(entry: dict[str, Any], prefix: str, seq: int) -> bool:
    rest = entry["id"][len(prefix):] if entry["id"].startswith(prefix) else ""
    return rest.startswith("seq") and rest[3:].split("/", 1)[0].isdigit() and int(rest[3:].split("/", 1)[0]) < seq


def _replaced(tf: TurnFile, state: GameState, house: str) -> list[str]:
    """The texts of the house's unused answers that this file replaces once accepted (ruling 94)."""
    prefix = _step_prefix(tf, state, house)
    if prefix is None or tf.header is None:
        return []
    used = used_ids(state)
    return [a.get("text", "") for a in state.answers
            if a["id"] not in used and _earlier(a, prefix, tf.header.seq)]  # fmt: skip


def _trial(tf: TurnFile, state: GameState, house: str) -> GameState:
    """The state the engine tries the file on: only this house's own answers are kept (the others'
    are secret), less those the file replaces, as the run will do (ruling 94)."""
    import copy

    prefix = _step_prefix(tf, state, house)
    seq = tf.header.seq if tf.header else 0
    used = used_ids(state)
    trial = copy.copy(state)
    trial.answers = [a for a in state.answers if a["house"] == house
                     and not (prefix and a["id"] not in used and _earlier(a, prefix, seq))]  # fmt: skip
    return trial


# --- the engine on a copy --------------------------------------------------------------------


def _engine(tf: TurnFile, sent: list[Command], state: GameState, board: Board,
            house: str) -> tuple[list[TurnFileError], list[str], Notice | None]:
    """Run the rules on a copy with the file's answers; report refusals and open decisions."""
    try:
        from ..engine import machine
        from ..engine.core.context import pool_entry
        from ..engine.events import AnswerUnusable

        entries = [pool_entry(id=f"check/{house}/L{c.where.line if c.where else 0}/{i}", house=house,
                              round=state.round, command=c, text=format_command(c))
                   for i, c in enumerate(sent)]
        step = machine.advance(_trial(tf, state, house), entries, board=board)
    except ImportError as e:
        return [], [], Notice("W901", f"the rules engine is not available ({e}); only the static checks ran",
                              C.Where(tf.filename, 0))
    except Exception as e:
        return [], [], Notice("W901", f"the rules engine could not run ({type(e).__name__}: {e}); only the static "
                              "checks ran (please report this)", C.Where(tf.filename, 0))
    texts = [(c, format_command(c)) for c in sent]
    problems: list[TurnFileError] = []
    seen: set[tuple[int, str]] = set()
    for ev in step.events:
        if not isinstance(ev, AnswerUnusable) or ev.house != house:
            continue
        for cmd in _commands_in(ev.answer, texts):
            line = cmd.where.line if cmd.where else 0
            if (line, ev.reason) in seen:
                continue
            seen.add((line, ev.reason))
            text = tf.texts.get(line, "")
            problems.append(IllegalOrder("E420", ev.reason, where=cmd.where or C.Where(tf.filename, 0),
                                         line_text=text, end_column=len(text) + 1))
    # Past the open step, what is asked would tell of cards not drawn yet (R267): this file is done.
    same_step = (step.state.round, step.state.phase) == (state.round, state.phase)
    missing = [f"{r.kind}: {r.prompt}" for r in step.requests if r.house == house and same_step]
    return problems, missing, None


def _commands_in(answer: str, texts: list[tuple[Command, str]]) -> list[Command]:
    """The commands an event's answer text stands for (one line, or several joined by '; ')."""
    exact = [c for c, t in texts if t == answer]
    if exact:
        return exact
    padded = f"; {answer}; "
    return [c for c, t in texts if f"; {t}; " in padded]
