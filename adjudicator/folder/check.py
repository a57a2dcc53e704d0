"""``maester check``: a turn file against a game's current state, changing nothing.

Two passes. The static checks need only the state and the board: the header, orders only where
the house has units and one per area, special orders within the King's Court stars, order tokens
within the copies a house owns, this round's bans, bids within available power, cards in hand,
the orders that raids, marches and consolidations name. Then the rules engine runs on a copy of
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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..game import commands as C
from ..game.board import Board
from ..game.cards import CARDS, VASSAL
from ..game.commands import ALL_ORDER_TOKENS, ORDER_TOKENS, SEA_ORDER_TOKENS, SPECIAL_TOKENS, Command, order_kind
from ..game.state import GameState
from ..turnfile.diagnostics import IllegalOrder, InvalidLine, Notice, TurnFileError
from ..turnfile.header import STEPS, Header, format_header
from ..turnfile.names import INFLUENCE_TRACKS, ORDER_TEXT, display_name, lookup, vocabulary, vocabulary_of
from ..turnfile.parser import TurnFile, parse_turn_file
from ..turnfile.printer import format_command
from ..turnfile.shadowing import shadowed
from ..util.lines import WRAP_WIDTH, long_lines, long_lines_text
from .published import PublishedStateError, old_state, published_state

__all__ = ["CheckError", "check_file", "check_turn_file"]

TRACK_TITLES = {"iron_throne": "the Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
DECIDERS = {"a_throne_of_blades": ("iron_throne", "the Iron Throne", "R044"),
            "dark_wings_dark_words": ("kings_court", "the Messenger Raven", "R047"),
            "put_to_the_sword": ("fiefdoms", "the Valyrian Steel Blade", "R056")}


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
    static = _Static(tf, state, board, who, early=early is not None)
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


def _used_ids(state: GameState) -> set[str]:
    return set(state.segment.used) if state.segment else set()


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
    used = _used_ids(state)
    return [a.get("text", "") for a in state.answers
            if a["id"] not in used and _earlier(a, prefix, tf.header.seq)]  # fmt: skip


def _trial(tf: TurnFile, state: GameState, house: str) -> GameState:
    """The state the engine tries the file on: only this house's own answers are kept (the others'
    are secret), less those the file replaces, as the run will do (ruling 94)."""
    import copy

    prefix = _step_prefix(tf, state, house)
    seq = tf.header.seq if tf.header else 0
    used = _used_ids(state)
    trial = copy.copy(state)
    trial.answers = [a for a in state.answers if a["house"] == house
                     and not (prefix and a["id"] not in used and _earlier(a, prefix, seq))]  # fmt: skip
    return trial


# --- static checks: the state and the board only ----------------------------------------------


@dataclass
class _Static:
    """Checks each command against the position; collects problems with their lines."""

    tf: TurnFile
    state: GameState
    board: Board
    house: str
    early: bool = False  # the file is for a step not open yet (ruling 90)

    def __post_init__(self) -> None:
        self.problems: list[TurnFileError] = []
        self.notices: list[Notice] = []
        # Ruling 9: the last line for an area is the one that counts; earlier ones are replaced.
        self.final = {c.area: c for c in self.tf.commands if isinstance(c, (C.AssignOrder, C.LeaveUnordered))}
        self.areas = sorted({a for a, s in self.state.areas.items() if any(u.house == self.house for u in s.units)})
        self.placed: dict[str, int] = {}  # area -> line of its order in this file
        self.tokens: Counter[str] = Counter()
        self.bids: dict[str, C.Bid] = {}  # track -> the bid that counts
        self.specials: list[str] = []  # 'Winterfell: march +1 (line 3)' for each special order accepted
        self.orders = self._orders()

    def _orders(self) -> dict[str, str]:
        """The house's orders to check raids, marches, consolidations and the raven against.

        Those on the board (after the reveal), else those this file places, else those the house
        has sent and the game holds until the reveal (for a file sealed ahead, ruling 90).
        """
        placed = {a: s.order.token for a, s in self.state.areas.items() if s.order and s.order.house == self.house}
        if placed or self.state.phase not in ("planning", "action"):
            return placed
        mine = {a: c.token for a, c in self.final.items() if isinstance(c, C.AssignOrder)}
        if mine or self.state.phase == "planning":
            return mine
        used = _used_ids(self.state)
        held = [C.from_dict(a["command"]) for a in self.state.answers
                if a["house"] == self.house and a["id"] not in used and a["command"].get("type") == "AssignOrder"]
        return {c.area: c.token for c in held if isinstance(c, C.AssignOrder)}

    def fail(self, cmd: Command, code: str, reason: str, suggestion: str = "") -> None:
        where = cmd.where or C.Where(self.tf.filename, 0)
        self.problems.append(IllegalOrder(code, reason, where=where, line_text=self.tf.texts.get(where.line, ""),
                                          end_column=len(self.tf.texts.get(where.line, "")) + 1, suggestion=suggestion))

    def check(self, cmd: Command) -> None:
        check = _CHECKS.get(type(cmd))
        if check is not None:
            check(self, cmd)
        when = getattr(cmd, "when", None)
        if when is not None and when.opponent is not None:
            self.player(cmd, when.opponent, "the opponent named")

    def name(self, area: str | None) -> str:
        return display_name("area", area) if area else "none"

    def player(self, cmd: Command, house: str | None, what: str) -> None:
        if house is not None and house not in self.state.houses_in_play:
            self.fail(cmd, "E412", f"{what}, {house}, is not playing in this game")
        elif house == self.house and what != "a house in the tie-break":
            self.fail(cmd, "E412", f"{what} cannot be your own house")

    def missing(self) -> list[str]:
        if self.state.phase != "planning" or not self.areas or self.state.orders_placed(self.house) or self._decided():
            return []
        refused = {p.where.line for p in self.problems}
        return [f"orders: no order yet for {self.name(a)}" if a not in self.placed else
                f"orders: no order for {self.name(a)} until the one on line {self.placed[a]} is mended"
                for a in self.areas if a not in self.placed or self.placed[a] in refused]  # fmt: skip

    def _decided(self) -> bool:
        seg = self.state.segment
        return bool(seg and any(k.endswith(f".orders.{self.house}") for k in seg.decisions))

    def holder(self, track: str) -> str:  # the highest player where vassals stand above it (M065)
        return self.state.holder(track) if self.state.tracks.get(track) else ""

    def check_bids(self) -> None:
        """Every bid is paid, won or lost (R086): a track's bid must fit what the bids before it leave."""
        asked = [r.get("context", {}).get("track") for r in self.state.pending if r.get("kind") == "bid"]
        first = min((INFLUENCE_TRACKS.index(t) for t in asked if t in INFLUENCE_TRACKS), default=0)
        left, paid = self.state.houses[self.house].power, list[str]()
        for track in INFLUENCE_TRACKS[first:]:
            bid = self.bids.get(track)
            if bid is None:
                continue
            if bid.amount > left:
                self.fail(bid, "E407", f"after your {' and '.join(paid)} you have {left} power left for "
                          f"{TRACK_TITLES[track]}: every bid is paid, won or lost (R082, R086)",
                          f"bid at most {left} here")  # fmt: skip
                continue
            left -= bid.amount
            paid.append(f"bid of {bid.amount} for {TRACK_TITLES[track]}")


