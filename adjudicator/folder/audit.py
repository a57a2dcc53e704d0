"""The game's record and its audit: snapshots, the log, the archive, one step's derivation; replay.

The record of a game folder is append-only: every accepted file in ``archive/`` with its
``accept`` line in ``log``, every moderator action (deadline, rollback, reveal) in ``log``, and a
snapshot per resolved step in ``states/NNNN.toml`` naming the archived files it applied. One pure
function, :func:`derive`, takes a snapshot and archived files to the next snapshot; the batch run
(:mod:`adjudicator.folder.batch`) and :func:`replay` both use it, so anyone holding the folder can re-derive
every state byte for byte. See ``docs/game-folder.md``.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import machine
from ..engine.core.context import Request, pool_entry
from ..engine.events import Event
from ..engine.rules.standing import standing_of_other_keys
from ..game.board import Board
from ..game.boxes import DEFAULT_BOX
from ..game.state import GameState, Segment
from ..game.validation import box_keys, box_keys_changed
from ..seals.seal import NoSeal, SealError, decode, normalise, scan
from ..turnfile.header import Header, HeaderError, find_header
from ..turnfile.names import vocabulary_of
from ..util import fileio, tomltext, tomlwrite
from . import registry
from .defaults import DefaultRule, take_defaults
from .gamedir import GameDir, GameDirError
from .ledger import Archived, Ledger, in_force, log, log_lost, sha256, snapshot_numbers
from .stepreports import StepReportsError, folder_done, is_done, read_record, record_name

# Makes a step's record of its reports again from its outcome and the record kept (whose keys in
# force and sequence numbers were the registry's and the log's at the time): see outputs.py.
RecordOf = Callable[["Outcome", dict[str, Any]], bytes]

SETUP_NAME = "setup.toml"
PENDING_FILE = "pending"
PENDING_JSON = "pending.json"
_ARCHIVE_NAME = re.compile(r"^(\d{6})-")


class BatchError(GameDirError):
    """The game folder cannot be adjudicated as it is (exit status 2), with what to do about it."""


class CorruptFolder(BatchError):
    """A state or snapshot file that does not read back, or disagrees with the others."""


# --- snapshots --------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """One resolved step: the state and what was applied to reach it (``states/NNNN.toml``)."""

    number: int
    state: GameState
    applied: list[str] = field(default_factory=list)  # archive names applied in this step
    applied_through: int = 0  # every archived file up to this index was considered
    deadline: bool = False  # the open requests took their defaults
    defaults: list[str] = field(default_factory=list)  # keys of the requests filled by default
    since: dict[str, int] = field(default_factory=dict)  # open request key -> snapshot it appeared in
    previous_sha256: str = ""
    disorder: list[str] = field(default_factory=list)  # houses in civil disorder after this step (ruling 113)
    missed: list[str] = field(default_factory=list)  # houses that missed this step's deadline
    leaving: list[str] = field(default_factory=list)  # players maester leave named before this step (M124)

    def to_toml(self) -> str:
        meta: dict[str, Any] = {
            "number": self.number, "applied": list(self.applied), "applied_through": self.applied_through,
            "deadline": self.deadline, "defaults": list(self.defaults), "since": dict(self.since),
            "previous_sha256": self.previous_sha256,
        }  # fmt: skip
        # Written only when there are some: a snapshot of a game without them reads as it always did.
        meta |= {k: v for k, v in (("disorder", self.disorder), ("missed", self.missed), ("leaving", self.leaving)) if v}
        # tomli_w's text, with the tables unchanged since an earlier snapshot of this process not written again
        return tomlwrite.dumps({**self.state.to_dict(), "snapshot": meta})

    @classmethod
    def from_toml(cls, text: str, *, where: str) -> Snapshot:
        """:raises CorruptFolder: when the text is not a snapshot."""
        try:
            data = tomltext.loads(text)
            meta = data.pop("snapshot")
            return cls(
                number=int(meta["number"]), state=GameState.from_dict(data), applied=list(meta["applied"]),
                applied_through=int(meta["applied_through"]), deadline=bool(meta["deadline"]),
                defaults=list(meta["defaults"]), since={str(k): int(v) for k, v in meta["since"].items()},
                previous_sha256=str(meta["previous_sha256"]), disorder=[str(h) for h in meta.get("disorder", [])],
                missed=[str(h) for h in meta.get("missed", [])], leaving=[str(h) for h in meta.get("leaving", [])],
            )  # fmt: skip
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise CorruptFolder(f"{where} is not a readable snapshot ({type(e).__name__}: {e})") from None

    def label(self) -> str:
        """``0003-r1-action``: the name of this step's report folder."""
        return f"{self.number:04d}-r{self.state.round}-{self.state.phase}"

    def requests(self) -> list[Request]:
        return [Request.from_dict(p) for p in self.state.pending]

    def rule(self) -> DefaultRule:
        """What this snapshot's defaults were, as recorded: a replay takes exactly these."""
        return DefaultRule.recorded(self.defaults, self.disorder, self.missed)


