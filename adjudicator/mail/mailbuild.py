"""One reader's mail built from the game folder's reports: the same parts make the same bytes.

:func:`build` reads the steps' reports for the reader (:func:`step_part`), writes the text and HTML
(:mod:`adjudicator.mail.letter`, :mod:`adjudicator.mail.letterpage`) and composes the mail
(:func:`adjudicator.mail.digest.compose`) with the map at the largest scale that keeps it within
the bound (ruling 317). What a mail has that its reports do not say, its Message-ID, its MIME
boundaries and its seal, is :class:`Fixed`: given it, :func:`build` makes the same bytes again
(ruling 318, :mod:`adjudicator.mail.recipe`).
"""

from __future__ import annotations

import fnmatch
import functools
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage

from ..folder.stepreports import StepReports, StepReportsError
from ..reports.report import MAP_FILE, ReportError
from .digest import MODERATOR, PUBLIC, Digest, Game, StepPart, compose, map_cid, read_step
from .letter import letter_text
from .letterpage import letter_page
from .mapimage import MAIL_BYTES, MAP_SCALES, MapImageError, MapPictures
from .sending import OutboxError


@dataclass(frozen=True)
class Fixed:
    """What a mail built before had that its parts do not say: to build the same bytes again."""

    message_id: str
    boundaries: tuple[str, ...]  # of its multipart parts, in the order ``walk`` meets them
    armour: str | None  # the moderator's seal over its text
    scale: float | None  # the map's (None: no map)


def boundaries(msg: EmailMessage) -> tuple[str, ...]:
    """The MIME boundaries of a mail serialised once, in the order ``walk`` meets its multiparts."""
    return tuple(str(part.get_boundary()) for part in msg.walk() if part.is_multipart())


def report_sha256(folder: StepReports) -> str:
    """A hash of a step's pages (names and contents), to know them again (:meth:`StepReports.sha256`)."""
    return folder.sha256()


def receipts_of(where: StepReports, house: str | None) -> list[str]:
    """The receipts of ``house``'s archived files applied in a step (``receipts/NNNNNN-<house>-….txt``)."""
    if house is None:
        return []
    mine = f"[0-9][0-9][0-9][0-9][0-9][0-9]-{house}-*.txt"
    return [text for name, text in where.receipts().items() if fnmatch.fnmatchcase(name, mine)]


def step_part(folder: StepReports, who: str, *, sections: bool = True) -> StepPart:
    """A step's reports as ``who`` reads them in a mail, with the receipts of its files applied in it.

    :raises OutboxError: when the step's reports cannot be read.
    """
    try:
        receipts = tuple(receipts_of(folder, None if who in (MODERATOR, PUBLIC) else who))
        return read_step(folder, who, receipts=receipts, sections=sections)
    except (OSError, UnicodeDecodeError, ValueError, ReportError) as e:
        raise OutboxError(f"cannot read the report {folder.name} for {who}: {e}") from None


def pictures_of(where: StepReports) -> MapPictures:
    """The map of the step ``where``, to draw for its mails: the same drawings for the same map
    within a process (a run writes the mails, then sends and keeps them).

    :raises OSError, UnicodeDecodeError, ValueError: when its ``map.svg`` cannot be read.
    """
    return _pictures(where.text(MAP_FILE))


@functools.lru_cache(maxsize=2)
def _pictures(svg: str) -> MapPictures:
    return MapPictures(svg)


def map_pictures(where: StepReports, notes: list[str]) -> MapPictures | None:
    """A step's map for its mails, drawn at its own size; None (and a note) when the folder has no
    readable map."""
    try:
        pictures = pictures_of(where)
        pictures.at(MAP_SCALES[0])
        return pictures
    except FileNotFoundError:
        notes.append(f"{where.name} has no {MAP_FILE}: the mails go without the map")
    except (OSError, UnicodeDecodeError, MapImageError, StepReportsError) as e:
        notes.append(f"{where.name}/{MAP_FILE} cannot be drawn ({e}): the mails go without the map")
    return None


def build(g: Game, d: Digest, address: str, folders: list[StepReports], now_folder: StepReports, pictures: MapPictures | None,
          public_json: bytes | None, fixed: Fixed | None = None) -> tuple[float | None, EmailMessage, bytes]:  # fmt: skip
    """One reader's mail of the steps in ``folders`` (``now_folder``: the latest step's, whose map,
    board and questions it shows); the map's scale, the message and its bytes.

    The map goes with a mail that carries the latest step, at the largest of :data:`MAP_SCALES` that
    keeps the mail within :data:`MAIL_BYTES` (ruling 317), or at ``fixed.scale``.

    :raises OutboxError: when a report cannot be read.
    """
    d.steps = [step_part(p, d.who) for p in folders]
    now = d.steps[-1] if d.steps and folders[-1] == now_folder else step_part(now_folder, d.who)
    has_map = pictures is not None and bool(folders) and folders[-1] == now_folder
    if fixed is not None and (fixed.scale is not None) != has_map:
        raise OutboxError(f"the map of {now_folder.name} cannot be drawn as it was")
    text = letter_text(g, d, now)
    page = letter_page(g, d, now, map_cid(g) if has_map else None)
    json_part = public_json if d.steps else None
    if fixed is not None:
        png = pictures.at(fixed.scale) if pictures is not None and fixed.scale is not None else None
        msg = compose(g, d, address, text, page, json_part, png, message_id=fixed.message_id, armour=fixed.armour)
        multiparts = [part for part in msg.walk() if part.is_multipart()]
        if len(multiparts) != len(fixed.boundaries):
            raise OutboxError(f"the mail to {address} has not the parts it had")
        for part, boundary in zip(multiparts, fixed.boundaries):
            part.set_boundary(boundary)
        return fixed.scale, msg, msg.as_bytes(policy=policy.SMTP)
    scales: tuple[float | None, ...] = MAP_SCALES if has_map else (None,)
    for scale in scales:
        png = pictures.at(scale) if pictures is not None and scale is not None else None
        msg = compose(g, d, address, text, page, json_part, png)
        data = msg.as_bytes(policy=policy.SMTP)
        if len(data) <= MAIL_BYTES:
            break
    return scale, msg, data