def _assign(s: _Static, cmd: C.AssignOrder | C.LeaveUnordered) -> None:
    if s.state.phase != "planning":
        return s.fail(cmd, "E410", f"orders are placed in the Planning Phase; the game is in the {s.state.phase} phase (R114)")
    if cmd.area not in s.areas:
        st = s.state.area(cmd.area)
        if st.units:
            return s.fail(cmd, "E409", f"the units in {s.name(cmd.area)} are not yours; orders go only on your own units (R115)")
        return s.fail(cmd, "E401", f"you have no units in {s.name(cmd.area)}; orders go only on areas with your units (R115)")
    line = cmd.where.line if cmd.where else 0
    later = s.final.get(cmd.area)
    if later is not None and later is not cmd:
        s.notices.append(Notice("W205", f"replaced by the order for {s.name(cmd.area)} on line "
                                f"{later.where.line if later.where else '?'} (ruling 9)",
                                cmd.where or C.Where(s.tf.filename, 0), s.tf.texts.get(line, "")))
        return None
    s.placed[cmd.area] = line
    if isinstance(cmd, C.LeaveUnordered):
        if not _short(s):
            s.fail(cmd, "E412", "only a house short of order tokens may leave an area without an order (R121, R122)")
        return None
    if any(r == cmd.token or r == order_kind(cmd.token) for r in s.state.restrictions):
        return s.fail(cmd, "E406", f"no {cmd.token} order may be placed this round: a Westeros card forbids it (R120)")
    s.tokens[cmd.token] += 1
    if s.tokens[cmd.token] > ALL_ORDER_TOKENS[cmd.token]:  # a Mother of Dragons sea order too (M114)
        rule = "M114" if cmd.token in SEA_ORDER_TOKENS else "R112"
        return s.fail(cmd, "E405", f"you own {ALL_ORDER_TOKENS[cmd.token]} '{cmd.token}' order(s) and this is one more ({rule})")
    if cmd.token in SPECIAL_TOKENS:
        stars = s.state.stars(s.house, s.board)
        if len(s.specials) >= stars:
            regular = ORDER_TEXT[_REGULAR[order_kind(cmd.token)]]
            if not stars:
                why = "your place on the King's Court track allows no special orders (R119)"
            else:
                why = (f"your place on the King's Court track allows {stars} special order{'s' if stars > 1 else ''}, "
                       f"and {', '.join(s.specials)} already {'use them' if stars > 1 else 'uses it'} (R119)")
            return s.fail(cmd, "E404", why, f"use the regular order here ({s.name(cmd.area)}: {regular})")
        s.specials.append(f"{s.name(cmd.area)}: {ORDER_TEXT[cmd.token]} (line {line})")
    return None


