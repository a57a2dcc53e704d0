"""Reports a player can trust (issue 16): whole card texts, no internal names, 80 columns.

Robot games are played through the whole product (text, seals, batch run, reports). Every report
rendered on the way is collected, and every card printed in it is checked against the card data:
a House card shows its condition and its ability, a Westeros card its effect, a wildling card what
each bidder gets. Every text a player reads (reports, receipts, ``maester show``) stays within 80
columns, and no engine name (``raven_wildling``, ``westeros_choice``, ``then: none``) leaks.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from clikit import reports_of

from adjudicator.game.cards import CARDS, STANDARD_SETS, VASSAL
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.reports import report
from adjudicator.reports.show import summary
from adjudicator.robots.simulate import simulate

HOUSE_BY_NAME = {c.name: c for c in CARDS.house_cards.values() if c.set in STANDARD_SETS | {VASSAL}}  # the games' decks
WESTEROS_BY_NAME = {c.name: c for c in CARDS.westeros}
WILDLING_BY_NAME = {c.name: c for c in CARDS.wildling_cards.values()}
LABEL = re.compile(r"^\[(?P<label>[^\]]+)\] ?(?P<text>.*)$", re.S)


def _text_blocks(page: str) -> list[str]:
    """Each card line of a text report with its wrapped continuation lines, joined."""
    lines = page.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        body = line.lstrip()
        if not body.startswith("[") or "]" not in body:
            continue
        indent = len(line) - len(body)
        parts = [body]
        for more in lines[i + 1:]:
            if not more.strip() or len(more) - len(more.lstrip()) <= indent:
                break
            parts.append(more.strip())
        blocks.append(" ".join(parts))
    return blocks


def _html_blocks(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'<p class="card"[^>]*>(.*?)</p>', page, re.S)]


def _check(block: str, seen: dict[str, int]) -> None:
    """One printed card against the card data; ``seen`` counts the cards checked by kind."""
    m = LABEL.match(block)
    assert m, block
    label, text = m.group("label"), " ".join(m.group("text").split())
    name = label.split(" · ")[0]
    if name in HOUSE_BY_NAME:
        card = HOUSE_BY_NAME[name]
        assert f" · {card.strength}" in label, block
        if card.has_ability:
            assert card.ability in text, block
            if card.condition != "always":
                assert card.condition in text, block
        seen["house"] += 1
    elif name.startswith("Westeros "):
        card = WESTEROS_BY_NAME[name.split(": ", 1)[1]]
        assert card.effect in text, block
        seen["westeros"] += 1
    elif name.startswith("Wildling card: "):
        card = WILDLING_BY_NAME[name.removeprefix("Wildling card: ")]
        for outcome in card.texts.values():
            for said in outcome.values():
                if said != "Nothing happens." and not said.startswith("Same as everyone else"):
                    assert said.rstrip(".") in text, (said, block)
        seen["wildling"] += 1
    elif name.startswith("Tides of Battle: "):
        seen["tides"] += 1
    else:
        pytest.fail(f"a bracketed line that names no card: {block}")


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[tuple[GameState, str, str]], list[Path]]:
    """Every report rendered in three robot games, with the state it shows, and the game folders."""
    pages: list[tuple[GameState, str, str]] = []
    real = report.render_reports

    def keep(state, events, **kw):  # type: ignore[no-untyped-def]
        out = real(state, events, **kw)
        pages.extend((state, fmt, page) for (_, fmt), page in out.items() if fmt != "json")
        return out

    folders = []
    mp = pytest.MonkeyPatch()
    mp.setattr(report, "render_reports", keep)
    try:
        for players, seed, rounds, tides in ((6, 4, 3, True), (6, 1, 3, True), (4, 2, 3, False)):
            out = tmp_path_factory.mktemp("cards") / f"g{players}"
            result = simulate(players, seed, rounds=rounds, tides_of_battle=tides, chaos=0.2, out=out)
            assert result.problems == []
            reports_of(out)  # every step's pages rendered from its record, through the spy
            folders.append(out)
    finally:
        mp.undo()
    return pages, folders


def test_every_card_text_in_every_report_is_the_whole_card(games):
    pages, _ = games
    seen = {"house": 0, "westeros": 0, "wildling": 0, "tides": 0}
    html_blocks = 0
    for _, fmt, page in pages:
        blocks = _text_blocks(page) if fmt == "text" else _html_blocks(page)
        html_blocks += len(blocks) if fmt == "html" else 0
        for block in blocks:
            _check(block, seen)
    assert html_blocks > 500, "the HTML reports print cards too"
    # hands in every private report; Westeros cards each Westeros Phase; the raven's look and the
    # Tides of Battle in these seeds
    assert seen["house"] > 1000 and seen["westeros"] > 20 and seen["tides"] > 0, seen
    assert seen["wildling"] > 0, seen  # seen by the raven, and revealed in a wildling attack


def test_a_card_with_a_condition_is_printed_with_it():
    state = new_game(["stark", "lannister", "baratheon"], seed="cards")
    text = report.render_report(state, [], viewer="baratheon")
    block = next(b for b in _text_blocks(text) if b.startswith("[Stannis Baratheon"))
    assert "if your opponent is ahead of you (closer to position 1) on the Iron Throne track" in block
    page = report.render_report(state, [], viewer="baratheon", fmt="html")
    assert any("ahead of you (closer to position 1)" in b for b in _html_blocks(page) if "Stannis" in b)


LEAKS = re.compile(r"\b(raven_wildling|westeros_choice|wildling_choice|card_choice|house_card|port_ships|tie_break|"
                   r"refuse_support|everyone_else)\b|then: none")


def test_every_text_a_player_reads_is_within_80_columns_and_names_no_engine_id(games):
    pages, folders = games
    checked = 0
    for _state, fmt, page in pages:
        if fmt == "text":
            assert max(len(line) for line in page.splitlines()) <= 80
            checked += 1
        assert not LEAKS.search(page), LEAKS.search(page)
    for folder in folders:
        rendered = reports_of(folder)
        for path in [*rendered.glob("*/*.txt"), *rendered.glob("*/receipts/*.txt"), folder / "pending"]:
            text = path.read_text(encoding="utf-8")
            long = [line for line in text.splitlines() if len(line) > 80]
            assert not long, (path, long[:3])
            assert not LEAKS.search(text), (path, LEAKS.search(text))
            checked += 1
    for state, _, _ in pages[:: max(1, len(pages) // 40)]:
        text = summary(state)
        assert max(len(line) for line in text.splitlines()) <= 80, text
        assert not LEAKS.search(text)
    assert checked > 500


def test_the_step_where_the_raven_looks_is_not_nothing_new(games):
    """R125(b): everyone sees that the raven holder looked (not the card)."""
    pages, _ = games
    looked = [p for _, fmt, p in pages if fmt == "text" and "Public report" in p and "uses the Messenger Raven to look" in p]
    assert looked
    for page in looked:
        assert "Nothing new happened" not in page


def test_the_drawn_list_includes_the_westeros_cards_being_resolved():
    """Was wrong: while a Westeros card waited for answers, 'drawn' listed only the discards."""
    state = new_game(["stark", "lannister", "baratheon"], seed="drawn")
    state.phase = "westeros"
    deck = state.westeros_decks["1"]
    resolving = deck.pop(0)  # drawn, not yet discarded
    state.westeros_discards["1"] = [deck.pop(0)]
    text = " ".join(report.render_report(state, []).split())
    name = next(c.name for c in CARDS.westeros if c.deck == 1 and c.id == resolving)
    assert f"{name} (being resolved)" in text
    state.phase = "planning"  # outside the Westeros Phase every drawn card is a discard
    assert "(being resolved)" not in report.render_report(state, [])


def test_westeros_iv_cards_are_named_with_their_deck_s_numeral():
    """Was wrong: "[Westeros 4: Empty Promises]" beside "[Westeros I: Supply]" (Mother of Dragons, M082)."""
    from adjudicator.reports.cardtext import card_ref, card_text

    assert card_text(card_ref("westeros", "empty_promises", 4)).startswith("[Westeros IV: Empty Promises] ")
    assert card_text(card_ref("westeros", "supply", 1)).startswith("[Westeros I: Supply] ")
