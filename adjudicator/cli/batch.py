"""``maester adjudicate | status | rollback | replay | reveal | leave``: the moderator's run and its audit."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import UserError, guard, mail, os_error_line

# Each command imports the folder modules it uses when it runs: ``maester adjudicate`` never loads
# the replay's, nor ``maester status`` the engine's.


def register(subparsers: Any) -> None:
    """Add the moderator's batch commands to the ``maester`` parser."""
    p = subparsers.add_parser(
        "adjudicate", help="take the sealed turn files, resolve as far as possible, write the reports",
        description="Check every seal, parse every accepted file, apply what is valid and advance the game as "
        "far as the answers allow; write the new state, the reports, the receipts and who owes what. "
        "Takes FILE... and everything in GAME_DIR/inbox/. Exit status: 0 all went well, 1 some file was "
        "rejected, 2 usage or folder errors.",
    )
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR", help="the game folder (with --all: a folder of them)")
    p.add_argument("files", type=Path, nargs="*", metavar="FILE", help="sealed turn files (besides the inbox)")
    p.add_argument("--deadline", action="store_true",
                   help="the requests past due take their documented defaults, and the game goes on (docs/moderating.md)")
    add_now(p, "judge what is past due by this time")
    p.add_argument("--templates", type=Path, metavar="DIR", help="report templates to use instead of the built-in ones")
    p.add_argument("--all", action="store_true", help="GAME_DIR holds many game folders: adjudicate each")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="with --all: N game folders at a time")
    mail.add_mailbox_options(p, required=False)  # take the mail into each inbox first (maester ingest)
    p.set_defaults(handler=cmd_adjudicate)

    p = subparsers.add_parser("status", help="who owes what, since when and by when",
                              description="Print the current round and step and, per house, what is requested of it, "
                              "since which step, when it is due (UTC) and the time left.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--json", action="store_true", help="print JSON (GAME_DIR/pending.json with the due times)")
    add_now(p, "count the time left from this time")
    p.set_defaults(handler=cmd_status)

    p = subparsers.add_parser("extend", help="give a house more time for the step open now",
                              description="Add HOURS to the due time of every request HOUSE is asked in the step open "
                              "now (game.toml [deadlines] sets the hours). Logged with the reason.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--house", required=True, metavar="HOUSE", help="the house that gets more time")
    p.add_argument("--hours", required=True, type=int, metavar="N", help="how many hours more")
    p.add_argument("--reason", required=True, help="why (kept in the log)")
    p.set_defaults(handler=cmd_extend)

    p = subparsers.add_parser("rollback", help="undo steps: set later snapshots and reports aside",
                              description="Go back to snapshot NNNN. Later snapshots and reports move to "
                              "states/rolled-back-K/ and reports/rolled-back-K/. The archived files applied after "
                              "NNNN come back at the next run, each at its step, without a copy; those named with "
                              "--drop never do. The action is logged with its reason.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--to", type=int, required=True, metavar="NNNN", help="the snapshot to go back to")
    p.add_argument("--reason", required=True, help="why (kept in the log)")
    p.add_argument("--drop", nargs="+", default=[], metavar="ARCHIVED_FILE",
                   help="archived files (archive/NNNNNN-...txt) never to take again: the mistake being undone")
    p.set_defaults(handler=cmd_rollback)

    p = subparsers.add_parser("leave", help="a player leaves a Mother of Dragons game: its house becomes a vassal",
                              description="HOUSE's player leaves at the end of the round in progress: from the next "
                              "round on the house and all its units are a vassal (M124). Not for Targaryen, nor when "
                              "fewer than three Westerosi players would stay. Logged; the next 'maester adjudicate' "
                              "announces it in the public report.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("house", metavar="HOUSE", help="the house whose player leaves, e.g. stark")
    p.add_argument("--reason", default="", help="why (kept in the log)")
    p.set_defaults(handler=cmd_leave)

    p = subparsers.add_parser("replay", help="re-derive every state from the archive and check it byte for byte",
                              description="Re-derive every snapshot from the setup, the archived files and the "
                              "logged deadlines, and compare each with the stored one. Exit status 1 names the "
                              "first difference.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--repair", action="store_true", help="rebuild the snapshots, state.toml and reports from the archive")
    p.set_defaults(handler=cmd_replay)

    p = subparsers.add_parser("reports", help="render a step's reports: print one page, or write them as files",
                              description="Print one page of a step's reports (the public report, or with --house a "
                              "house's private part, as text, HTML or JSON), or with --out write every page of each "
                              "step (or of --step) into OUT/NNNN-rR-STEP/: the text and HTML reports, map.svg, the JSON "
                              "reports and the receipts, as docs/game-folder.md describes them.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--step", type=int, metavar="NNNN", help="this step only (default: the latest; with --out: every step)")
    p.add_argument("--out", type=Path, metavar="DIR", help="write the pages as files into DIR/NNNN-rR-STEP/")
    p.add_argument("--house", metavar="HOUSE", help="print this house's private part (default: the public report)")
    p.add_argument("--format", choices=("text", "html", "json"), default="text", help="the page's format (default: text)")
    p.set_defaults(handler=cmd_reports)

    p = subparsers.add_parser("reveal", help="publish the secret seed at the end of the game",
                              description="Write the seed into game.toml ([game] seed_revealed) and the log, after "
                              "checking it against the published commitment. Replay then re-checks every shuffle.")  # fmt: skip
    p.add_argument("game_dir", type=Path, metavar="GAME_DIR")
    p.add_argument("--force", action="store_true", help="reveal before the game is over")
    p.set_defaults(handler=cmd_reveal)


def add_now(p: argparse.ArgumentParser, what: str) -> None:
    """``--now TIME``: the moderator's clock, for the commands that judge deadlines."""
    p.add_argument("--now", metavar="TIME", help=f"{what} (ISO 8601, e.g. 2026-03-06T18:00Z; default: now)")


def check_templates(folder: Path) -> None:
    """Render a first step's reports with the moderator's templates, before any game is touched.

    :raises UserError: for a folder that is not one, or a template that cannot be read or fails.
    """
    import jinja2

    from ..folder.audit import derive
    from ..game.setup import new_game
    from ..reports.report import render_reports

    if not folder.is_dir():
        raise UserError(f"--templates {folder}: {'not a folder' if folder.exists() else 'no such folder'}")
    first = derive(None, new_game(["stark", "lannister", "baratheon"], seed="templates"), 0, [], deadline=False,
                   previous_sha256="")  # fmt: skip
    try:
        render_reports(first.snapshot.state, first.events, viewers=[None, "stark"], requests=first.requests,
                       templates_dir=folder)  # fmt: skip
    except (jinja2.TemplateError, UnicodeDecodeError, OSError) as e:
        raise UserError(f"--templates {folder}: {template_fault(e)}") from None


def template_fault(e: Exception) -> str:
    """One line on a template that failed: its file and line where known."""
    import jinja2

    if isinstance(e, jinja2.TemplateSyntaxError):
        return f"{e.filename or e.name}:{e.lineno}: {e.message}"
    if isinstance(e, UnicodeDecodeError):
        return "a template is not UTF-8 text"
    return f"{type(e).__name__}: {e}"


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from ..folder import batch, deadlines, many
    from ..folder.gamedir import when_free

    if args.jobs < 1:
        raise UserError(f"--jobs must be 1 or more, not {args.jobs}")
    if args.templates is not None:
        check_templates(args.templates)
    now = guard(lambda: deadlines.moderator_time(args.now))
    took = 0
    games = many.game_folders(args.game_dir) if args.all and args.game_dir.is_dir() else [args.game_dir]
    for g in games:
        try:
            if mail.has_own_mailbox(g):  # what maester deliver kept and no run took yet
                took = max(took, mail.ingest_own(g))
            if args.maildir or args.mbox:
                took = max(took, mail.ingest(g, args.maildir, args.mbox))
        except UserError as e:
            if not args.all:
                raise
            print(f"game {g}: {e}", file=sys.stderr)  # one damaged game does not hold up the others
            took = 2
    if args.all:
        if args.files:
            raise UserError("--all takes no FILE: each game takes its own inbox")
        if not args.game_dir.is_dir():
            raise UserError(f"{args.game_dir} is not a folder")
        results = many.adjudicate_all(args.game_dir, jobs=max(1, args.jobs), deadline=args.deadline,
                                       templates_dir=args.templates, now=now, progress=many.progress_bar)  # fmt: skip
        for root, (code, lines) in list(results.items()):
            if code == 2 and "is busy: another maester run holds its lock" in "\n".join(lines):  # a delivery, say
                results[root] = _adjudicate_when_free(Path(root), args, now)
        for code, lines in results.values():
            print("\n".join(lines), file=sys.stdout if code < 2 else sys.stderr)
        return max([took, *(code for code, _ in results.values())])
    for f in args.files:
        if not f.is_file():
            raise UserError(f"{f}: {'not a file' if f.exists() else 'no such file'}")
    template_errors: tuple[type[Exception], ...] = ()
    if args.templates is not None:  # only a moderator's templates are rendered by the run: Jinja2 is loaded for them
        import jinja2  # here, not above: a run without --templates renders nothing (start-up)

        template_errors = (jinja2.TemplateError,)
    try:
        result = guard(lambda: when_free(lambda: batch.adjudicate(args.game_dir, args.files, deadline=args.deadline,
                                                                  templates_dir=args.templates, now=now)))  # fmt: skip
    except template_errors as e:  # a moderator's template that fails on this step's events only
        raise UserError(f"--templates {args.templates}: {template_fault(e)}; the step is saved: mend the "
                        "templates and run again to write its reports") from None
    print("\n".join(result.lines()))
    return max(result.exit_status, took)


def _adjudicate_when_free(root: Path, args: argparse.Namespace, now: Any) -> tuple[int, list[str]]:
    """One game of ``--all`` again, waiting for the run that held its lock (a delivery, say)."""
    from ..folder import batch
    from ..folder.gamedir import when_free

    try:
        r = guard(lambda: when_free(lambda: batch.adjudicate(root, deadline=args.deadline,
                                                             templates_dir=args.templates, now=now)))  # fmt: skip
    except UserError as e:
        return 2, [f"game {root}: {e}"]
    return r.exit_status, [f"{root} (game {r.game}):", *r.lines()[1:]]


def cmd_status(args: argparse.Namespace) -> int:
    from ..folder import batch, deadlines

    now = guard(lambda: deadlines.moderator_time(args.now))
    view = guard(lambda: batch.status(args.game_dir, now=now))
    waiting = guard(lambda: batch.waiting(args.game_dir))
    if args.json:
        sys.stdout.write(json.dumps(view | {"waiting": waiting}, indent=1, sort_keys=True) + "\n")
        return 0
    sys.stdout.write(deadlines.status_text(view))
    if view.get("interrupted"):
        sys.stdout.write(f"Note: {view['interrupted']}\n")
    if waiting:
        sys.stdout.write("Files waiting:\n" + "".join(f"  {w}\n" for w in waiting))
    return 0


def cmd_extend(args: argparse.Namespace) -> int:
    from ..folder import batch, deadlines
    from ..folder.gamedir import GameDir

    guard(lambda: batch.check_writable(GameDir.open(args.game_dir).root))
    print(guard(lambda: deadlines.extend(args.game_dir, house=args.house, hours=args.hours, reason=args.reason)))
    return 0


def cmd_rollback(args: argparse.Namespace) -> int:
    from ..folder import batch, undo
    from ..folder.gamedir import GameDir

    if args.to < 0:
        raise UserError(f"--to takes a snapshot number (0 or more), not {args.to}; 'maester status' shows the latest")
    guard(lambda: batch.check_writable(GameDir.open(args.game_dir).root))  # not half done for want of a permission
    print(guard(lambda: undo.rollback(args.game_dir, to=args.to, reason=args.reason, drop=args.drop)))
    return 0


def cmd_leave(args: argparse.Namespace) -> int:
    from ..folder import batch
    from ..folder.gamedir import GameDir
    from ..folder.leave import leave

    guard(lambda: batch.check_writable(GameDir.open(args.game_dir).root))
    print(guard(lambda: leave(args.game_dir, args.house, reason=args.reason)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from ..folder import batch, outputs

    check = guard(lambda: batch.repair(args.game_dir) if args.repair else outputs.replay(args.game_dir))
    print("\n".join(check.lines()), file=sys.stdout if check.ok else sys.stderr)
    return 0 if check.ok else 1


def cmd_reports(args: argparse.Namespace) -> int:
    from ..folder import stepreports
    from ..folder.gamedir import GameDir

    root = guard(lambda: GameDir.open(args.game_dir)).root
    found = stepreports.steps(root)
    if args.step is not None:
        found = [s for s in found if s.number == args.step]
        if not found:
            raise UserError(f"step {args.step:04d} has no complete reports in {root / 'reports'} (see 'maester status')")
    if not found:
        raise UserError(f"{root / 'reports'} holds no complete reports yet: run 'maester adjudicate {root}' first")
    try:
        if args.out is not None:
            written = [stepreports.write_out(s, args.out) for s in found]
            print(f"wrote the reports of {len(written)} step(s) into {args.out}: {written[0].name}"
                  + (f" to {written[-1].name}" if len(written) > 1 else ""))  # fmt: skip
            return 0
        latest = found[-1]
        ext = {"text": "txt", "html": "html", "json": "json"}[args.format]
        name = f"{args.house}.{ext}" if args.house else "report.json" if args.format == "json" else f"public.{ext}"
        try:
            page = latest.page(name)
        except FileNotFoundError:
            if not args.house:
                raise
            raise UserError(f"step {latest.label} has no report for house {args.house!r}") from None
        sys.stdout.write(page.decode("utf-8"))
    except OSError as e:
        raise UserError(os_error_line(e)) from None
    except stepreports.StepReportsError as e:
        raise UserError(str(e)) from None
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    from ..folder import audit, batch
    from ..folder.gamedir import GameDir

    guard(lambda: batch.check_writable(GameDir.open(args.game_dir).root))
    print(guard(lambda: audit.reveal(args.game_dir, force=args.force)))
    return 0
