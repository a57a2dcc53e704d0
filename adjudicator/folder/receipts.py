"""Receipts: what each file was understood to say, what was refused and why.

Written by the batch run (:mod:`adjudicator.folder.batch`) into each step's ``receipts/`` folder.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from ..engine.ahead import Upcoming, upcoming
from ..engine.events import AnswerUnusable, kind_name
from ..game.state import GameState
from ..reports.verdicts import answer_verdicts, judged, verdict_line
from ..util.columns import WIDTH, fold
from . import registry
from .audit import (
    Outcome,
    Snapshot,
    Understood,
    entry_prefix,
)
from .intake import Rejection

# --- receipts ---------------------------------------------------------------------------------


def accepted_receipt(u: Understood, outcome: Outcome, sealed_by: str,
                     replaced: list[dict[str, Any]] | None = None, *, ahead: list[Upcoming] | None = None) -> str:
    """What a house's accepted file was understood to say, what could not be used, what it replaced
    (``replaced``: the pool entries of the house's earlier answers it dropped, ruling 94) and what is
    still asked of the house; ``ahead``: what comes up for it, when the caller worked it out already."""
    h = u.header
    snap = outcome.snapshot
    out = [
        f"Receipt for archive/{u.name}",
        f"Accepted: {registry.house_name(h.house)}, game {h.game}, round {h.round} {h.step}, seq {h.seq}.",
        f"Sealed by {sealed_by}." if u.sealed else "Accepted unsealed, on the moderator's word (see the log).",
        f"Applied at step {snap.number:04d}; the game is now at round {snap.state.round}, {snap.state.phase}.",
        "",
    ]
    out.append(f"Understood ({len(u.lines)} line{'s' if len(u.lines) != 1 else ''}):")
    out += [f"  line {line}: {text}" for line, text in u.lines] or ["  (nothing)"]
    if u.warnings:
        out += ["", "Read with a correction (check that this is what you meant):"]
        out += ["  " + w.replace("\n", "\n  ") for w in u.warnings]
    if u.problems:
        out += ["", f"Not understood or not allowed ({len(u.problems)}); these lines were left out, the others stand:"]
        out += ["  " + p.replace("\n", "\n  ") for p in u.problems]
    out += verdict_section(u, outcome)
    if outcome.idle.get(u.name):
        out += ["", f"{registry.house_name(h.house)} had nothing pending when this file was applied: its "
                    "answers stand as instructions for later in the round; those not needed expire at its end."]
    if replaced:
        out += ["", f"Replaced by this file: {dropped_text(replaced)}; these were your answers for round {h.round} "
                f"{h.step} not used yet (ruling 94). Send again those you still mean, or write 'add' at the end of "
                "the header to add to your answers instead of replacing them (ruling 120):"]
        out += [f"  {a.get('text', '')}" for a in replaced]
    if u.ignored:
        out += ["", "Outside the seal (not read):"] + [f"  {g}" for g in u.ignored]
    asked = [r for r in outcome.requests if r.house == h.house]
    if ahead is None:
        ahead = upcoming(snap.state, h.house, outcome.requests)  # ruling 124
    out += ["", "Asked of you now:" if asked else "Nothing is asked of you now." if not ahead else "Nothing is asked of "
            "you now; what comes up for you may be answered now (your report shows the lines):"]
    out += [f"  - {kind_name(r.kind)}: {r.prompt}" for r in asked]
    if ahead and asked:
        out += ["Coming up for you, not asked yet (your report shows the lines to answer it now):"]
    out += [f"  - {kind_name(u.request.kind)}: {u.why}" for u in ahead]
    return fold("\n".join(out)) + "\n"


def replaced_answers(prev: GameState | None, understood: list[Understood]) -> dict[str, list[dict[str, Any]]]:
    """Per archived file, its house's earlier answers for the same step that it dropped (pool entries).

    The same replacement as :func:`adjudicator.folder.audit.derive` makes (ruling 94), told to the
    player and the moderator; a file whose header says ``add`` drops nothing (ruling 120).
    """
    pool = list(prev.answers) if prev is not None else []
    used = set(prev.segment.used) if prev is not None and prev.segment else set()
    new: list[dict[str, Any]] = []
    out: dict[str, list[dict[str, Any]]] = {}
    for u in understood:
        gone: list[dict[str, Any]] = []
        if not u.header.add:
            prefix = entry_prefix(u.header)
            gone = [a for a in pool if a["id"].startswith(prefix) and a["id"] not in used]
            gone += [a for a in new if a["id"].startswith(prefix)]
            pool = [a for a in pool if not a["id"].startswith(prefix) or a["id"] in used]
            new = [a for a in new if not a["id"].startswith(prefix)]
        new += list(u.entries)
        out[u.name] = gone
    return out


def dropped_text(entries: list[dict[str, Any]]) -> str:
    """``dropped 2 answers of seq 1``: how many answers of which earlier files a file replaced.

    >>> dropped_text([{"id": "stark/1.planning/seq1/L2"}, {"id": "stark/1.planning/seq1/L3"},
    ...               {"id": "stark/1.planning/seq2/L2"}])
    'dropped 2 answers of seq 1 and 1 answer of seq 2'
    """
    counts: dict[str, int] = {}
    for a in entries:
        parts = str(a.get("id", "")).split("/")
        seq = parts[2].removeprefix("seq") if len(parts) == 4 else "?"
        counts[seq] = counts.get(seq, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0))
    return "dropped " + " and ".join(f"{n} answer{'s' if n != 1 else ''} of seq {seq}" for seq, n in ordered)


def unusable_for(u: Understood, outcome: Outcome) -> list[AnswerUnusable]:
    """The ``AnswerUnusable`` events of the file's house that name its lines: by the answers' pool
    ids, or (an event without them) by text: an event names one line, or several of one composite
    answer joined by "; ". Older files' answers tried again are told apart (:func:`verdict_section`)."""
    mine = [e for e in outcome.events if isinstance(e, AnswerUnusable) and e.house == u.header.house]
    ids = {str(a["id"]) for a in u.entries}
    texts = {t for _, t in u.lines}
    return [e for e in mine if (bool(set(e.ids) & ids) if e.ids else any(f"; {t}; " in f"; {e.answer}; " for t in texts))]


def verdict_section(u: Understood, outcome: Outcome) -> list[str]:
    """What became of each answer of the file in this step (used, refused with the rule, not needed,
    waiting), and the verdicts this step gave on the house's answers of earlier files."""
    house = u.header.house
    verdicts = {v["id"]: v for v in answer_verdicts(outcome.snapshot.state, outcome.events, house)}
    out = []
    for entry, (line, _) in zip(u.entries, u.lines):
        v = verdicts.get(str(entry["id"]))
        if v is None or v["status"] == "waiting":
            said = "waiting for a decision it fits"
        elif v["status"] == "used":  # the receipt tells what used it: it carries no events
            said = f"used for: {v['decision']}" + ("; it stands for later decisions" if v["held"] else "")
        else:
            said = verdict_line(v).removeprefix(f"{v['text']}: ")
        out.append(f"  line {line}: {said}")
    if out:
        out = ["", "What became of these answers:", *out]
    mine = {str(a["id"]) for a in u.entries}
    earlier = [v for v in judged(list(verdicts.values())) if v["id"] not in mine]
    if earlier:
        out += ["", "Your earlier answers judged in this step:"]
        out += [f"  {v['line']}" + (f" (from {v['source']})" if v["source"] else "") for v in earlier]
    return out


def rejected_receipt(rej: Rejection, snap: Snapshot, *, to: str = "", came: dict[str, Any] | None = None) -> str:
    """Why a file was not accepted: every reason; nothing in it was read or applied.

    ``to`` is who the receipt goes to: a house whose registered key sealed the parts it speaks of
    (ruling 300), or ``"moderator"`` for parts no registered key sealed, told to the moderator only;
    ``came`` is where the file came from, as ``maester ingest`` noted it (unverified: said only to
    the moderator).
    """
    st = snap.state
    if rej.retry:
        head = ["Not yet: this file is sealed for a step that is not open.",
                f"The game is at round {st.round}, {st.phase} (step {snap.number:04d}). Maester keeps the file",
                "and tries it again at every run; it is accepted when its step opens."]  # fmt: skip
    elif rej.taken:  # a file of several sealed turns: the others were accepted (ruling 95)
        # A house reads only of its own turns; how many other houses' were taken, never which.
        mine = [n for n in rej.taken if not to or to == registry.MODERATOR or f"-{to}-" in n]
        others = len(rej.taken) - len(mine)
        said = [f"of this file were accepted, each with its own receipt: {', '.join(f'archive/{n}' for n in mine)}."] \
            if mine else []  # fmt: skip
        said += [f"{others} other sealed turn{'s' if others != 1 else ''} of this file, of other houses, "
                 f"{'were' if others != 1 else 'was'} accepted."] if others else []  # fmt: skip
        head = ["Rejected in part: what the reasons below name was not read or applied." +
                (" The other sealed turns" if mine else ""), *said,
                f"It was checked against round {st.round}, {st.phase} (step {snap.number:04d})."]  # fmt: skip
    else:
        head = ["Rejected: nothing in this file was read or applied.",
                f"It was checked against round {st.round}, {st.phase} (step {snap.number:04d})."]  # fmt: skip
    out = [f"Receipt for {Path(rej.source).name} (sha256 {rej.sha256[:16]})", *head]
    if to == registry.MODERATOR:
        out += ["No key registered in this game made a good seal over what is refused here:",
                "this receipt goes to the moderator only, never to the address the file came",
                "from (anyone can write any address)."]  # fmt: skip
        if came:
            mail = ", ".join(f"{k} {came[k]!r}" for k in ("from", "subject", "message_id", "date") if came.get(k))
            out += [f"It came by mail ({mail}); none of that is checked."] if mail else []
    elif to:
        out += [f"It goes to {registry.house_name(to)}, whose registered key sealed what it speaks of,",
                "at the address registered for that house, whatever address the file came from."]  # fmt: skip
    out += ["", "Reasons:"] + [f"  {r}" for r in rej.reasons]
    todo = [] if rej.retry else list(dict.fromkeys(WHAT_TO_DO[c] for r in rej.reasons
                                                   for c in re.findall(r"\[([a-z-]+)\]", r) if c in WHAT_TO_DO))
    if todo:
        out += ["", "What to do:"] + [f"  - {t}" for t in todo]
    return fold("\n".join(out)) + "\n"


def unmatched_seal_receipt(name: str, sha256: str, house: str, fingerprint: str, why: str, seals_name: str, *,
                           number: int, hint: str = "") -> str:
    """Why a ``.sig`` a mail carried sealed no turn, for the house whose key the seal names (ruling 195).

    ``why`` is ``"no-file"`` (no attachment ``seals_name`` in the mail, and no turn text of it the
    seal verifies over) or ``"not-verified"`` (that attachment is there, and its text fails the
    seal); ``hint`` is what the seal check said. Nothing of it is proved (anyone can write a seal
    naming a key), so the receipt says so, and the names in it are made safe to show.

    >>> print(unmatched_seal_receipt("turn.txt.sig", "ab" * 32, "stark", "SHA256:x", "no-file", "turn.txt",
    ...                              number=3).splitlines()[0])
    Receipt for the seal 'turn.txt.sig' (sha256 abababababababab)
    """
    name, seals_name = safe_name(name), safe_name(seals_name)
    who = registry.house_name(house)
    out = [f"Receipt for the seal {name!r} (sha256 {sha256[:16]})",
           *_para("Not taken: this seal sealed no turn of the mail it came in; nothing was read or applied "
                  f"through it. The game was at step {number:04d}."),
           *_para(f"The seal names {who}'s registered key ({fingerprint}), so this receipt goes to {who}, at the "
                  "address registered for that house, whatever address the mail came from. A seal alone proves "
                  "nothing about who sent it (only the text it was made over would): if you did not send it, "
                  "someone sent a copy of your seal, or one naming your key; nothing was taken, and you need do "
                  "nothing."), "", "Why:"]  # fmt: skip
    if why == "no-file":
        out += _para(f"the mail had no attachment named {seals_name!r}, the file this seal is for, and the seal "
                     "verifies over no turn text of the mail.", "  ")  # fmt: skip
    else:
        out += _para(f"the attachment {seals_name!r} was in the mail, but its text does not verify against this "
                     "seal: it was changed after it was sealed (a mail program may have rewrapped its lines or "
                     "changed their ends), or the seal is of another version of the file.", "  ")  # fmt: skip
        if (at := hint.find(": the seal covers the text as typed")) >= 0:  # ruling 194's hint, Maester's own words
            said = hint[at + 2 :].rstrip(". ")
            out += _para(said[:1].upper() + said[1:] + ".", "  ")
    out += ["", "What to do:",
            *_para(f"- attach the file the seal was made over, {seals_name!r}, unchanged, beside {name!r} in one "
                   "mail;", "  ", "    "),
            *_para("- or seal the turn with 'maester sign --key KEY FILE' and attach the .sealed file (its seal "
                   "inside it).", "  ", "    ")]  # fmt: skip
    return "\n".join(out) + "\n"


def _para(text: str, first: str = "", rest: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=first if rest is None else rest,
                         break_on_hyphens=False, break_long_words=False)  # fmt: skip


def safe_name(name: str) -> str:
    """A file name a stranger chose, fit to show in a player's mail: letters, digits, ``._-`` (60 at most).

    >>> safe_name("turn.txt.sig"), safe_name("Moderator: you lose!.sig")
    ('turn.txt.sig', 'Moderator_you_lose_.sig')
    """
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[-60:] or "file"


# What a player does about each reason a seal check gives (the codes of docs/seals.md).
WHAT_TO_DO: dict[str, str] = {
    "bad-signature": "the text changed after it was sealed (a mail program may have rewrapped a line): seal the "
                     "file again and send it unchanged, best as an attachment; with plain ssh-keygen, seal the "
                     "normalised text (maester normalise FILE > FILE.norm, docs/seals.md)",
    "unknown-key": "seal with the key registered for your house, or ask the moderator to register this one",
    "revoked-key": "this key is revoked: seal with your house's key in force (the report lists them)",
    "wrong-house": "seal with your own house's key, and name your house in the header",
    "wrong-game": "write this game's id in the header, seal the file again and send it",
    "wrong-step": "write the header for the step the game is at (seq 1 for your first file of a step), seal the "
                  "file again and send it",
    "replayed": "give the file a seq higher than your last accepted one for that step, seal it again and send it",
    "wrong-namespace": "seal turn files with 'maester sign' (or ssh-keygen -Y sign -n maester-turn)",
    "unsupported-key": "make an Ed25519 key ('maester keygen') and have it registered",
    "armour-truncated": "the seal was cut short on the way: send the sealed file as an attachment",
    "armour-doubled": "send one seal per turn: seal the plain text once, not a sealed file again",
    "bad-armour": "the seal was damaged on the way: send the sealed file as an attachment",
    "bad-header": "begin the turn with 'game ID · house H · round N · STEP · seq N', seal it again and send it",
    "no-seal": "seal the file ('maester sign --key KEY FILE') and send the .sealed file",
    "bad-encoding": "save the file as UTF-8 text, seal it again and send it",
}  # fmt: skip


def shown(name: str) -> str:
    """A file name as text fit to write anywhere: bytes of the name that are not UTF-8 become U+FFFD.

    >>> shown("caf\\udce9.txt")
    'caf\ufffd.txt'
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def receipt_name(rej: Rejection, number: int, to: str) -> str:
    """``0005-late-mail-3f2a9c01-stark.txt``: the step it was judged at, the file, its hash, who it goes to."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(rej.source).stem)[:60] or "file"
    return f"{number:04d}-{stem}-{rej.sha256[:8]}-{to}.txt"
