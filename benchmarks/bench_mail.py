"""Mail in at scale and under attack: ingest of many small mails, and hostile messages (issues 13, 22).

    python benchmarks/bench_mail.py [--small N]

* ingest    ``ingest_into_inbox`` of a Maildir of N small mails (default 1,000 and 10,000): 99 in 100
            spam, one in 100 a sealed turn (its inbox file and note each written durably, with
            fsync); then the same Maildir again (every message read before). Printed: seconds,
            microseconds a message, and the 10,000 / 1,000 ratio a message (1.0 is linear).
            Goal: 10,000 mails under 10 s, linear.
* hostile   ``scan_message`` of 1 MB hostile messages, each in a fresh process, which reports its
            time and its peak resident memory (``resource.getrusage``, the interpreter included):
            a Subject of encoded words; 100,000 tiny parts; 15,000 parts each with encoded words
            and parameters; 1,000 parts each named by 90 encoded words; 1,000 levels of nesting; 999
            .sig attachments naming no file beside 8 unsealed turn texts (ruling 191); 4 blocks of
            250 KB of short lines under a seal naming a registered key, with lines that look wrapped
            (ruling 193). Scanned as ingest does, with the game's keys registered. Goal: each under
            2 s and 300 MB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(os.environ.get("MAESTER_BENCH_PACKAGE") or Path(__file__).resolve().parent.parent)  # run_all.py --baseline
sys.path.insert(0, str(ROOT))

import mailbox

from adjudicator.folder import registry
from adjudicator.folder.gamedir import create_game
from adjudicator.mail.ingest import ingest_into_inbox
from adjudicator.seals import seal, sshsig
from adjudicator.seals.keys import PublicKey

HOUSES = ["stark", "lannister", "baratheon"]
KEYS = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 5] * 32)) for i, h in enumerate(HOUSES)}
SPAM = "Dear friend,\n\nYou have won a prize. Click the link below to claim it.\n\n" + "Lorem ipsum dolor sit amet. " * 20


def game(root: Path) -> Path:
    create_game(root, houses=HOUSES, game_id="bench", seed="bench")
    for h, k in KEYS.items():
        registry.register_key(root, h, PublicKey.from_key(k), email=f"{h}@example.org")
    return root


def small_mail(i: int) -> bytes:
    head = (f"From: sender{i}@example.net\nTo: gm@example.org\nSubject: message {i}\n"
            f"Date: Sun, 01 Mar 2026 18:{i % 60:02d}:00 +0000\nMessage-ID: <m{i}@example.net>\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n")  # fmt: skip
    if i % 100:
        return (head + SPAM).encode()
    house = HOUSES[i // 100 % 3]
    text = f"game bench · house {house} · round 1 · planning · seq {i + 1}\n# turn {i}\n"
    return (head + "My turn:\n\n" + seal.sign(text, KEYS[house])).encode()


def maildir(path: Path, n: int) -> Path:
    box = mailbox.Maildir(str(path), create=True)
    for i in range(n):
        box.add(small_mail(i))
    box.close()
    return path


def bench_ingest(sizes: list[int]) -> None:
    per: dict[int, float] = {}
    print("| mails | first ingest | a message | again (all read before) | a message |")
    print("|---|---|---|---|---|")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = game(Path(tmp) / "g")
            box = maildir(Path(tmp) / "Maildir", n)
            t0 = time.perf_counter()
            report = ingest_into_inbox(root, maildir=box)
            first = time.perf_counter() - t0
            assert len(report.taken) == n // 100, (len(report.taken), n)
            t0 = time.perf_counter()
            again = ingest_into_inbox(root, maildir=box)
            second = time.perf_counter() - t0
            assert not again.taken
        per[n] = first / n
        print(f"| {n:,} | {first:.2f} s | {first / n * 1e6:.0f} µs | {second:.2f} s | {second / n * 1e6:.0f} µs |")
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        print(f"\nper-message time, {hi:,} over {lo:,}: {per[hi] / per[lo]:.2f}x (1.0 is linear)")


TURN = "game bench · house stark · round 1 · planning · seq 1\n# a good turn beside the hostile part\n"


def hostile() -> dict[str, bytes]:
    turn = seal.sign(TURN, KEYS["stark"]).encode()
    head = b"From: x@example.net\nSubject: %s\nMessage-ID: <h@example.net>\nMIME-Version: 1.0\n"
    words = b" ".join([b"=?utf-8?q?=C3=A9t=C3=A9?="] * 40_000)  # 1 MB of encoded words
    tiny = b"".join(b"--b\n\n%d\n" % (i % 10) for i in range(100_000))
    worded = b"".join(b"--b\nContent-Type: text/plain; name==?utf-8?q?x?=; a=b; c=d\n\n" for _ in range(15_000))
    ew = b" ".join([b"=?utf-8?q?ab?="] * 90)
    named = b"".join(b'--b\nContent-Type: text/plain\nContent-Disposition: attachment; filename="' + ew + b'"\n\nx\n'
                     for _ in range(1_000))  # fmt: skip
    nested = b"".join(b'Content-Type: multipart/mixed; boundary="n%d"\n\n--n%d\n' % (i, i) for i in range(1_000))
    multipart = b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\n' + turn + b"\n"
    forged = sshsig.sign(b"another text", KEYS["stark"], seal.NAMESPACE).encode()
    unsealed = b"".join(TURN.replace("seq 1", f"seq {n}").encode() + (b"# x\n" * 2_000 + b"\n") * 8
                        for n in range(2, 10))  # fmt: skip
    sigs = b"".join(b'--b\nContent-Type: application/octet-stream\nContent-Disposition: attachment; '
                    b'filename="t%d.txt.sig"\n\n' % i + forged for i in range(999))  # fmt: skip
    wrapped = b"\n".join([b"# " + b"w " * 33 + b"end", b"next line here"] * 6) + b"\n"
    huge = b"".join(TURN.replace("seq 1", f"seq {n}").encode() + wrapped + b"#y\n" * 82_000 + forged
                    for n in range(2, 6))  # fmt: skip
    return {
        "999 stray .sig attachments beside 8 unsealed turn texts of 64 KB (0.9 MB)":
            head % b"s" + multipart + unsealed + sigs + b"--b--\n",
        "4 blocks of 250 KB, lines that look wrapped, a seal naming a registered key (1.0 MB)":
            head % b"j" + b"Content-Type: text/plain\n\n" + huge,
        "a Subject of 40,000 encoded words (1.0 MB)": head % words + b"Content-Type: text/plain\n\n" + turn,
        "100,000 tiny parts (0.8 MB)": head % b"parts" + multipart + tiny + b"--b--\n",
        "15,000 parts, each header with encoded words and parameters (1.0 MB)": head % b"w" + multipart + worded + b"--b--\n",
        "1,000 parts, each named by 90 encoded words (1.4 MB)": head % b"e" + multipart + named + b"--b--\n",
        "1,000 levels of nesting (0.05 MB)": head % b"n" + multipart + b"--b\n" + nested + b"\nx\n--b--\n",
    }


PROBE = """
import resource, sys, time
from adjudicator.mail.ingest import scan_message
raw = open(sys.argv[1], "rb").read()
t0 = time.perf_counter()
found = scan_message(raw, rejoin_keys=sys.argv[2:])
took = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{took:.3f} {rss:.0f} {len(found.blocks)} {(found.refused or '; '.join(found.notes))[:90]!r}")
"""


def bench_hostile() -> None:
    print("| message | time | peak memory (process) | turns found | what was said |")
    print("|---|---|---|---|---|")
    root = str(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        for name, raw in hostile().items():
            path = Path(tmp) / "m.eml"
            path.write_bytes(raw)
            keys = [PublicKey.from_key(k).fingerprint for k in KEYS.values()]  # registered, as in a game
            out = subprocess.run([sys.executable, "-c", PROBE, str(path), *keys], capture_output=True, text=True,
                                 cwd=root, timeout=600, check=True).stdout.split(" ", 3)  # fmt: skip
            print(f"| {name} | {float(out[0]):.2f} s | {out[1]} MB | {out[2]} | {out[3].strip()} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", type=int, nargs="*", default=[1_000, 10_000], metavar="N")
    args = ap.parse_args()
    print("## bench_mail: ingest of small mails\n")
    bench_ingest(sorted(args.small))
    print("\n## bench_mail: hostile messages, each in a fresh process\n")
    bench_hostile()


if __name__ == "__main__":
    main()