def logged_leaving(entry: dict[str, Any]) -> list[str]:
    """The players ``maester leave`` named before the step a ``snapshot`` line of the log records (M124)."""
    return [str(h) for h in entry.get("leaving", [])]


def logged_rule(entry: dict[str, Any]) -> DefaultRule | None:
    """The defaults a ``snapshot`` line of the log records; ``None`` for a line of an older Maester,
    which records only whether a deadline was called (the requests open before it took their defaults)."""
    if not isinstance(entry.get("defaults"), list):
        return None
    return DefaultRule.recorded([str(k) for k in entry["defaults"]], [str(h) for h in entry.get("disorder", [])],
                                [str(h) for h in entry.get("missed", [])])  # fmt: skip


# --- the folder, as this module sees it -------------------------------------------------------


class Folder:
    """Paths and reads of the parts of a game folder that the batch run owns."""

    def __init__(self, gd: GameDir) -> None:
        self.gd = gd
        self.root = gd.root
        self.states = gd.folder("states")
        self.archive = gd.folder("archive")
        self.reports = gd.folder("reports")
        self.inbox = gd.folder("inbox")

    def snapshot_path(self, number: int) -> Path:
        return self.states / f"{number:04d}.toml"

    def numbers(self) -> list[int]:
        """The snapshot numbers in force (rolled-back ones live in sub-folders): the names ``NNNN.toml``."""
        return snapshot_numbers(self.states)

    def read_snapshot(self, number: int) -> Snapshot:
        """:raises CorruptFolder: when the snapshot cannot be read."""
        path = self.snapshot_path(number)
        try:
            text = path.read_text(encoding="utf-8")
        except PermissionError as e:
            raise CorruptFolder(f"cannot read {path}: {e.strerror} (check its permissions)") from None
        except (OSError, UnicodeDecodeError) as e:
            raise CorruptFolder(f"cannot read {path}: {e}; rebuild it with 'maester replay --repair {self.root}'") from None
        snap = Snapshot.from_toml(text, where=str(path))
        if snap.number != number:
            raise CorruptFolder(f"{path} says it is snapshot {snap.number}")
        return snap

    def setup_text(self) -> str:
        """The state as ``maester new`` wrote it, kept as ``states/setup.toml``."""
        return (self.states / SETUP_NAME).read_text(encoding="utf-8")

    def report_dir(self, snap: Snapshot) -> Path:
        """The step's report folder, as an older Maester wrote it (or the moderator's templates render it)."""
        return self.reports / snap.label()

    def reports_done(self, snap: Snapshot) -> bool:
        """Whether a run finished the step's outputs (:func:`adjudicator.folder.stepreports.is_done`)."""
        return is_done(self.reports, snap.label())

    def report_dir_of(self, number: int) -> Path | None:
        found = sorted(self.reports.glob(f"{number:04d}-*")) if self.reports.is_dir() else []
        return found[0] if found else None


# --- reading an archived submission -----------------------------------------------------------