_REGULAR = {"march": "march+0", "defense": "defense+1", "support": "support+0", "raid": "raid", "consolidate": "consolidate"}


def _short(s: _Static) -> bool:
    bans = s.state.restrictions
    ok = [t for t in ORDER_TOKENS if not any(r == t or r == order_kind(t) for r in bans)]
    regular = sum(ORDER_TOKENS[t] for t in ok if t not in SPECIAL_TOKENS)
    special = sum(ORDER_TOKENS[t] for t in ok if t in SPECIAL_TOKENS)
    return regular + min(special, s.state.stars(s.house, s.board)) < len(s.areas)


def _raven(s: _Static, cmd: C.Raven | C.RavenKeep) -> None:
    if s.holder("kings_court") != s.house:
        return s.fail(cmd, "E409", "only the Messenger Raven's holder uses it: " + s.state.holder_words("King's Court", "R125"))
    if s.state.raven_used:
        return s.fail(cmd, "E412", "the Messenger Raven has been used this round (R125)")
    if isinstance(cmd, C.Raven) and cmd.action == "swap" and cmd.token:
        if cmd.area not in s.orders:
            return s.fail(cmd, "E411", f"you have no order in {s.name(cmd.area)} to swap (R125)")
        if any(r == cmd.token or r == order_kind(cmd.token) for r in s.state.restrictions):
            s.fail(cmd, "E406", f"no {cmd.token} order may be placed this round, by the raven either (R126)")
    return None


