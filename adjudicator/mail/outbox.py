"""Mail out: each reader gets everything since their last mail, once (rulings 303-305).

``maester outbox GAME_DIR`` writes, for each reader with something new, one mail
(:mod:`adjudicator.mail.digest`): every step's report since that reader's last mail, oldest
first, with the receipts of its files, accepted or refused. The readers are each house with a
registered address, the moderator (the public reports and the receipts no house may be sent) and,
when ``game.toml`` names one (``[mail] list``) or ``--public-to`` does, a game list (the public
reports). The mails go to ``GAME_DIR/outbox/NNNN/READER.eml`` (NNNN: the latest step), and one
``outbox`` line in the log says what each carries; ``--send smtp://HOST:PORT`` sends every mail
written and not sent yet, and logs a ``mailed`` line for each just after the server took it. So a
run killed while sending sends, at the next run, exactly the mails not sent, and none twice; and
the next mail of a reader starts after the last step it was mailed (:mod:`adjudicator.folder.mailbook`).

Beside each mail goes its recipe, what it is made of; once the mail is sent, the recipe and the
reports are the mail, and its ``.eml`` is removed (:mod:`adjudicator.mail.recipe`, ruling 318).

A mail written and not sent is written afresh when there is more to say (a new step, a new
receipt, an address changed): the old one is superseded, moved to ``outbox/superseded/``, and
never sent.
"""

from __future__ import annotations

import hashlib
import json
import smtplib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from ..folder import deadlines, mailstore, registry, stepreports
from ..folder.audit import Folder, Snapshot
from ..folder.gamedir import GameDir
from ..folder.ledger import Ledger, log
from ..folder.mailbook import MailBook
from ..folder.mailstore import MANIFEST_FILE
from ..folder.notices import logged_path
from ..folder.settle import locked
from ..folder.stepreports import StepReports
from ..seals.keys import KeyPair
from . import news
from .digest import (
    MODERATOR,
    PUBLIC,
    REPORT_NAMESPACE,
    Asked,
    Digest,
    Game,
    seal_report,
    verify_report,
)
from .mailbuild import Fixed, boundaries, build, map_pictures, report_sha256, step_part
from .recipe import RecipeError, mail_bytes, notice_text, recipe_of, shrink, shrink_sent, write_recipe
from .sending import (
    OUTBOX,
    SENT_FILE,
    OutboxError,
    OutboxReport,
    SmtpServer,
    close,
    connect,
    deliver,
    parse_smtp_url,
    read_json,
    reason,
    said,
)
from .untaken import MARK, listed_through, untaken_since

__all__ = [
    "REPORT_NAMESPACE", "OutboxError", "OutboxReport", "SmtpServer", "mark_sent", "parse_smtp_url",
    "report_folder", "seal_report", "send_outbox", "verify_report", "write_outbox",
]  # fmt: skip

# --- which reports ---------------------------------------------------------------------------------


def complete_folders(gd: GameDir) -> list[StepReports]:
    """The steps in force whose reports are complete, in order (:func:`adjudicator.folder.stepreports.steps`)."""
    return stepreports.steps(gd.root)


def report_folder(gd: GameDir, step: int | None = None) -> StepReports:
    """The complete reports of step ``step`` (default: the latest).

    :raises OutboxError: when there is no such step, or its reports are not complete.
    """
    done = complete_folders(gd)
    if step is not None:
        done = [p for p in done if p.name.startswith(f"{step:04d}-")]
        if not done:
            raise OutboxError(f"step {step:04d} has no complete reports in {gd.root / 'reports'} (see 'maester status')")
    if not done:
        raise OutboxError(f"{gd.root / 'reports'} holds no complete reports yet: run 'maester adjudicate {gd.root}' first")
    return done[-1]


# --- who gets what ----------------------------------------------------------------------------------


def list_address(game: dict[str, Any]) -> str:
    """The game list's address, ``[mail] list`` in game.toml ("" when there is none).

    :raises OutboxError: when it is not one plain address.
    """
    table = game.get("mail", {})
    if not isinstance(table, dict):
        raise OutboxError(f"{registry.GAME_FILE}: 'mail' must be a table ([mail] list = \"agot@lists.example.org\")")
    value = table.get("list", "")
    if not value:
        return ""
    try:
        return registry.one_address(str(value), f"[mail] list {str(value)!r} in game.toml")
    except registry.RegistryError as e:
        raise OutboxError(str(e)) from None


@dataclass
class _Plan:
    """One reader's mail to write: where it goes and what it is made of."""

    digest: Digest
    address: str
    folders: list[StepReports]
    notice_paths: list[str]
    source: str = ""
    hashes: list[tuple[str, str]] = field(default_factory=list)  # (name, hash) of the report folders it carries