@dataclass
class Understood:
    """What was made of one archived submission: its header, its answers and its problems."""

    name: str
    header: Header
    sealed: bool  # False: an unsealed text accepted on the moderator's word
    fingerprint: str = ""  # of the key that sealed it
    lines: list[tuple[int, str]] = field(default_factory=list)  # (line, canonical text) per accepted line
    entries: list[dict[str, Any]] = field(default_factory=list)  # pool entries, one per accepted line
    problems: list[str] = field(default_factory=list)  # per-line problems, as the parser says them
    warnings: list[str] = field(default_factory=list)  # lines read with a correction ("read as")
    ignored: list[str] = field(default_factory=list)  # text outside the sealed block
    logged: Archived | None = None  # its accept line in the log

    def disagreement(self) -> str:
        """How the header differs from the accept line in the log (``""`` when they agree or there is none)."""
        if self.logged is None:
            return ""
        h, a = self.header, self.logged
        said, logged = (h.house, h.round, h.step, h.seq), (a.house, a.round, a.step, a.seq)
        if said == logged:
            return ""
        return (f"its header names {h.house}, round {h.round} {h.step}, seq {h.seq}, and the log accepted it for "
                f"{a.house}, round {a.round} {a.step}, seq {a.seq}")


def open_archived(data: bytes, moderator_accepts: Container[str]) -> tuple[Header, str, str, list[str]]:
    """The header, the sealed text, the sealing key's fingerprint ("" if unsealed), the lines outside.

    An archived file holds one sealed block, or one unsealed text the moderator accepted: the
    unsealed reading is taken only when ``moderator_accepts`` (the log's ``moderator-accept``
    lines) holds the SHA-256 of that normalised text, so a file without a seal is never read as
    anyone's turn on its own word. The seal itself is checked at intake and by ``maester replay``.

    :raises SealError: when the bytes no longer hold one readable turn.
    """
    text = decode(data)
    found = scan(text)
    ignored = [f"lines {g.first_line}-{g.last_line} ignored ({g.reason})" for g in found.ignored]
    if len(found.blocks) > 1:
        raise SealError("an archived file holds exactly one turn")
    if found.blocks and not isinstance(found.blocks[0].error, NoSeal):
        sealed = found.blocks[0].open()
        return sealed.header, sealed.text, sealed.key.fingerprint, ignored
    body = normalise(text)
    if sha256(body.encode("utf-8")) not in moderator_accepts:
        raise NoSeal("it holds no sealed turn, and the log holds no moderator acceptance of its text")
    try:
        header = find_header(body)
    except HeaderError as e:
        raise SealError(str(e)) from None
    if header is None:
        raise SealError("the file has no header line")
    return header, body, "", []


def understand(name: str, data: bytes, record: Archived | None, moderator_accepts: Container[str], *,
               variant: str = DEFAULT_BOX) -> Understood:  # fmt: skip
    """Parse one archived submission into pool entries (ids ``house/R.step/seqN/Lk``).

    ``record`` is its ``accept`` line in the log (``None`` only for a file being checked before it
    is archived); :func:`derive` refuses the turn when its header says otherwise.

    :raises SealError: when the archived bytes no longer hold one readable turn.
    """
    from ..turnfile.parser import parse_turn_file
    from ..turnfile.printer import format_command  # the parser loads its grammar once

    header, text, fingerprint, ignored = open_archived(data, moderator_accepts)
    parsed = parse_turn_file(text, filename=name, variant=variant)
    out = Understood(name, header, bool(fingerprint), fingerprint, ignored=ignored, logged=record)
    prefix = entry_prefix(header)
    for cmd in parsed.commands:
        line = cmd.where.line if cmd.where is not None else 0
        canonical = format_command(cmd)
        out.lines.append((line, canonical))
        entry = pool_entry(id=f"{prefix}seq{header.seq}/L{line}", house=header.house, round=header.round,
                           command=cmd, text=canonical)
        if entry.get("standing") and fingerprint:  # a standing instruction ends with its key (ruling 358)
            entry["key"] = fingerprint
        out.entries.append(entry)
    out.problems = [p.render() for p in parsed.problems]
    out.warnings = [w.render() for w in parsed.warnings]
    return out


def archive_index(name: str) -> int:
    """The number an archived file's name starts with (0 for any other name).

    >>> archive_index("000012-stark-r2-action-seq1.txt")
    12
    """
    m = _ARCHIVE_NAME.match(name)
    return int(m[1]) if m else 0