def _needs_order(s: _Static, cmd: Command, area: str | None, kind: str, rule: str) -> bool:
    if not s.orders and s.early:
        return True  # sealed ahead with no orders known yet: they are judged when the step opens
    token = s.orders.get(area or "")
    if token is None or order_kind(token) != kind:
        s.fail(cmd, "E411", f"you have no {kind} order in {s.name(area)} ({rule})")
        return False
    return True


def _raid(s: _Static, cmd: C.Raid) -> None:
    if not _needs_order(s, cmd, cmd.origin, "raid", "R129"):
        return
    origin = s.board.area(cmd.origin)
    for t in cmd.targets:
        if t is None:
            continue
        if not s.board.adjacent(cmd.origin, t):
            s.fail(cmd, "E412", f"{s.name(t)} is not next to {s.name(cmd.origin)}; a raid hits an adjacent area (R130)")
        elif origin.is_land and not s.board.area(t).is_land:
            s.fail(cmd, "E412", f"a raid from land cannot target the sea area {s.name(t)} (R132)")


def _march(s: _Static, cmd: C.March) -> None:
    if not _needs_order(s, cmd, cmd.origin, "march", "R141"):
        return
    have = Counter(u.type for u in s.state.area(cmd.origin).units if u.house == s.house)
    sent: Counter[str] = Counter()
    for mv in cmd.moves:
        dest = s.board.area(mv.destination)
        for spec in mv.units:
            sent[spec.unit] += spec.count
            if spec.unit == "ship" and (dest.is_land or not s.board.adjacent(cmd.origin, mv.destination)):
                s.fail(cmd, "E412", f"ships move only to an adjacent sea area or port, not {dest.name} (R144, R145)")
            elif spec.unit != "ship" and not dest.is_land:
                s.fail(cmd, "E412", f"a {spec.unit.replace('_', ' ')} never enters a sea area or port like {dest.name} (R145)")
    for mv in cmd.moves:
        if any(u.unit != "ship" for u in mv.units) and s.board.area(mv.destination).is_land \
                and not s.board.adjacent(cmd.origin, mv.destination) and not _transport(s, cmd.origin, mv.destination):
            s.notices.append(Notice("W401", f"{s.name(mv.destination)} is not next to {s.name(cmd.origin)} and no chain "
                                    "of your ships links them now: the march is refused when it resolves unless your "
                                    "ships make that chain first (R144, R157)", cmd.where or _where(s.tf, 0),
                                    s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip
    for mv in cmd.moves:
        _against_neutral(s, cmd, mv)
    _family_entries(s, cmd, s.house)
    _leave_power(s, cmd, have, sent)
    if cmd.leave_power and s.state.houses[s.house].power == 0:
        s.notices.append(Notice("W401", "you have no available power now to leave a token: the march is refused "
                                "when it resolves unless you gain power first (R244)", cmd.where or _where(s.tf, 0),
                                s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip
    for unit, n in sent.items():
        if n > have[unit]:
            s.fail(cmd, "E413", f"{s.name(cmd.origin)} holds {have[unit]} of your {unit.replace('_', ' ')}s, not {n} (R142)")


def _leave_power(s: _Static, cmd: C.March, have: Counter[str], sent: Counter[str]) -> None:
    """R241: a power token is left only on a land area all the house's units leave (ruling 314: as the
    run refuses it; the units there only grow before the march, but for a defence won, which is mailed)."""
    if not cmd.leave_power:
        return
    origin = s.board.area(cmd.origin)
    if not origin.is_land:
        s.fail(cmd, "E412", f"power tokens are left only on land areas, not {origin.name} (R241)")
    elif sum(sent.values()) < sum(have.values()):
        staying = ", ".join(f"{n - sent[u]} {u.replace('_', ' ')}" for u, n in sorted(have.items()) if n > sent[u])
        s.fail(cmd, "E412", f"your units do not all leave {origin.name} ({staying} would stay), so no power "
               "token is placed there: name every unit, or leave out 'leave power' (R241)")


def _family_entries(s: _Static, cmd: C.March, house: str, at: Command | None = None) -> None:
    """Mother of Dragons: a march into an area of the marcher's own family this round (M044, M045, M069)."""
    from ..engine.rules.marches import family_entry_problem

    for mv in cmd.moves:
        if mv.destination not in s.board.areas or (house in s.state.vassals and s.board.area(mv.destination).is_port):
            continue  # a vassal's march into a port is refused at once, by the rules engine (M044)
        why = family_entry_problem(s.state, s.board, house, mv.destination)
        if why:
            where = (at or cmd).where
            s.notices.append(Notice("W401", f"{why}: the march is refused when it resolves unless control of "
                                    f"{s.name(mv.destination)} changes first", where or _where(s.tf, 0),
                                    s.tf.texts.get(where.line if where else 0, "")))  # fmt: skip


def _for_vassal(s: _Static, cmd: C.ForVassal) -> None:
    """A commander's line for its vassal: the vassal's own limits that can be seen now (M044, M045)."""
    if isinstance(cmd.command, C.March) and cmd.vassal in s.state.vassals:
        _family_entries(s, cmd.command, cmd.vassal, at=cmd)


def _against_neutral(s: _Static, cmd: C.March, mv: C.Move) -> None:
    """Ruling 5: a march into a neutral force needs the strength the marcher can count on."""
    force = s.state.area(mv.destination).neutral_force
    token = s.orders.get(cmd.origin)
    if not force or token is None or mv.destination in s.state.impassable:
        return
    import copy

    from ..engine.rules.marches import sure_strength
    from ..game.state import Order, Unit

    trial = copy.copy(s.state)  # the orders as the march will find them: this file's, if it places them
    trial.areas = dict(s.state.areas)
    for area, tok in s.orders.items():
        trial.areas[area] = copy.copy(s.state.area(area))
        trial.areas[area].order = Order(s.house, tok)
    units = [Unit(s.house, spec.unit) for spec in mv.units for _ in range(spec.count)]
    strength = sure_strength(trial, s.board, s.house, mv.destination, units, token)
    if strength < force:
        s.notices.append(Notice("W401", f"your strength against the neutral force in {s.name(mv.destination)} would "
                                f"be {strength}, less than its {force}: counting your marching units, the march order "
                                "and your own support orders next to it; the march is refused when it resolves "
                                "unless these grow first (R231, ruling 5)", cmd.where or _where(s.tf, 0),
                                s.tf.texts.get(cmd.where.line if cmd.where else 0, "")))  # fmt: skip


def _transport(s: _Static, origin: str, destination: str) -> bool:
    from ..engine.core.common import transport_reach

    return destination in transport_reach(s.state, s.board, s.house, origin)


def _consolidate(s: _Static, cmd: C.Consolidate) -> None:
    if _needs_order(s, cmd, cmd.area, "consolidate", "R161") and cmd.muster is not None:
        if s.orders.get(cmd.area) != "consolidate*":
            s.fail(cmd, "E411", "only a special consolidate power order can muster (R165)")
        elif not s.board.area(cmd.area).has_castle:
            s.fail(cmd, "E412", f"{s.name(cmd.area)} has no castle or stronghold to muster in (R165)")


def _support(s: _Static, cmd: C.Support) -> None:
    if cmd.origin is not None:
        _needs_order(s, cmd, cmd.origin, "support", "R172")
    if cmd.side not in (None, "attacker", "defender") and cmd.side not in s.state.houses_in_play:
        s.fail(cmd, "E412", f"the house supported, {cmd.side}, is not playing in this game")


def _play(s: _Static, cmd: C.PlayCard) -> None:
    card = CARDS.house_cards[cmd.card]
    if card.house == VASSAL:
        return s.fail(cmd, "E409", f"{card.name} is a vassal house card: only a vassal plays it, its commander "
                                   f"writing 'for VASSAL: play {card.name}' (M058)")
    if card.house != s.house:
        return s.fail(cmd, "E409", f"{card.name} is a {card.house.title()} card, not one of yours (R192)")
    if cmd.card not in s.state.houses[s.house].hand:
        return s.fail(cmd, "E408", f"{card.name} is not in your hand: it is in your discard pile (R195)")
    return None


def _card_choice(s: _Static, cmd: C.CardChoice) -> None:
    card = CARDS.house_cards[cmd.card]
    if card.house == VASSAL and cmd.card != "bronn":  # Bronn asks the vassal's opponent, a player
        s.fail(cmd, "E409", f"{card.name} is a vassal house card: its commander answers for the vassal with "
                            f"'for VASSAL: {card.name}: ...' (M058)")
    elif card.house != s.house and card.house != VASSAL:
        s.fail(cmd, "E409", f"{card.name} is a {card.house.title()} card: only its player chooses for it (R193)")
    elif cmd.card == "aeron_damphair" and cmd.house_card and cmd.house_card not in s.state.houses[s.house].hand:
        s.fail(cmd, "E408", f"{display_name('house_card', cmd.house_card)} is not in your hand (R193)")
    elif cmd.amount and cmd.amount > (power := s.state.houses[s.house].power):
        s.fail(cmd, "E407", f"{card.name} discards {cmd.amount} power tokens but you have {power} available (R193)")


def _bid(s: _Static, cmd: C.Bid) -> None:
    power = s.state.houses[s.house].power
    if cmd.amount > power:
        rule = "R101" if cmd.track == "wildlings" else "R082"
        s.fail(cmd, "E407", f"you bid {cmd.amount} but have {power} power available ({rule})")
    elif cmd.track != "wildlings":
        s.bids[cmd.track] = cmd  # the last bid for a track is the one that counts


def _distribute(s: _Static, cmd: C.DistributeBid) -> None:
    if s.house != "targaryen":
        s.fail(cmd, "E409", "only Targaryen gives away the power it bid (M100)")
    if cmd.track not in ("iron_throne", "fiefdoms", "kings_court"):
        s.fail(cmd, "E412", "Targaryen gives away its bid for an influence track only (M100)")
    for g in cmd.gifts:
        s.player(cmd, g.house, "a house receiving Targaryen's bid (M100)")


def _tie_break(s: _Static, cmd: C.TieBreak) -> None:
    if s.holder("iron_throne") != s.house:
        s.fail(cmd, "E409", f"only the Iron Throne's holder breaks ties: {s.state.holder_words('Iron Throne', 'R084, R091')}")
    for h, n in Counter(cmd.order).items():
        s.player(cmd, h, "a house in the tie-break")
        if n > 1:
            s.fail(cmd, "E412", f"{h} is named {n} times in the tie-break")


def _westeros(s: _Static, cmd: C.WesterosChoice) -> None:
    if cmd.card not in DECIDERS:  # Westeros deck IV: Targaryen's own choices (M083), and a named player's part
        if s.house != "targaryen" and cmd.card not in ("the_long_plan", "playing_with_fire", "scattering_dissent",
                                                        "word_spreads_quickly"):
            s.fail(cmd, "E409", f"only Targaryen chooses for {display_name('westeros_card', cmd.card)} (M083)")
        return
    track, token, rule = DECIDERS[cmd.card]
    if s.holder(track) != s.house:
        s.fail(cmd, "E409", f"only the holder of {token} chooses for {display_name('westeros_card', cmd.card)} ({rule})")


def _muster(s: _Static, cmd: C.Muster) -> None:
    area = s.board.area(cmd.area)
    if not area.has_castle or s.state.controller(cmd.area, s.board) != s.house:
        s.fail(cmd, "E412", f"you muster only in castle or stronghold areas you control; {area.name} is not one (R067)")
    for a in (action for actions in cmd.choices() for action in actions):  # each fall-back too (ruling 357)
        if a.to is not None and a.unit != "ship":
            s.fail(cmd, "E412", "only ships are placed elsewhere; other units stay in the mustering area (R078)")
        elif a.to is not None and a.to != area.port and not (s.board.area(a.to).is_sea and s.board.adjacent(cmd.area, a.to)):
            s.fail(cmd, "E412", f"a ship mustered in {area.name} goes into its port or an adjacent sea, not "
                   f"{s.name(a.to)} (R075)")


def _reconcile(s: _Static, cmd: C.Reconcile) -> None:
    wanted: Counter[tuple[str, str]] = Counter()
    for r in cmd.removals:
        wanted[(r.area, r.unit)] += r.count
    for (area, unit), n in wanted.items():
        have = sum(1 for u in s.state.area(area).units if u.house == s.house and u.type == unit)
        if n > have:
            s.fail(cmd, "E413", f"{s.name(area)} holds {have} of your {unit.replace('_', ' ')}s, not {n} (R060)")


def _blade(s: _Static, cmd: C.UseBlade) -> None:
    if cmd.use and s.state.phase in ("planning", "action") and s.holder("fiefdoms") != s.house:
        s.fail(cmd, "E409", f"only the Valyrian Steel Blade's holder uses it: {s.state.holder_words('Fiefdoms', 'R199')}")


def _retreat(s: _Static, cmd: C.Retreat) -> None:
    if cmd.when is not None and cmd.when.role == "attacker":
        s.fail(cmd, "E412", "a defeated attacker always retreats to the area it marched from (R208); only a defender "
               "chooses where to retreat (R209)")


def _port(s: _Static, cmd: C.PortShips) -> None:
    if not s.board.area(cmd.port).is_port:
        s.fail(cmd, "E412", f"{s.name(cmd.port)} is not a port (R246)")


def _for_line(s: _Static, cmd: C.ForVassal) -> None:
    """``for tyrell: ...``: only for a vassal of this game, commanded by this house if anyone commands
    it now (M030, M031), and never a bid: a vassal bids 0 unasked (M064, M066); then the vassal's
    own limits (:func:`_for_vassal`)."""
    v, who = cmd.vassal.title(), s.state.commander(cmd.vassal)
    if not s.state.is_vassal(cmd.vassal):
        listed = ", ".join(h.title() for h in s.state.vassals) or "none in this game"
        return s.fail(cmd, "E409", f"{v} is not a vassal; 'for VASSAL:' answers a vassal's decision (vassals: {listed}) (M030)")
    if who is not None and who != s.house:
        return s.fail(cmd, "E409", f"{v} is commanded by {who.title()}, who decides for it until the next Planning "
                      "Phase begins (M030, M031)")  # fmt: skip
    if isinstance(cmd.command, C.Bid):
        return s.fail(cmd, "E409", f"a vassal never bids: {v} bids 0 on the influence tracks unasked, and takes no "
                      "part against the wildlings; only power Targaryen gives it raises its bid (M064, M066)")
    _for_vassal(s, cmd)


_CHECKS: dict[type, Callable[[_Static, Any], None]] = {
    C.AssignOrder: _assign, C.LeaveUnordered: _assign, C.Raven: _raven, C.RavenKeep: _raven, C.Raid: _raid,
    C.March: _march, C.Consolidate: _consolidate, C.Support: _support, C.PlayCard: _play, C.CardChoice: _card_choice,
    C.Bid: _bid, C.TieBreak: _tie_break, C.DistributeBid: _distribute, C.WesterosChoice: _westeros, C.Muster: _muster, C.Reconcile: _reconcile,
    C.UseBlade: _blade, C.PortShips: _port, C.Retreat: _retreat, C.ForVassal: _for_line,
    C.RefuseSupport: lambda s, c: s.player(c, c.supporter, "the house whose support you refuse"),
}


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