def _legacy_through(root: Path, book: MailBook) -> dict[str, int]:
    """Where each reader's mails stopped, for a game mailed by an older Maester (no ``outbox`` line in
    the log): the highest ``outbox/NNNN/`` holding its mail as sent (``sent.json``), or as written
    when the folder has no ``sent.json`` (the moderator sent it by hand); ``public.eml`` went to the
    moderator or the list. A rollback logged after a mail takes the mark back to its step. Only a
    folder an older Maester wrote counts: one of this Maester's without its log line is a run that
    never committed (ruling 330)."""
    if book.lines:
        return dict(book.through)
    marks: dict[str, tuple[int, str]] = {}
    base = root / OUTBOX
    folders = sorted(base.glob("[0-9][0-9][0-9][0-9]")) if base.is_dir() else []
    for folder in [f for f in folders if mailstore.is_older_maesters(root, f)]:
        sent = read_json(folder / SENT_FILE)
        names = {n: str(e.get("sent", "")) for n, e in sent.items() if isinstance(e, dict)} if sent else \
            dict.fromkeys(read_json(folder / MANIFEST_FILE).get("mails", {}), "")  # fmt: skip
        for name, when in names.items():
            who = name.removesuffix(".eml")
            for reader in (MODERATOR, PUBLIC) if who == PUBLIC else (who,):
                if int(folder.name) >= marks.get(reader, (-1, ""))[0]:
                    marks[reader] = (int(folder.name), when)
    out = {}
    rollbacks = [e for e in registry.read_log(root) if e.get("action") == "rollback"]
    for reader, (number, when) in marks.items():
        for e in rollbacks:
            if str(e.get("time", "")) > when and int(e.get("to", number)) < number:
                number = int(e["to"])
        out[reader] = number
    return out


def _notices(ledger: Ledger, root: Path, who: str) -> list[tuple[str, str]]:
    """The receipts of files not taken that go to ``who`` and no mail of its carried yet."""
    sent = ledger.mail.delivered.get(who, set())
    out = []
    for line in ledger.notices.values():
        path = str(line.get("receipts", {}).get(who, ""))
        if path and path not in sent:
            out.append((path, notice_text(root, path)))
    return out


def _told_houses(ledger: Ledger, root: Path, players: dict[str, dict[str, Any]]) -> tuple[list[str], list[str]]:
    """For the moderator: one line per receipt that went to a house and was not listed to it yet."""
    sent = ledger.mail.delivered.get(MODERATOR, set())
    lines, paths = [], []
    for line in ledger.notices.values():
        for who, path in line.get("receipts", {}).items():
            if who == MODERATOR or path in sent:
                continue
            address = str(players.get(who, {}).get("email", ""))
            to = f"{registry.house_name(who)} ({address})" if address else \
                f"{registry.house_name(who)}: it has no address, forward it yourself"  # fmt: skip
            lines.append(f"{path} ({logged_path(root, str(line.get('file', '')))}): to {to}")
            paths.append(str(path))
    return lines, paths


# --- writing the outbox ----------------------------------------------------------------------------