def entry_prefix(header: Header) -> str:
    """How the pool ids of one house's answers for one step start.

    >>> entry_prefix(Header("demo", "stark", 3, "planning", 2))
    'stark/3.planning/'
    """
    return f"{header.house}/{header.round}.{header.step}/"


# --- one step: the pure derivation shared by the run and by replay ----------------------------


@dataclass
class Outcome:
    """A new snapshot and everything that was said on the way to it."""

    snapshot: Snapshot
    events: list[Event]
    requests: list[Request]
    understood: list[Understood]
    idle: dict[str, bool]  # per archive name: its house had nothing pending when it was applied
    start: GameState | None = None  # the state of the snapshot before (None for the first)
    filled: list[Request] = field(default_factory=list)  # the requests that took their default, in order


def derive(
    prev: Snapshot | None,
    base: GameState,
    number: int,
    understood: list[Understood],
    *,
    deadline: bool,
    previous_sha256: str,
    board: Board | None = None,
    rule: DefaultRule | None = None,
    leaving: Sequence[str] = (),
) -> Outcome:
    """Apply submissions (in archive order) and the defaults ``rule`` names; advance the engine.

    >>> from adjudicator.game.setup import new_game
    >>> first = derive(None, new_game(["stark", "lannister", "baratheon"], seed="doc"), 0, [],
    ...                deadline=False, previous_sha256="")
    >>> first.snapshot.label(), sorted({r.kind for r in first.requests})
    ('0000-r1-planning', ['orders'])

    A later file of a house for a step replaces that house's unused answers of earlier files of
    that step, unless its header says ``add`` (ruling 120). ``deadline`` says whether the moderator called a deadline at ``prev``; ``rule``
    (:class:`~adjudicator.folder.defaults.DefaultRule`) says which requests take their default:
    what the run found past due, or what a snapshot records. Without a rule, as an older log
    records a deadline, the requests that were open before and are still open after the files take
    their defaults, and the decisions that arise from them are asked as usual (ruling 91).
    ``leaving``: the players ``maester leave`` named since ``prev``; they leave at the end of the
    round, and this step's reports say so (M124, ruling 276).
    """
    # Shallow copies: the engine changes no state it is given, and only the answers pool is replaced here.
    state = copy.copy(base)
    announced = name_leaving(state, leaving)
    owing = {r.house for r in (prev.requests() if prev else [])}
    used = set(state.segment.used) if state.segment else set()
    new: list[dict[str, Any]] = []
    idle: dict[str, bool] = {}
    keyed: list[Event] = []
    for u in understood:
        if why := u.disagreement():  # intake never archives such a file: the archive or the log was changed
            raise CorruptFolder(f"archive/{u.name} is refused: {why}; check the game with 'maester replay'")
        if u.fingerprint:  # the house's first file sealed with a new key ends the old key's standing lines
            state.answers, ended = standing_of_other_keys(state.answers, u.header.house, u.fingerprint)
            keyed.extend(ended)
        if not u.header.add:  # ruling 94; a file whose header says "add" keeps them (ruling 120)
            prefix = entry_prefix(u.header)
            state.answers = [a for a in state.answers if not a["id"].startswith(prefix) or a["id"] in used]
            new = [a for a in new if not a["id"].startswith(prefix)]
        new.extend(u.entries)
        idle[u.name] = u.header.house not in owing
    step = machine.advance(state, new, board=board)
    if rule is None:
        rule = DefaultRule(keys=frozenset(p["key"] for p in prev.state.pending) if prev and deadline else frozenset())
    taken = take_defaults(step, rule, board=board, before=prev.disorder if prev else ())
    step, events = taken.step, [*announced, *keyed, *step.events, *taken.events]
    since_before = prev.since if prev else {}
    since = {r.key: since_before.get(r.key, number) for r in step.requests}
    # A file a rollback gave back keeps its name; its place in the order is its accept line's (ruling 301).
    places = (u.logged.index if u.logged is not None else archive_index(u.name) for u in understood)
    applied_through = max([prev.applied_through if prev else 0, *places])
    snap = Snapshot(
        number=number, state=step.state, applied=[u.name for u in understood], applied_through=applied_through,
        deadline=deadline, defaults=[r.key for r in taken.filled], since=since, previous_sha256=previous_sha256,
        disorder=taken.disorder, missed=taken.missed, leaving=list(leaving),
    )  # fmt: skip
    return Outcome(snap, events, step.requests, understood, idle, start=base if prev is not None else None,
                   filled=taken.filled)


