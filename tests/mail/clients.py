"""Mail written by real mail programs: mutt, s-nail and bsd-mailx, run as a player runs them.

Each composer runs the program on this machine with a stand-in for ``sendmail`` (a script that
writes the message it is handed to a file), so no mail server is needed, and returns the message's
bytes exactly as the program would have handed them to the mail system. ``mutt_reply`` drives mutt
itself in a pseudo-terminal: it opens a mailbox, replies to its first message with the quoting mutt
does by default, and sends. A composer whose program is not installed is not called: the tests
skip (``apt-get install mutt s-nail bsd-mailx`` runs them).

The turns are sealed with the keys of :mod:`tests.mail.shapes` and Ed25519 seals are
deterministic, so every turn here is the same bytes on every machine: the stored fixtures of
``tests/mail/fixtures/`` (``README.md`` there says how each was made) were made by these functions.
"""

from __future__ import annotations

import mailbox
import os
import pty
import select
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from . import shapes

MUTT, S_NAIL, MAILX, SSH_KEYGEN = (shutil.which(p) for p in ("mutt", "s-nail", "bsd-mailx", "ssh-keygen"))
FIXTURES = Path(__file__).parent / "fixtures"
MODERATOR = "moderator@maester.example"
LONG = ("# Winterfell holds; the Shivering Sea consolidates; White Harbor defends, as agreed with "
        "House Lannister's envoy on Tuesday")  # fmt: skip

# The turns of the corpus: (house, seq, lines). One per way of sending, so that each is taken once.
TURNS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "mutt-inline": ("stark", 1, ("Winterfell: defense +1", "White Harbor: support")),
    "mutt-latin1": ("stark", 2, ("# Hiver arrivé, l'été s'achève", "Winterfell: defense +1")),
    "mutt-qp-long-line": ("stark", 3, ("Winterfell: defense +1", LONG)),
    "mutt-flowed": ("stark", 4, ("Winterfell: defense +1", LONG)),
    "mutt-attached": ("stark", 5, ("Winterfell: defense +1", "The Shivering Sea: consolidate")),
    "mutt-ssh-keygen-sig": ("stark", 6, ("# sealed with plain ssh-keygen", "Winterfell: defense +1")),
    "s-nail-inline": ("lannister", 1, ("Lannisport: defense +1", "# l'été")),
    "s-nail-attached": ("lannister", 2, ("Lannisport: defense +1", "The Golden Sound: consolidate")),
    "s-nail-latin1": ("lannister", 3, ("# Été à Castral Roc", "Lannisport: defense +1")),
    "mailx-inline": ("baratheon", 1, ("Dragonstone: defense +1", "# sent with bsd-mailx")),
}


def sealed(name: str) -> str:
    """The sealed turn of ``TURNS[name]``: the same bytes wherever it is made."""
    house, seq, lines = TURNS[name]
    return shapes.turn(house, seq, *lines)


def _capture(tmp: Path) -> tuple[Path, Path]:
    """A sendmail stand-in that writes the message on its standard input to ``out.eml``."""
    tmp.mkdir(parents=True, exist_ok=True)
    script, out = tmp / "capture.sh", tmp / "out.eml"
    script.write_text(f"#!/bin/sh\ncat > '{out}'\n")
    script.chmod(0o755)
    return script, out


def _env(tmp: Path) -> dict[str, str]:
    home = tmp / "home"
    (home / "Mail").mkdir(parents=True, exist_ok=True)  # else mutt's first start asks whether to make it
    return {**os.environ, "HOME": str(home), "LC_ALL": "C.UTF-8", "TZ": "UTC", "MAILRC": str(tmp / "mailrc")}