def write_outbox(game_dir: str | Path, step: int | None = None, *, key: KeyPair | None = None,
                 sender: str | None = None, public_to: str | None = None,
                 now: datetime | None = None) -> OutboxReport:  # fmt: skip
    """Write each reader's mail of everything since their last mail (see the module's doc).

    ``step``: mail the steps up to this one only (default: the latest with complete reports).

    :raises OutboxError: for no complete reports, no sender address, a bad address, or a damaged
        outbox record.
    :raises GameDirError: for a folder that is not a game folder, or is busy.
    """
    gd = GameDir.open(game_dir)
    game = registry.read_game(gd.root)
    game_id = registry.game_id(game)  # a damaged game.toml is named before anything else
    players = registry.players(game)
    try:  # every address before anything is written: a hand-edited list must not get a private report
        for who, entry in players.items():
            if entry.get("email"):
                registry.one_address(str(entry["email"]), f"players.{who}.email {str(entry['email'])!r} in game.toml")
        if public_to:
            registry.one_address(public_to, f"--public-to {public_to!r}")
    except registry.RegistryError as e:
        raise OutboxError(str(e)) from None
    public_to = public_to or list_address(game)
    try:
        every = news.every_step(game)
    except news.MailSettingError as e:
        raise OutboxError(str(e)) from None
    sender = sender or str(players.get(MODERATOR, {}).get("email", ""))
    if "@" not in parseaddr(sender)[1]:
        raise OutboxError("give the moderator's address with --from ADDR "
                          "(or register it: maester register GAME_DIR --house moderator --key KEY.pub --email ADDR)")  # fmt: skip
    if (gd.root / OUTBOX).exists() and not (gd.root / OUTBOX).is_dir():
        raise OutboxError(f"{gd.root / OUTBOX} is not a folder: move it away; the mails are written there")
    with locked(gd, timeout=10):
        mailstore.sweep_every_folder(gd.root)
        latest = report_folder(gd, step)
        folders = [p for p in complete_folders(gd) if p.name <= latest.name]
        number = int(latest.name[:4])
        ledger = Ledger.read(gd.root)
        shrink_sent(gd.root, ledger.mail)  # before a new mail takes its reader's place: a mail left whole is one current
        snap = Folder(gd).read_snapshot(number)
        g = Game.at(game_id, number, latest.name, snap.state, parseaddr(sender)[1], key, now or datetime.now(UTC))
        report = OutboxReport(game_id, latest.name, gd.root / OUTBOX / f"{number:04d}")
        through = _legacy_through(gd.root, ledger.mail)  # read before this run writes into outbox/
        plans = _plans(gd, ledger, g, snap, folders, players, public_to, report, through, every)
        records = _write(gd, ledger, g, plans, report)  # staged: nothing counts before the log line
        if records:
            report.folder = gd.root / records[0]["folder"]
            line: dict[str, Any] = {"action": "outbox", "folder": records[0]["folder"],
                                    "mails": [{k: v for k, v in r.items() if k != "folder"} for r in records]}
            if not ledger.mail.lines and through:
                line["legacy_through"] = through  # what an older Maester mailed: the record starts from it
            log(gd.root, line)  # the commit point (ruling 330): then the mails take their places
            mailstore.place(gd.root, Ledger.read(gd.root).mail, records[0]["folder"])
        _note_key(report, game, key)
    return report


def _plans(gd: GameDir, ledger: Ledger, g: Game, snap: Snapshot, folders: list[StepReports],
           players: dict[str, dict[str, Any]], public_to: str, report: OutboxReport,
           through: dict[str, int], every: bool) -> list[_Plan]:  # fmt: skip
    """What each reader's mail would carry now (readers with nothing to tell are left out)."""
    schedule = deadlines.load_schedule(gd)
    clock = deadlines.Clock(schedule, ledger, g.now)
    in_disorder = deadlines.disorder_now(ledger, schedule).houses
    readers: list[tuple[str, str]] = []
    gone = registry.departed(gd.root, registry.read_game(gd.root))  # a house whose player left: no more mail
    for house in (h for h in snap.state.houses_in_play if h not in gone):
        address = str(players.get(house, {}).get("email", ""))
        if address:
            readers.append((house, address))
        else:
            report.notes.append(f"no mail for {registry.house_name(house)}: it has no address "
                                f"(maester register GAME_DIR --house {house} --key KEY.pub --email ADDR)")  # fmt: skip
    readers.append((MODERATOR, g.sender))
    if public_to:
        readers.append((PUBLIC, public_to))
    plans = []
    hashes: dict[str, str] = {}  # of the report folders, each hashed once a run
    for who, address in readers:
        mine = [p for p in folders if int(p.name[:4]) > through.get(who, -1)]
        d = Digest(who, undone=list(ledger.mail.undone.get(who, [])), scheduled=clock.schedule is not None)
        if who in snap.state.houses_in_play:
            d.asked, d.disorder = asked_of(snap, clock, who), who in in_disorder
        notice_paths: list[str] = []
        if who != PUBLIC:
            d.notices = _notices(ledger, gd.root, who)
            notice_paths = [p for p, _ in d.notices]
        if who == MODERATOR:
            d.told_houses, told = _told_houses(ledger, gd.root, players)
            notice_paths += told
            d.untaken, last = untaken_since(gd.root, listed_through(ledger.mail.delivered.get(MODERATOR, set())))
            notice_paths += [f"{MARK}{last}"] if d.untaken else []  # the mails not taken it lists (ruling 325)
        plan = _Plan(d, address, mine, notice_paths)
        sections = every or news.counts_length(who)  # else read when it is written
        d.steps = [step_part(p, who, sections=sections) for p in mine]
        if d.empty() or not news.reasons(d, told=_told(ledger.mail, who), every=every):
            continue  # nothing to tell yet: the steps wait for the reader's next mail (ruling 313)
        plan.hashes = [(p.name, hashes.setdefault(p.name, report_sha256(p))) for p in mine]
        plan.source = hashlib.sha256(json.dumps(
            [address, g.sender, g.fingerprint, plan.hashes, notice_paths, d.undone,
             [(a.kind, a.prompt, a.due.isoformat() if a.due else "") for a in d.asked], d.disorder, g.label],
            sort_keys=True).encode()).hexdigest()  # fmt: skip
        plans.append(plan)
    return plans