def name_leaving(state: GameState, houses: Sequence[str]) -> list[Event]:
    """Add the players ``maester leave`` named to ``state.leaving`` (a new list), each announced
    publicly; a name the rules no longer allow here (the log edited by hand) is said and left out."""
    events: list[Event] = []
    for house in houses:
        from ..engine.events.bank import PlayerLeaving, PlayerLeft  # here: Mother of Dragons' rule, loaded only
        from ..engine.rules.leaving import leave_problem  # when a player was named (start-up)

        if why := leave_problem(state, house):
            events.append(PlayerLeft(house=house, power_returned=0, refused=why))
            continue
        state.leaving = [*state.leaving, house]
        events.append(PlayerLeaving(house=house, round=state.round))
    if state.segment is not None and state.leaving != box_keys(state.segment.start).get("leaving", []):
        # A step half resolved replays from its start: the names go there too (no decision reads them).
        seg = state.segment
        state.segment = Segment(seg.name, box_keys_changed(seg.start, leaving=list(state.leaving)), seg.decisions,
                                seg.used, seg.events_seen)  # fmt: skip
    return events


def pending_view(snap: Snapshot, game_id: str = "") -> dict[str, Any]:
    """Who owes what, and since which step: the data of ``pending.json`` and ``maester status``."""
    st = snap.state
    houses: dict[str, list[dict[str, Any]]] = {h: [] for h in st.houses_in_play}
    for r in snap.requests():
        since = snap.since.get(r.key, snap.number)
        houses.setdefault(r.house, []).append({"key": r.key, "kind": r.kind, "prompt": r.prompt, "since": since})
    view = {
        "game": game_id or st.game_id, "snapshot": snap.number, "label": snap.label(), "round": st.round,
        "step": st.phase, "winner": st.winner or "", "houses": houses,
    }  # fmt: skip
    if st.vassals:  # Mother of Dragons: a vassal's decisions go to its commander (M030); "" for none yet
        view["vassals"] = {v: st.commanders.get(v, "") for v in st.vassals if v in houses}
    return view


def pending_text(view: dict[str, Any], *, head: list[str] | None = None,
                 when: Callable[[str, dict[str, Any]], str] | None = None) -> str:  # fmt: skip
    """The view of :func:`pending_view` as lines for a person; ``head``: lines after the first,
    ``when(house, request)``: what to say of a request's due time (``maester status``)."""
    if view["snapshot"] < 0:
        return (f"Game {view['game']}: round {view['round']}, {view['step']}; no step resolved yet: "
                "'maester adjudicate' writes the first report and asks the first questions\n")  # fmt: skip
    out = [f"Game {view['game']}: round {view['round']}, {view['step']} (step {view['snapshot']:04d})", *(head or [])]
    if view["winner"]:
        out.append(f"The game is over: {registry.house_name(view['winner'])} won.")
    for house, reqs in view["houses"].items():
        if not reqs:
            out.append(f"  {house}: {_vassal_note(view, house) or 'nothing pending'}")
            continue
        out.append(f"  {house}: {len(reqs)} request{'s' if len(reqs) != 1 else ''}")
        for r in reqs:
            said = when(house, r) if when else ""
            out.append(f"    - {r['kind']}: {r['prompt']} (since step {r['since']:04d}{'; ' + said if said else ''})")
    return "\n".join(out) + "\n"


def _vassal_note(view: dict[str, Any], house: str) -> str:
    """Why a vassal owes nothing: its commander answers for it (M030), or nobody commands it yet."""
    if house not in view.get("vassals", {}):
        return ""
    commander = view["vassals"][house]
    return f"a vassal: {commander} answers for it (M030)" if commander else "a vassal, commanded by nobody yet (M030)"


def write_pending(folder: Folder, snap: Snapshot) -> None:
    """``pending`` and ``pending.json`` for a snapshot (derived: rewritten whenever it changes)."""
    view = pending_view(snap)
    fileio.atomic_write_text(folder.root / PENDING_FILE, pending_text(view))
    fileio.atomic_write_text(folder.root / PENDING_JSON, json.dumps(view, indent=1, sort_keys=True) + "\n")