def _run(argv: Sequence[str], tmp: Path, stdin: bytes) -> bytes:
    script, out = _capture(tmp)
    out.unlink(missing_ok=True)
    env = _env(tmp)
    done = subprocess.run([a.replace("{capture}", str(script)) for a in argv], input=stdin, env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0 and out.is_file(), f"{argv[0]} failed: {done.stderr.decode(errors='replace')}"
    return out.read_bytes()


def muttrc(tmp: Path, *settings: str) -> Path:
    """A player's muttrc: their address, no copies kept, and ``settings`` (``set send_charset=...``)."""
    script, _ = _capture(tmp)
    path = tmp / "muttrc"
    path.write_text("\n".join([f'set sendmail="{script}"', 'set from="Ned Stark <stark@players.example>"',
                               "set use_from=yes", 'set record=""', "set postpone=no", 'set charset="utf-8"',
                               *settings]) + "\n")  # fmt: skip
    return path


def mutt(tmp: Path, body: str, *, subject: str = "my turn", attach: Sequence[Path] = (),
         settings: Sequence[str] = ()) -> bytes:  # fmt: skip
    """``mutt -s SUBJECT [-a FILE...] -- moderator < body``, as a player sends from a shell."""
    assert MUTT is not None
    rc = muttrc(tmp, *settings)
    argv = [MUTT, "-F", str(rc), "-s", subject, *(["-a", *map(str, attach)] if attach else []), "--", MODERATOR]
    return _run(argv, tmp, body.encode("utf-8"))


def s_nail(tmp: Path, body: str, *, subject: str = "my turn", attach: Sequence[Path] = (),
           settings: Sequence[str] = ()) -> bytes:  # fmt: skip
    """``s-nail -s SUBJECT [-a FILE...] moderator < body``, sending through the stand-in."""
    assert S_NAIL is not None
    argv = [S_NAIL, "-n", "-S", "v15-compat", "-S", "mta={capture}", "-S", "ttycharset=utf-8",
            *[a for s in settings for a in ("-S", s)], "-r", "lannister@players.example", "-s", subject,
            *[a for f in attach for a in ("-a", str(f))], MODERATOR]  # fmt: skip
    return _run(argv, tmp, body.encode("utf-8"))


def mailx(tmp: Path, body: str, *, subject: str = "my turn") -> bytes:
    """``bsd-mailx -s SUBJECT moderator < body`` (no From, Date or Message-ID: the mail system adds them)."""
    assert MAILX is not None
    script, _ = _capture(tmp)
    (tmp / "mailrc").write_text(f"set sendmail={script}\n")
    return _run([MAILX, "-s", subject, MODERATOR], tmp, body.encode("utf-8"))


def ssh_keygen_sign(tmp: Path, house: str, text: str, name: str = "turn.norm") -> tuple[Path, Path]:
    """``maester normalise`` then ``ssh-keygen -Y sign -n maester-turn``: the file and its ``.sig`` beside it."""
    from adjudicator.seals.keys import KeyPair, PublicKey, write_key_pair
    from adjudicator.seals.seal import normalise

    assert SSH_KEYGEN is not None
    key = tmp / f"{house}.key"
    if not key.exists():
        write_key_pair(key, KeyPair(shapes.KEYS[house], PublicKey.from_key(shapes.KEYS[house])))
    path = tmp / name
    path.write_text(normalise(text))
    subprocess.run([SSH_KEYGEN, "-Y", "sign", "-q", "-n", "maester-turn", "-f", str(key), str(path)],
                   check=True, capture_output=True, timeout=30)  # fmt: skip
    return path, path.with_name(path.name + ".sig")


def mutt_reply(tmp: Path, message: bytes, *, on_top: str = "", below: str = "") -> bytes:
    """Reply with mutt to ``message``, quoting it as mutt does by default (``set include``), with
    ``on_top`` written above the quote and ``below`` after it, and send: the reply's bytes.

    mutt runs in a pseudo-terminal, with the keys pushed at its start (``r``eply, ``y`` to send,
    ``q``uit), and the system's ``/etc/Muttrc`` read as a player's mutt reads it.
    """
    assert MUTT is not None
    tmp.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(tmp / "inbox.mbox"))
    box.add(message)
    box.close()
    top, bottom = tmp / "top.txt", tmp / "bottom.txt"
    top.write_text(on_top)
    bottom.write_text(below)
    editor = tmp / "editor.sh"  # the player's editor: writes their text above the quote, or below it
    editor.write_text(f"#!/bin/sh\n{{ cat '{top}'; cat \"$1\"; cat '{bottom}'; }} > \"$1.new\" && "
                      "mv \"$1.new\" \"$1\"\n")  # fmt: skip
    editor.chmod(0o755)
    rc = muttrc(tmp, f'set editor="{editor}"', "set include=yes", "set fast_reply=yes", "set abort_unmodified=no",
                "set move=no", "set quit=yes", "set sleep_time=0", "set confirmappend=no")  # fmt: skip
    _, out = _capture(tmp)
    out.unlink(missing_ok=True)
    env = {**_env(tmp), "TERM": "vt100"}
    _in_terminal([MUTT, "-F", str(rc), "-f", str(tmp / "inbox.mbox"), "-e", "push ryq"], env)
    assert out.is_file(), "mutt sent no reply"
    return out.read_bytes()


def mutt_save_text(tmp: Path, message: bytes) -> bytes:
    """Open ``message`` in mutt, list its parts (``v``), and save the first text part (``s``): its bytes."""
    assert MUTT is not None
    tmp.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(tmp / "inbox.mbox"))
    box.add(message)
    box.close()
    saved = tmp / "saved.txt"
    saved.unlink(missing_ok=True)
    rc = muttrc(tmp, "set move=no", "set quit=yes", "set sleep_time=0")
    keys = f"<display-message><view-attachments><next-entry>s<kill-line>{saved}\\n<exit><exit>q"
    _in_terminal([MUTT, "-F", str(rc), "-f", str(tmp / "inbox.mbox"), "-e", f'push "{keys}"'],
                 {**_env(tmp), "TERM": "vt100"})  # fmt: skip
    assert saved.is_file(), "mutt saved nothing"
    return saved.read_bytes()