def _write(gd: GameDir, ledger: Ledger, g: Game, plans: list[_Plan], report: OutboxReport) -> list[dict[str, Any]]:
    """Write the mails of the plans whose reader has no such mail waiting already; their records."""
    book = ledger.mail
    todo = []
    for plan in plans:
        waiting = book.pending(plan.digest.who)
        if waiting is not None and waiting.get("source") == plan.source:
            report.notes.append(f"{waiting['path']} is written and not sent yet: kept as it is")
            continue
        todo.append(plan)
    if not todo:
        return []
    now_folder = stepreports.step(gd.root, g.number)  # the latest step's: its map, board and questions
    if now_folder is None:
        raise OutboxError(f"step {g.label} has no complete reports in {gd.root / 'reports'} (see 'maester status')")
    pictures = map_pictures(now_folder, report.notes) if any(p.folders for p in todo) else None
    try:
        public_json: bytes | None = now_folder.page(stepreports.REPORT_DONE)  # the public twin
    except (OSError, ValueError):
        public_json = None
    now_hash = (g.label, report_sha256(now_folder))
    names = [f"{p.digest.who}.eml" for p in todo]
    folder = _free_folder(gd, book, g.number, names)
    records = []
    for plan, name in zip(todo, names):
        d = plan.digest
        scale, msg, data = build(g, d, plan.address, plan.folders, now_folder, pictures, public_json)
        recipe = recipe_of(g, d, plan.address, plan.hashes, now_hash, public_json is not None,
                           Fixed(str(msg["Message-ID"]), boundaries(msg), _armour(msg, d, g), scale))  # fmt: skip
        path = f"{folder}/{name}"
        mailstore.stage(gd.root, path, data)  # the log line commits it; a killed run's is removed
        write_recipe(gd.root, path, recipe)  # what it is made of: the mail once it is sent (ruling 318)
        records.append({"folder": folder, "file": name, "to": d.who, "address": plan.address,
                        "steps": [p.number for p in d.steps], "notices": plan.notice_paths,
                        "asked": [a.key for a in d.asked], "subject": str(msg["Subject"]),
                        "message_id": str(msg["Message-ID"]), "sha256": hashlib.sha256(data).hexdigest(),
                        "source": plan.source, "recipe": hashlib.sha256(recipe).hexdigest()}
                       | ({"map_scale": scale} if scale is not None else {}))  # fmt: skip
        what = f"steps {', '.join(f'{p.number:04d}' for p in d.steps)}" if d.steps else "no new step"
        extra = f", {len(d.notices)} receipt(s) of files not taken" if d.notices else ""
        report.written.append(f"{name} to {plan.address}: {what}{extra}")
    return records


def _told(book: MailBook, who: str) -> set[str] | None:
    """The decisions the last mail sent to ``who`` asked (``None``: no mail, or one of an older Maester)."""
    last = book.last_told(who)
    return None if last is None or "asked" not in last else {str(k) for k in last["asked"]}


def asked_of(snap: Snapshot, clock: deadlines.Clock, house: str) -> list[Asked]:
    """The decisions asked of ``house`` at ``snap``, in the order of its report, with their due times."""
    out = []
    for r in snap.requests():
        if r.house == house:
            due = clock.due(r, snap.since.get(r.key, snap.number)).due
            out.append(Asked(r.key, r.kind, r.prompt, r.secret, due))
    return out


def _free_folder(gd: GameDir, book: MailBook, number: int, names: list[str]) -> str:
    """``outbox/NNNN`` (``NNNN-2``, ... when a mail of that name there was recorded already, say
    before a rollback): the folder of this run's mails, relative to the game folder."""
    k = 1
    while True:
        rel = f"{OUTBOX}/{number:04d}" + (f"-{k}" if k > 1 else "")
        taken = set(read_json(gd.root / rel / SENT_FILE)) if (gd.root / rel).is_dir() else set()  # an older Maester's
        # A name the log recorded is never written again, even once its .eml is gone (a mail sent
        # and kept as its recipe, or superseded and moved aside).
        if all(f"{rel}/{n}" not in book.written and n not in taken for n in names):
            return rel
        k += 1


def _armour(msg: EmailMessage, d: Digest, g: Game) -> str | None:
    """The seal attached to a mail just built (None: not sealed)."""
    name = d.seal_name(g)
    for part in msg.iter_attachments():
        if part.get_filename() == name:
            content = part.get_content()
            return content.decode("ascii") if isinstance(content, bytes) else str(content)
    return None