# --- reveal: the seed at the end --------------------------------------------------------------


def reveal(root: str | Path, *, force: bool = False) -> str:
    """Publish the seed: ``[game] seed_revealed`` in game.toml and a ``reveal`` line in the log.

    :raises BatchError: when the seed does not match the commitment, or the game is not over
        (revealing early tells everyone the coming cards) and ``force`` is not given.
    """
    from ..game.rng import commitment

    gd = GameDir.open(root)
    with gd.lock():
        info = gd.info()
        seed = gd.seed()
        if commitment(seed) != info.seed_commitment:
            raise BatchError(f"{gd.seed_file} does not match the published commitment {info.seed_commitment}")
        state = gd.load_state()
        if state.phase != "game_over" and not force:
            raise BatchError("the game is not over: the seed tells every coming card (use --force to reveal anyway)")
        table = gd.read_game()["game"]
        if table.get("seed_revealed") != seed:
            gd.write_table("game", {**table, "seed_revealed": seed})
        if Ledger.read(gd.root).revealed != seed:  # also after a run killed between the two writes
            log(gd.root, {"action": "reveal", "seed": seed, "commitment": info.seed_commitment})
    return f"seed revealed: {seed} (commitment {info.seed_commitment}); 'maester replay {root}' now checks every shuffle"


# --- replay: re-derive everything and compare -------------------------------------------------


@dataclass
class Check:
    """What replay found: problems (any fails it) and notes."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = ["replay: every snapshot follows from the archive, byte for byte" if self.ok
                else f"replay FAILED: {len(self.problems)} problem(s)"]  # fmt: skip
        return head + [f"  problem: {p}" for p in self.problems] + [f"  {n}" for n in self.notes]


def check_archived(folder: Folder, a: Archived, ledger: Ledger, keys: dict[str, registry.KeyEntry], gid: str) -> str:
    """What is wrong with one archived file (its bytes, seal, key or header), or ``""``."""
    try:
        data = (folder.archive / a.name).read_bytes()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if sha256(data) != a.sha256:
        return "was changed after it was accepted (its SHA-256 differs from the log's)"
    try:
        header, _, fingerprint, _ = open_archived(data, ledger.moderator_accepts)
    except NoSeal:
        return "is unsealed and the log has no moderator acceptance for it"
    except SealError as e:
        return f"no longer holds a valid sealed turn ({e})"
    if fingerprint:
        key = keys.get(fingerprint)
        if key is None or key.house != header.house:
            return f"is sealed by key {fingerprint}, never registered for {registry.house_name(header.house)}"
    if header.game != gid or (header.house, header.round, header.step, header.seq) != (a.house, a.round, a.step, a.seq):
        return "has a header that differs from its acceptance in the log"
    return ""


def _first_difference(stored: str, derived: str) -> str:
    for i, (x, y) in enumerate(zip(stored.splitlines(), derived.splitlines()), 1):
        if x != y:
            return f"line {i}: stored {x[:70]!r}, derived {y[:70]!r}"
    return "one of them is longer"


def check_record(folder: Folder, outcome: Outcome, record_of: RecordOf, chk: Check, *, latest: bool) -> None:
    """Compare the record of the step ``outcome`` reached with ``record_of``'s re-derivation of it,
    byte for byte; a step whose reports an older Maester rendered into a folder is read as it is.
    The latest step's reports may be missing: the next run writes them (an interrupted run)."""
    label = outcome.snapshot.label()
    path = folder.reports / record_name(label)
    try:
        stored = path.read_bytes()
    except FileNotFoundError:
        if not latest and not folder_done(folder.report_dir(outcome.snapshot)):  # nor an older Maester's folder
            chk.problems.append(f"reports/{path.name} is missing (rebuild it with 'maester replay --repair {folder.root}')")
        return
    except OSError as e:
        chk.problems.append(f"reports/{path.name} cannot be read ({e.strerror or e})")
        return
    try:
        derived = record_of(outcome, read_record(stored, where=f"reports/{path.name}"))
    except StepReportsError as e:
        chk.problems.append(f"{e} (rebuild it with 'maester replay --repair {folder.root}')")
        return
    if derived != stored:
        at = next((i for i, (x, y) in enumerate(zip(stored, derived)) if x != y), min(len(stored), len(derived)))
        chk.problems.append(f"reports/{path.name} differs from its re-derivation at byte {at}: stored "
                            f"{stored[max(0, at - 30):at + 40]!r}, derived {derived[max(0, at - 30):at + 40]!r}")  # fmt: skip