def mutt_save_message(tmp: Path, message: bytes) -> bytes:
    """Open a mailbox holding ``message`` in mutt and save the message (``s`` in the index) to a new
    mailbox file, as a player keeps a mail: that file's bytes (an mbox of one message)."""
    assert MUTT is not None
    tmp.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(tmp / "inbox.mbox"))
    box.add(message)
    box.close()
    saved = tmp / "saved.mbox"
    saved.unlink(missing_ok=True)
    rc = muttrc(tmp, "set move=no", "set quit=yes", "set sleep_time=0", "set confirmcreate=no", "set delete=no")
    keys = f"s<kill-line>{saved}\\n<exit>q"
    _in_terminal([MUTT, "-F", str(rc), "-f", str(tmp / "inbox.mbox"), "-e", f'push "{keys}"'],
                 {**_env(tmp), "TERM": "vt100"})  # fmt: skip
    assert saved.is_file(), "mutt saved nothing"
    return saved.read_bytes()


def s_nail_show(tmp: Path, message: bytes) -> str:
    """What s-nail shows of ``message`` when a player reads it (``type 1``), with the system's
    ``/etc/s-nail.rc`` read as a player's s-nail reads it (Debian's sets ``mime-counter-evidence``,
    which types an attachment by its name and content): the text it prints."""
    assert S_NAIL is not None
    tmp.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(tmp / "inbox.mbox"))
    box.add(message)
    box.close()
    env = {**_env(tmp), "TERM": "dumb"}
    done = subprocess.run([S_NAIL, "-#", "-R", "-f", str(tmp / "inbox.mbox")], input=b"type 1\nquit\n", env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode("utf-8", "replace")


def structure(message: bytes) -> list[list[str]]:
    """A mail's parts as mail programs tell them apart: content type, disposition, file name, encoding."""
    from email import policy
    from email.parser import BytesParser

    msg = BytesParser(policy=policy.default).parsebytes(message)
    return [[p.get_content_type(), p.get_content_disposition() or "", p.get_filename() or "",
             str(p.get("Content-Transfer-Encoding", ""))] for p in msg.walk()]  # fmt: skip


def _in_terminal(argv: list[str], env: dict[str, str], timeout: float = 60.0) -> None:
    """Run a full-screen program in a pseudo-terminal until it ends (killed after ``timeout`` seconds)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program, its terminal the pseudo-terminal
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:  # the program ended and closed the terminal
                    break
        else:
            os.kill(pid, 9)
    finally:
        os.waitpid(pid, 0)
        os.close(fd)


def report_mail(tmp: Path) -> bytes:
    """House Stark's mail of step 0000 of a game, sealed by the moderator, as ``maester outbox`` writes it."""
    from adjudicator.mail.outbox import write_outbox

    reported = shapes.make_reported_game(tmp / "reported" / shapes.GAME)
    write_outbox(reported, key=shapes.MODERATOR)
    return (reported / "outbox" / "0000" / "stark.eml").read_bytes()


def compose_corpus(tmp: Path) -> dict[str, bytes]:
    """Every turn of :data:`TURNS` sent the way its name says, by each program installed here."""
    out: dict[str, bytes] = {}
    if MUTT:
        out["mutt-inline"] = mutt(tmp, f"Here is my turn.\n\n{sealed('mutt-inline')}\n-- \nNed\n",
                                  settings=['set send_charset="utf-8"'])  # fmt: skip
        out["mutt-latin1"] = mutt(tmp, sealed("mutt-latin1"))  # mutt's default: Latin-1 when the text fits it
        out["mutt-qp-long-line"] = mutt(tmp, sealed("mutt-qp-long-line"), settings=["set allow_8bit=no"])
        out["mutt-flowed"] = mutt(tmp, "Orders:\n\n" + sealed("mutt-flowed"), settings=["set text_flowed=yes"])
        (tmp / "turn.txt.sealed").write_text(sealed("mutt-attached"))
        out["mutt-attached"] = mutt(tmp, "My turn is attached.\n", attach=[tmp / "turn.txt.sealed"])
        if SSH_KEYGEN:
            house, _, _ = TURNS["mutt-ssh-keygen-sig"]
            text = sealed("mutt-ssh-keygen-sig").split("-----BEGIN")[0]
            out["mutt-ssh-keygen-sig"] = mutt(tmp, "Sealed with ssh-keygen.\n", attach=ssh_keygen_sign(tmp, house, text))
    if S_NAIL:
        out["s-nail-inline"] = s_nail(tmp, "Mes ordres :\n\n" + sealed("s-nail-inline"))
        (tmp / "lannister.txt").write_text(sealed("s-nail-attached"))
        out["s-nail-attached"] = s_nail(tmp, "Attached.\n", attach=[tmp / "lannister.txt"])
        out["s-nail-latin1"] = s_nail(tmp, sealed("s-nail-latin1"), settings=["sendcharsets=iso-8859-1"])
    if MAILX:
        out["mailx-inline"] = mailx(tmp, sealed("mailx-inline"))
    return out