def _note_key(report: OutboxReport, game: dict[str, Any], key: KeyPair | None) -> None:
    if key is None:
        report.notes.append("not sealed: give --key MODERATOR_KEY so that players can check the reports")
        return
    mine = [e for e in registry.key_entries(game) if e.house == MODERATOR and not e.revoked]
    if key.public.fingerprint not in {e.fingerprint for e in mine}:
        report.notes.append(f"note: the key {key.public.fingerprint} is not registered as the moderator's in "
                            "game.toml (maester register GAME_DIR --house moderator --key KEY.pub)")  # fmt: skip


# --- sending ---------------------------------------------------------------------------------------


def send_outbox(game_dir: str | Path, *, server: SmtpServer, now: datetime | None = None) -> OutboxReport:
    """Send every mail written and not sent yet, each exactly as its ``.eml`` holds it; log a
    ``mailed`` line for each as soon as the server took it.

    A mail the server refuses, or a connection lost, is reported (exit status 1) and tried again at
    the next run; a mail sent is never sent again.
    """
    gd = GameDir.open(game_dir)
    with locked(gd, timeout=10):
        book = Ledger.read(gd.root).mail
        shrink_sent(gd.root, book)  # the mails sent by a run killed before it kept them as recipes
        report = OutboxReport(registry.game_id(registry.read_game(gd.root)), "unsent", gd.root / OUTBOX)
        todo: list[tuple[dict[str, Any], bytes]] = []
        for rec in book.queue():
            try:
                data = mail_bytes(gd.root, rec)
            except OSError as e:
                report.failed.append(f"{rec['path']}: cannot be read ({e.strerror}); run 'maester outbox {gd.root}' "
                                     "to write it again")  # fmt: skip
                continue
            except RecipeError as e:
                report.failed.append(f"{e}: not sent; run 'maester outbox {gd.root}' to write it again")
                continue
            if hashlib.sha256(data).hexdigest() != rec["sha256"]:
                report.failed.append(f"{rec['path']} was changed since it was written: not sent; run 'maester outbox "
                                     f"{gd.root}' to write it again")  # fmt: skip
                continue
            todo.append((rec, data))
        if not todo:
            if not report.failed:
                report.notes.append("every mail written was sent already")
            return report
        try:
            smtp = connect(server)
        except smtplib.SMTPAuthenticationError as e:
            report.failed += [f"{r['path']}: {server} refused the login of {server.user}: {reason(e)}" for r, _ in todo]
            return report
        except (smtplib.SMTPException, OSError) as e:
            report.failed += [f"{r['path']}: cannot reach {server}: {reason(e)}" for r, _ in todo]
            return report
        try:
            for i, (rec, data) in enumerate(todo):
                d = deliver(smtp, rec["path"], data, server)
                if d.ok:
                    _log_mailed(gd.root, rec, str(server), d.to, d.refused, now)
                    shrink(gd.root, rec)  # sent: kept as its recipe from now on (ruling 318)
                    report.sent.append(said(d))
                    continue
                report.failed.append(f"{rec['path']}: {d.error}")
                if not d.connected:
                    report.failed += [f"{r['path']}: not tried (the connection was lost)" for r, _ in todo[i + 1 :]]
                    break
        finally:
            close(smtp)
    return report


def _log_mailed(root: Path, rec: dict[str, Any], server: str, to: list[str], refused: dict[str, str],
                now: datetime | None) -> None:  # fmt: skip
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    log(root, {"action": "mailed", "file": rec["path"], "sha256": rec["sha256"], "to": to, "refused": refused,
               "server": server, "time": when})  # fmt: skip


def mark_sent(game_dir: str | Path, *, now: datetime | None = None) -> OutboxReport:
    """Record every mail written and not sent yet as sent: the moderator sent the ``.eml`` files by
    other means. Their readers' next mails start after them."""
    gd = GameDir.open(game_dir)
    with locked(gd, timeout=10):
        report = OutboxReport(registry.game_id(registry.read_game(gd.root)), "unsent", gd.root / OUTBOX)
        book = Ledger.read(gd.root).mail
        shrink_sent(gd.root, book)
        for rec in book.queue():
            _log_mailed(gd.root, rec, "by the moderator", [rec["address"]], {}, now)
            shrink(gd.root, rec)  # sent: kept as its recipe from now on (ruling 318)
            report.sent.append(f"{rec['path']} to {rec['address']} (recorded as sent by you)")
        if not report.sent:
            report.notes.append("every mail written was sent already")
    return report