def replay(root: str | Path, *, board: Board | None = None, record_of: RecordOf | None = None) -> Check:
    """Re-derive every snapshot from the setup, the archive and the logged deadlines; compare bytes.

    With a revealed seed, also check that the setup's decks are a fresh shuffle of that seed. With
    ``record_of`` (which makes a step's record of its reports again, :func:`adjudicator.folder.outputs.replay`),
    compare each step's record too.

    :raises GameDirError: when the folder is not a game folder.
    """
    gd = GameDir.open(root)
    folder, ledger, chk = Folder(gd), Ledger.read(gd.root, kept=False), Check()
    try:
        game = registry.read_game(gd.root)
        gid = registry.game_id(game)
    except registry.RegistryError as e:
        raise BatchError(str(e)) from None
    keys = {k.fingerprint: k for k in registry.key_entries(game)}
    bad = {a.name: why for a in [*ledger.archived, *ledger.set_aside.values()]
           if (why := check_archived(folder, a, ledger, keys, gid))}  # fmt: skip
    try:
        setup_text = folder.setup_text()
    except (OSError, UnicodeDecodeError) as e:
        chk.problems.append(f"states/{SETUP_NAME} cannot be read ({e}); nothing can be re-derived")
        return chk
    if ledger.setup_sha256 and sha256(setup_text.encode()) != ledger.setup_sha256:
        chk.problems.append(f"states/{SETUP_NAME} was changed (its SHA-256 differs from the log's)")
        return chk
    _check_seed(game, setup_text, chk)
    prev: Snapshot | None = None
    base, prev_text = GameState.from_toml(setup_text), setup_text
    before_text = prev_text  # the text of the snapshot before the latest (the setup's, for step 0000)
    numbers = in_force(ledger, found := folder.numbers())
    if numbers != found:  # the next command that may write finishes it (maester replay only reads)
        chk.notes.append(f"the rollback to {int(ledger.rollback['to']):04d} is logged and not finished: snapshots "  # type: ignore[index]
                         f"{', '.join(f'{n:04d}' for n in found if n not in numbers)} are set aside by it")  # fmt: skip
    if (lost := log_lost(gd.root, ledger, numbers)) is not None:
        chk.problems.append(lost)
        return chk
    gone = sorted(set(ledger.snapshots) - set(numbers))
    if gone:
        chk.problems.append(f"states/{gone[0]:04d}.toml is missing, and the log records it (rebuild it with "
                            f"'maester replay --repair {root}')")  # fmt: skip
        return chk
    for n in numbers:
        path = folder.snapshot_path(n)
        try:
            stored_text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            stored_text = f"(unreadable: {e})"
        logged = ledger.snapshots.get(n)
        if logged is not None:
            applied, deadline = [str(x) for x in logged["applied"]], bool(logged.get("deadline", False))
            rule, leaving = logged_rule(logged), logged_leaving(logged)
        else:
            try:
                meta = Snapshot.from_toml(stored_text, where=str(path))
            except CorruptFolder as e:
                chk.problems.append(f"states/{n:04d}.toml: {e}, and the log does not say what it applied")
                return chk
            applied, deadline, rule, leaving = meta.applied, meta.deadline, meta.rule(), meta.leaving
            chk.notes.append(f"states/{n:04d}.toml is not in the log yet (an interrupted run: the next adjudicate finishes it)")
        for name in applied:
            if name in bad:
                chk.problems.append(f"states/{n:04d}.toml cannot be re-derived: archive/{name} {bad[name]}")
                return chk
        understood = [understand(name, (folder.archive / name).read_bytes(), ledger.find(name), ledger.moderator_accepts,
                                 variant=vocabulary_of(base)) for name in applied]  # fmt: skip
        outcome = derive(prev, base, n, understood, deadline=deadline, previous_sha256=sha256(prev_text.encode()),
                         board=board, rule=rule, leaving=leaving)  # fmt: skip
        text = outcome.snapshot.to_toml()
        if text != stored_text:
            files = ", ".join(f"archive/{x}" for x in applied) or "no archived file"
            chk.problems.append(f"states/{n:04d}.toml differs from its re-derivation from {files}"
                                f"{' and a deadline' if deadline else ''}: {_first_difference(stored_text, text)}")  # fmt: skip
            return chk
        if logged is not None and logged.get("sha256") != sha256(text.encode()):
            chk.problems.append(f"the log's hash of states/{n:04d}.toml differs from the file")
        if record_of is not None:
            check_record(folder, outcome, record_of, chk, latest=n == numbers[-1])
        before_text, prev, base, prev_text = prev_text, outcome.snapshot, outcome.snapshot.state, text
    aside = set(ledger.set_aside) - {a.name for a in ledger.archived}
    chk.problems += [f"archive/{name} {why}" for name, why in bad.items() if name not in aside]
    chk.notes += [f"archive/{name} (set aside by a rollback, applied by no snapshot in force) {why}"
                  for name, why in bad.items() if name in aside]  # fmt: skip
    try:
        current = gd.state_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        current = None
    unfinished = prev is not None and not folder.reports_done(prev)
    if numbers and current != prev_text and unfinished and current == before_text:  # as maester adjudicate reads it
        chk.notes.append(f"state.toml is still the step before states/{numbers[-1]:04d}.toml, whose reports are not "
                         "written yet (an interrupted run: the next adjudicate finishes it)")  # fmt: skip
    elif numbers and current != prev_text and numbers == found:  # a rollback not finished writes state.toml last
        chk.problems.append(f"state.toml is not the latest snapshot states/{numbers[-1]:04d}.toml "
                            f"(rebuild it with 'maester replay --repair {root}')")  # fmt: skip
    through = prev.applied_through if prev else 0
    waiting = [a.name for a in ledger.archived if a.index > through]
    if waiting:
        chk.notes.append(f"archived but not applied yet: {', '.join(waiting)} (the next adjudicate applies them)")
    chk.notes.append(f"{len(numbers)} snapshot(s) and {len(ledger.archived)} archived file(s) checked")
    return chk


def _check_seed(game: dict[str, Any], setup_text: str, chk: Check) -> None:
    """With a revealed seed: its commitment, and the setup's decks against a fresh shuffle."""
    from ..game.box_setup import fresh_decks
    from ..game.rng import commitment
    from ..game.setup import SetupError
    from ..game.table_settings import random_seats_check
    from ..game.variants import laid_out_as_data, variant

    table = game.get("game", {})
    seed = table.get("seed_revealed")
    if not seed:
        chk.notes.append("the seed is not revealed yet: the shuffles are checked after 'maester reveal'")
        return
    if commitment(seed) != table.get("seed_commitment"):
        chk.problems.append("the revealed seed does not match the seed commitment published at the start")
        return
    setup = GameState.from_toml(setup_text)
    try:
        if "setup" in setup.options and laid_out_as_data(setup.box):  # laid out from a setup file (docs/setups.md)
            fresh = fresh_decks(setup, seed)
        else:
            fresh = variant(setup.variant).setup(setup.players(), seed=seed, game_id=setup.game_id,
                                                 tides_of_battle=bool(setup.options.get("tides_of_battle")),
                                                 house_cards=setup.house_deck())  # fmt: skip
    except SetupError as e:
        chk.problems.append(f"cannot set up a fresh game to compare with: {e}")
        return
    parts = ("rng_seed", "westeros_decks", "wildling_deck", "tides_deck", "loan_deck", "loan_slots")
    differ = [p for p in parts if getattr(fresh, p) != getattr(setup, p)]
    if differ:
        chk.problems.append(f"the setup's {', '.join(differ)} are not those of a fresh game with the revealed seed")
    else:
        chk.notes.append("the revealed seed matches its commitment and the setup's decks are its fresh shuffle")
    if (seats := random_seats_check(setup, seed)) is not None:  # random houses (ruling 450)
        (chk.notes if seats[0] else chk.problems).append(seats[1])
