"""Regressions found by playing a four-player game by hand: turn files, checks, receipts, reports.

Each test names the rule or ruling it covers and says in its docstring what was wrong.
"""

from __future__ import annotations

from clikit import reports_of

from adjudicator.folder.check import check_turn_file
from adjudicator.game.board import Board
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order
from adjudicator.turnfile.parser import TurnFile, parse_turn_file

BOARD = Board.classic()
FOUR = ["stark", "lannister", "greyjoy", "baratheon"]


def fresh() -> GameState:
    """A fresh four-player game, round 1 planning."""
    return new_game(FOUR, seed="ux-tests", game_id="winter")


def header(house: str, state: GameState, seq: int = 1) -> str:
    return f"game winter · house {house} · round {state.round} · {state.phase} · seq {seq}\n"


def check(body: str, state: GameState, house: str, *, engine: bool = False) -> TurnFile:
    return check_turn_file(parse_turn_file(header(house, state) + body), state, engine=engine)


def codes(tf: TurnFile) -> list[tuple[int, str]]:
    return [(p.where.line, p.code) for p in tf.problems]


def revealed(state: GameState, orders: dict[str, tuple[str, str]]) -> GameState:
    """The state after the reveal: ``orders`` maps an area to (house, token)."""
    for area, (house, token) in orders.items():
        state.areas[area].order = Order(house, token)
    return state


LANNISTER_ORDERS = {"lannisport": ("lannister", "march+1"), "stoney_sept": ("lannister", "support+0"),
                    "the_golden_sound": ("lannister", "raid*"), "port_of_lannisport": ("lannister", "consolidate")}


# --- maester check ------------------------------------------------------------------------------


def test_R125_raven_swap_checked_against_the_revealed_orders() -> None:
    """After the reveal, ``raven: swap Stoney Sept to ...`` was refused with "you have no order in
    Stoney Sept": the check looked for the orders in the file itself, which holds none by then."""
    state = revealed(fresh(), LANNISTER_ORDERS)
    assert codes(check("raven: swap Stoney Sept to defense +1\n", state, "lannister")) == []
    assert codes(check("raven: swap Kingswood to defense +1\n", state, "lannister")) == [(2, "E411")]


def submit(state: GameState, house: str, seq: int, body: str) -> GameState:
    """The state after the run takes one file of ``house`` (pool ids as the run makes them)."""
    from adjudicator.engine import machine
    from adjudicator.engine.core.context import pool_entry
    from adjudicator.turnfile.printer import format_command

    tf = parse_turn_file(header(house, state, seq) + body)
    assert not tf.problems, [str(p) for p in tf.problems]
    prefix = f"{house}/{state.round}.{state.phase}/"
    used = set(state.segment.used) if state.segment else set()
    base = state.copy()
    base.answers = [a for a in base.answers if not a["id"].startswith(prefix) or a["id"] in used]
    entries = [pool_entry(id=f"{prefix}seq{seq}/L{c.where.line}", house=house, round=state.round, command=c,
                          text=format_command(c)) for c in tf.commands if c.where]
    return machine.advance(base, entries, board=BOARD).state


STARK_ORDERS = "Winterfell: march +1\nWhite Harbor: defense +1\nThe Shivering Sea: support +0\n"


def test_ruling_94_check_warns_of_the_earlier_answers_a_new_seq_replaces() -> None:
    """A seq 2 file silently dropped the unused answers of seq 1 (standing support, orders waiting
    for the other houses), and ``maester check`` said nothing: it even counted them as still held."""
    state = submit(fresh(), "stark", 1, STARK_ORDERS + "support stark in every combat\n")
    tf = check_turn_file(parse_turn_file(header("stark", state, 2) + "support stark in Winterfell\n"), state)
    w207 = [w for w in tf.warnings if w.code == "W207"]
    assert len(w207) == 1
    assert "Winterfell: march +1" in w207[0].message and "support stark in every combat" in w207[0].message
    assert any(m.startswith("orders:") for m in tf.missing), tf.missing


def test_ruling_94_no_warning_when_nothing_earlier_is_held() -> None:
    """The replacement warning names only answers really held: none for a first file."""
    tf = check(STARK_ORDERS, fresh(), "stark", engine=True)
    assert [w.code for w in tf.warnings] == []


def test_E308_check_refuses_a_seq_already_accepted() -> None:
    """A file with a sequence number already used passed ``maester check`` and was then refused by
    the seal check as a replay, a mail round trip later."""
    state = fresh()
    tf = check_turn_file(parse_turn_file(header("stark", state, 2) + STARK_ORDERS), state, last_seq=2)
    assert codes(tf) == [(1, "E308")]
    assert "seq 3" in tf.problems[0].suggestion
    ok = check_turn_file(parse_turn_file(header("stark", state, 3) + STARK_ORDERS), state, last_seq=2)
    assert codes(ok) == []


def sea_battle() -> GameState:
    """Round 1 action: Greyjoy's ship has marched from Ironman's Bay into The Golden Sound, and
    Greyjoy's house card and Blade answer for that combat wait, unseen, in the pool."""
    state = fresh()
    for house, body in [("lannister", ("Lannisport: defense +1\nStoney Sept: consolidate\nThe Golden Sound: defense +1\n"
                                      "Port of Lannisport: consolidate\n")),
                        ("greyjoy", ("Pyke: defense +1\nGreywater Watch: defense +1\nIronman's Bay: march +0\n"
                                    "Port of Pyke: consolidate\n")),
                        ("baratheon", "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: consolidate\n"),
                        ("stark", "Winterfell: defense +1\nWhite Harbor: defense +1\nThe Shivering Sea: consolidate\n")]:
        state = submit(state, house, 1, body)
    state = submit(state, "lannister", 2, "raven: pass\n")
    state = submit(state, "greyjoy", 1 if state.phase == "action" else 2,
                   "march from Ironman's Bay: ship -> The Golden Sound\nplay euron crow's eye\nkeep blade\n")
    assert [(r["house"], r["kind"]) for r in state.pending] == [("lannister", "house_card")], state.pending
    return state


def test_ruling_156_check_does_not_use_other_houses_waiting_answers() -> None:
    """The check ran the engine with every house's waiting answers, so its "still missing" list
    told Lannister it must retreat (it would lose the combat) before Greyjoy's secret card was
    revealed: the check now tries a file with its own house's answers only."""
    state = sea_battle()
    tf = check("play the hound\n", state, "lannister", engine=True)
    assert codes(tf) == [] and tf.missing == ()


def test_ruling_94_check_tries_the_file_without_the_answers_it_replaces() -> None:
    """The check ran the engine with the house's earlier answers still in force, so it promised a
    complete turn that the run (which drops them, ruling 94) would find incomplete."""
    state = sea_battle()
    tf = check_turn_file(parse_turn_file(header("greyjoy", state, 2) + "keep blade\n"), state)
    assert [w.code for w in tf.warnings] == ["W207"]
    assert "play Euron Crow's Eye" in tf.warnings[0].message
    assert [m.split(":")[0] for m in tf.missing] == ["house_card"]


def test_ruling_156_check_lists_nothing_past_the_open_step() -> None:
    """A file that finished the round made the check list the next round's requests as "still
    missing" from it: decisions that come from Westeros cards not drawn yet (R267)."""
    state = fresh()
    for house, body in [("lannister", ("Lannisport: defense +1\nStoney Sept: consolidate\nThe Golden Sound: defense +1\n"
                                      "Port of Lannisport: consolidate\n")),
                        ("greyjoy", ("Pyke: defense +1\nGreywater Watch: defense +1\nIronman's Bay: raid\n"
                                    "Port of Pyke: consolidate\n")),
                        ("baratheon", "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: consolidate\n"),
                        ("stark", "Winterfell: defense +1\nWhite Harbor: defense +1\nThe Shivering Sea: consolidate\n")]:
        state = submit(state, house, 1, body)
    state = submit(state, "lannister", 2, "raven: pass\n")
    assert [(r["house"], r["kind"]) for r in state.pending] == [("lannister", "consolidate")]
    assert (state.round, state.phase) == (1, "action")
    tf = check("consolidate in Stoney Sept\n", state, "lannister", engine=True)
    assert codes(tf) == [] and tf.missing == ()


def test_R115_a_refused_extra_order_line_does_not_hide_a_complete_set() -> None:
    """An order for an area without units (E401) made the check report the whole set of orders as
    still missing, though every area of the house had its order and the run would take them."""
    tf = check(STARK_ORDERS + "Karhold: raid\n", fresh(), "stark", engine=True)
    assert codes(tf) == [(5, "E401")]
    assert tf.missing == ()


def test_R119_a_refused_order_leaves_its_area_missing_by_name() -> None:
    """With a refused third special order, "still missing" said only "assign one order to every
    area with your units", not which area still lacked a usable order."""
    tf = check("Winterfell: march +1\nWhite Harbor: defense +2\nThe Shivering Sea: support +1\n", fresh(), "stark",
               engine=True)
    assert codes(tf) == [(4, "E404")]
    assert tf.missing == ("orders: no order for The Shivering Sea until the one on line 4 is mended",)


def test_R119_too_many_special_orders_names_the_ones_already_placed() -> None:
    """E404 said "allows 2 special order(s); this is special order number 3" (or "allows 0 special
    order(s)"), without naming the specials already placed or the regular order to use instead."""
    tf = check("Winterfell: march +1\nWhite Harbor: defense +2\nThe Shivering Sea: support +1\n", fresh(), "stark")
    (p,) = tf.problems
    assert p.message == ("your place on the King's Court track allows 2 special orders, and Winterfell: march +1 "
                         "(line 2), White Harbor: defense +2 (line 3) already use them (R119)")
    assert p.suggestion == "use the regular order here (The Shivering Sea: support +0)"
    (p,) = check("Pyke: march +1\n", fresh(), "greyjoy").problems
    assert p.message == "your place on the King's Court track allows no special orders (R119)"
    assert p.suggestion == "use the regular order here (Pyke: march +0)"


def warnings_of(tf: TurnFile) -> list[tuple[int, str]]:
    return [(w.where.line, w.code) for w in tf.warnings]


def test_ruling_155_an_answer_given_twice_warns_that_the_earlier_line_is_never_used() -> None:
    """Two lines for one decision (two raven lines, two bids for one track) were both "accepted",
    though only the later one is ever used."""
    state = revealed(fresh(), LANNISTER_ORDERS)
    tf = check("raven: swap Stoney Sept to defense +1\nraven: look\n", state, "lannister")
    assert warnings_of(tf) == [(2, "W205")]
    assert "replaced by line 3" in tf.warnings[0].message
    tf = check("bid iron throne 2\nbid fiefdoms 1\nbid iron throne 1\n", fresh(), "stark")
    assert warnings_of(tf) == [(2, "W205")]


def test_ruling_155_a_general_combat_line_after_a_particular_one_is_used_first() -> None:
    """``if attacked in White Harbor: play catelyn`` followed by ``if attacked: play eddard`` plays
    Eddard when White Harbor is attacked: the latest fitting line is used first. Nothing said so."""
    tf = check("if attacked in White Harbor: play catelyn stark\nif attacked: play eddard stark\n"
               "if attacked in Winterfell: play robb stark\n", fresh(), "stark")
    assert warnings_of(tf) == [(2, "W208")]
    assert "line 3 fits every combat this line fits" in tf.warnings[0].message
    tf = check("if attacked: play eddard stark\nif attacked in White Harbor: play catelyn stark\n", fresh(), "stark")
    assert warnings_of(tf) == []


def test_ruling_155_support_lines_hide_each_other_only_where_both_fit() -> None:
    """A later ``support lannister`` does not hide ``support stark`` (it fits only Lannister's
    combats); a later ``support none`` hides every earlier support line of the same scope or narrower."""
    tf = check("support stark\nsupport lannister\n", fresh(), "stark")
    assert warnings_of(tf) == []
    # Where the supporter fights, "defender" is refused if it means its opponent: "stark" is used.
    tf = check("support stark in The Reach\nsupport defender in every combat\n", fresh(), "stark")
    assert warnings_of(tf) == []
    tf = check("support attacker in The Reach\nsupport defender in every combat\n", fresh(), "stark")
    assert warnings_of(tf) == [(2, "W205")]
    tf = check("support stark in Winterfell\nsupport none\n", fresh(), "stark")
    assert warnings_of(tf) == [(2, "W205")]
    assert "counts instead" in tf.warnings[0].message


def test_R208_a_retreat_for_an_attack_is_refused() -> None:
    """``if attacking Riverrun: retreat to Pyke`` was accepted, though a defeated attacker always
    goes back where it came from (R208); it silently expired at the end of the round."""
    tf = check("if attacking Riverrun: retreat to Pyke\nif attacked in Pyke: retreat to Greywater Watch\n",
               fresh(), "greyjoy")
    assert codes(tf) == [(2, "E412")]
    assert "R208" in tf.problems[0].message


def test_R086_bids_are_checked_against_the_power_the_earlier_tracks_leave() -> None:
    """Bids of 3, 3 and 1 with 5 power each passed the check, though every bid is paid (R086) and
    the Fiefdoms bid would be refused when its track came."""
    tf = check("bid king's court 2\nbid iron throne 3\nbid fiefdoms 3\n", fresh(), "stark")
    assert codes(tf) == [(4, "E407")]
    assert tf.problems[0].message == ("after your bid of 3 for the Iron Throne you have 2 power left for Fiefdoms: "
                                      "every bid is paid, won or lost (R082, R086)")
    tf = check("bid king's court 1\nbid iron throne 3\nbid fiefdoms 2\n", fresh(), "stark")
    assert codes(tf) == [(2, "E407")]
    assert "after your bid of 3 for the Iron Throne and bid of 2 for Fiefdoms you have 0" in tf.problems[0].message
    assert codes(check("bid iron throne 3\nbid fiefdoms 2\nbid king's court 0\n", fresh(), "stark")) == []


def test_R157_a_land_march_out_of_reach_is_flagged() -> None:
    """``march from Dragonstone: knight -> King's Landing`` passed the check; the run refused it
    as not adjacent a round trip later. Ships may still open the way, so it is a warning."""
    state = revealed(fresh(), {"dragonstone": ("baratheon", "march+1")})
    tf = check("march from Dragonstone: knight -> King's Landing\nmarch from Dragonstone: knight -> Kingswood\n",
               state, "baratheon")
    assert (2, "W401") in warnings_of(tf)
    assert not any(w.code == "W401" and w.where.line == 3 for w in tf.warnings)


def test_a_name_in_double_quotes_is_read() -> None:
    """``raid from golden sound onto "Ironman's Bay"`` (or with curly quotes, as a phone types
    them) was refused with "unexpected character '\\"'"; names never hold double quotes."""
    tf = parse_turn_file('raid from golden sound onto \u201cIronman\u2019s Bay\u201d else none\n"Winterfell": march +1\n')
    assert not tf.problems, [str(p) for p in tf.problems]
    from adjudicator.turnfile.printer import format_command

    assert [format_command(c) for c in tf.commands] == [
        "raid from The Golden Sound onto Ironman's Bay else none", "Winterfell: march +1"]


def test_R129_raid_with_a_colon_and_onto_is_read() -> None:
    """``raid from Ironman's Bay: onto Port of Lannisport else none`` mixes the two forms of a raid
    line and was refused as the unknown area 'onto Port of Lannisport'."""
    tf = parse_turn_file("raid from Ironmans bay: onto The Golden Sound else none\n")
    assert not tf.problems, [str(p) for p in tf.problems]
    assert tf.commands == parse_turn_file("raid from Ironman's Bay onto The Golden Sound else none\n").commands


def test_a_problem_of_the_whole_file_names_no_line() -> None:
    """Problems and warnings about the whole file were shown at "stark.txt:0:1", a place that
    does not exist in any editor."""
    tf = parse_turn_file("> Winterfell: march +1\n", filename="stark.txt")
    assert tf.warnings[0].render() == ("stark.txt: warning W201: the whole turn was quoted ('> '); the quoting "
                                       "was removed")
    tf = check_turn_file(parse_turn_file("Winterfell: march +1\n", filename="stark.txt"), fresh(), house="stark")
    assert str(tf.problems[0]).startswith("stark.txt: E307 ")


def test_a_private_report_says_which_answer_was_taken_in_words() -> None:
    """Reports said "Lannister: assign one order to every area with your units: Lannisport: ...",
    which reads like an instruction; a decision taken unasked showed a program's notation,
    "Consolidate(area=port_of_pyke)"; a deadline said "did not answer order the houses tied..."."""
    from adjudicator.engine.core.context import _text
    from adjudicator.engine.events import AnswerUsed, DefaultUsed
    from adjudicator.game.commands import Consolidate
    from adjudicator.reports.report import render_report

    assert _text(Consolidate(area="port_of_pyke")) == "consolidate in Port of Pyke"
    events = [AnswerUsed(house="stark", decision="resolve one of your raid orders", answer="raid from Winterfell: none",
                         visible_to="stark"),
              DefaultUsed(house="lannister", decision="order the houses tied in the bidding for the Fiefdoms track",
                          answer="tie-break fiefdoms: lannister, stark")]
    text = " ".join(render_report(fresh(), events, viewer="stark").split())
    assert 'Your answer "raid from Winterfell: none" was taken for: resolve one of your raid orders.' in text
    assert ("Lannister did not answer by the deadline: order the houses tied in the bidding for the Fiefdoms "
            "track. Default taken: tie-break fiefdoms: lannister, stark.") in text


def test_a_request_context_is_shown_in_printed_names() -> None:
    """"YOUR DECISIONS" showed ids ("areas: white_harbor, winterfell", "orders: lannisport:
    march+1", "short: False") where the player needs the names he writes in his file."""
    from adjudicator.engine import machine
    from adjudicator.reports.report import render_report

    text = render_report(machine.advance(fresh()).state, [], viewer="stark")
    assert "areas: White Harbor, Winterfell, The Shivering Sea" in text
    assert "short: no" in text
    assert "white_harbor" not in text and "False" not in text


def test_ruling_157_a_private_report_shows_the_answers_waiting_and_the_skeleton_repeats_them() -> None:
    """A player who sent standing instructions never saw what the game held for him, and the
    turn-file skeleton for his next file (seq 2) left them out, so sending it as he was invited
    to silently dropped them (Lannister lost its "support lannister in every combat" that way)."""
    from adjudicator.reports.report import render_report

    state = submit(fresh(), "stark", 1, STARK_ORDERS + "support stark in every combat\n")
    text = render_report(state, [], viewer="stark", last_seqs={"stark": 1})
    waiting = text.split("YOUR ANSWERS WAITING")[1].split("YOUR TURN FILE")[0]
    assert ("  - support stark in every combat\n      from seq 1, line 5, of round 1 planning; your next file "
            "replaces it\n") in waiting
    # The orders wait too: until every house has sent its own, a new file would replace them.
    assert "  - Winterfell: march +1\n      from seq 1, line 2, of round 1 planning" in waiting
    assert max(len(line) for line in text.splitlines()) <= 80
    skeleton = text.split("seal and send\n")[1].split("-" * 78 + "\n")[1]
    assert skeleton.startswith("game winter · house stark · round 1 · planning · seq 2\n")
    sent_again = parse_turn_file(skeleton)
    assert sent_again.commands == parse_turn_file(STARK_ORDERS + "support stark in every combat\n").commands
    for viewer in (None, "lannister"):
        assert "support stark" not in render_report(state, [], viewer=viewer)


# --- the batch run: receipts and the moderator's summary ---------------------------------------


def game_folder(tmp_path):  # type: ignore[no-untyped-def]
    """A four-house game folder, every house's key registered, step 0000 written."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from adjudicator.folder import batch, registry
    from adjudicator.folder.gamedir import create_game
    from adjudicator.seals.keys import PublicKey

    root = tmp_path / "winter"
    create_game(root, houses=FOUR, game_id="winter", seed="ux-tests")
    keys = {h: Ed25519PrivateKey.from_private_bytes(bytes([i + 1] * 32)) for i, h in enumerate(FOUR)}
    for h, k in keys.items():
        registry.register_key(root, h, PublicKey.from_key(k, h))
    batch.adjudicate(root)
    return root, keys


def send(root, keys, house: str, seq: int, body: str, *, step: str = "planning", rnd: int = 1):  # type: ignore[no-untyped-def]
    from adjudicator.folder import batch
    from adjudicator.seals import seal

    text = f"game winter · house {house} · round {rnd} · {step} · seq {seq}\n{body}"
    path = root / "inbox" / f"{house}-{rnd}-{step}-{seq}.txt"
    path.write_text(seal.sign(text, keys[house]), encoding="utf-8")
    return batch.adjudicate(root)


def receipt(root, house: str, seq: int) -> str:  # type: ignore[no-untyped-def]
    (path,) = reports_of(root).glob(f"*/receipts/*-{house}-r*-seq{seq}.txt")
    return path.read_text(encoding="utf-8")


def test_ruling_94_a_receipt_names_what_a_later_file_replaced_and_what_is_still_asked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Lannister's raven-only seq 2 silently dropped its seq 1 standing support (and orders still
    waiting for the other houses); the receipt said nothing of it, nor what was still asked."""
    root, keys = game_folder(tmp_path)
    orders = ("Lannisport: defense +1\nStoney Sept: support +0\nThe Golden Sound: raid\nPort of Lannisport: "
              "consolidate\n")
    send(root, keys, "lannister", 1, orders + "support lannister in every combat\n")
    first = receipt(root, "lannister", 1)
    assert "Replaced by this file" not in first
    # Nothing is asked of Lannister, but what comes up for it is named (ruling 124): the raven it holds
    assert "\nNothing is asked of you now; what comes up for you may be answered now" in first
    assert "  - Messenger Raven: you hold the Messenger Raven" in first
    send(root, keys, "lannister", 2, "raven: pass\n")
    second = receipt(root, "lannister", 2)
    replaced = second.split("Replaced by this file: dropped 5 answers of seq 1;")[1]
    assert "  support lannister in every combat\n" in replaced and "  Lannisport: defense +1\n" in replaced
    assert ("Asked of you now:\n  - orders: assign one order to every area with your units\nComing up for you, not "
            "asked yet") in second


def test_the_moderator_is_told_which_accepted_files_had_lines_left_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``maester adjudicate`` said only "accepted archive/..." for a file whose lines were refused,
    so the moderator could not tell which players needed a word."""
    root, keys = game_folder(tmp_path)
    result = send(root, keys, "stark", 1, STARK_ORDERS + "marhc from Winterfell: knight -> Karhold\n")
    assert result.notes == [("archive/000001-stark-r1-planning-seq1.txt: 1 line left out (its receipt tells the "
                            "player why)")]
    result = send(root, keys, "lannister", 1, "Lannisport: defense +2\nStoney Sept: support +1\nThe Golden Sound: "
                  "raid*\nPort of Lannisport: consolidate*\nPyke: raid\n")  # 4 specials for 3 stars; no units in Pyke
    assert result.notes == [("archive/000002-lannister-r1-planning-seq1.txt: 2 answers refused by the rules (its "
                            "receipt tells the player why)")]


def test_a_rejected_receipt_says_what_to_do(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A receipt for a file refused as sealed for a past step gave the reason but not the way out."""
    root, keys = game_folder(tmp_path)
    for house, body in [("lannister", ("Lannisport: defense +1\nStoney Sept: support +0\nThe Golden Sound: raid\n"
                                      "Port of Lannisport: consolidate\nraven: pass\n")),
                        ("greyjoy", ("Pyke: defense +1\nGreywater Watch: defense +1\nIronman's Bay: support +0\n"
                                    "Port of Pyke: consolidate\n")),
                        ("baratheon", "Dragonstone: defense +1\nKingswood: defense +1\nShipbreaker Bay: support +0\n"),
                        ("stark", STARK_ORDERS)]:
        send(root, keys, house, 1, body)
    result = send(root, keys, "stark", 2, "support stark in every combat\n")  # the planning step is over
    assert result.rejected and not result.rejected[0].retry
    (path,) = root.glob("refused/*-stark.txt")
    text = path.read_text(encoding="utf-8")
    assert "[wrong-step]" in text
    assert text.endswith("What to do:\n  - write the header for the step the game is at (seq 1 for your first file of\n"
                         "      a step), seal the file again and send it\n")  # folded within 80 columns


# --- command-line messages ------------------------------------------------------------------------


def test_sign_says_how_to_mend_a_text_that_does_not_start_with_its_header(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``maester sign`` refused a file starting with a comment (which ``maester check`` accepts) or
    with mail quoting, saying only that the header must come first."""
    from adjudicator.cli import main
    from adjudicator.seals.keys import generate, write_key_pair

    key = tmp_path / "key"
    write_key_pair(key, generate("stark"), None)
    turn = tmp_path / "turn.txt"
    turn.write_text("# my orders\ngame winter · house stark · round 1 · planning · seq 1\nWinterfell: march +1\n")
    assert main(["sign", "--key", str(key), str(turn)]) == 2
    assert "; the header is line 2: move the lines before it below it, or delete them" in capsys.readouterr().err
    turn.write_text("> game winter · house stark · round 1 · planning · seq 1\n> Winterfell: march +1\n")
    assert main(["sign", "--key", str(key), str(turn)]) == 2
    assert "; remove the mail quoting ('> ') first" in capsys.readouterr().err


def test_check_against_a_report_text_says_what_to_give(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``maester check stark.txt turn.txt`` (a report instead of its report.json) answered with a
    JSON decoder's message: "JSONDecodeError: Expecting value: line 1 column 1"."""
    from adjudicator.cli import main

    report = tmp_path / "stark.txt"
    report.write_text("MAESTER · game winter\n")
    turn = tmp_path / "turn.txt"
    turn.write_text("game winter · house stark · round 1 · planning · seq 1\n")
    assert main(["check", str(report), str(turn)]) == 2
    err = capsys.readouterr().err
    assert "is neither a game folder nor a published report.json; give the game folder, or the report.json" in err
    assert "JSONDecodeError" not in err


def test_ruling_155_a_refused_later_line_hides_nothing() -> None:
    """``raid from X onto Y`` then a second raid from X onto a non-adjacent area: the check said the
    first was replaced, but the engine refuses the second and uses the first."""
    state = revealed(fresh(), {"the_shivering_sea": ("stark", "raid")})
    tf = check("raid from The Shivering Sea onto Castle Black else none\nraid from The Shivering Sea onto Bay of Ice\n",
               state, "stark")
    assert codes(tf) == [(3, "E412")]
    assert warnings_of(tf) == []
    # Nor is a refused line said to be hidden by a later one: its problem says enough.
    tf = check("play tywin lannister\nplay eddard stark\n", fresh(), "stark")
    assert codes(tf) == [(2, "E409")] and warnings_of(tf) == []


def test_ruling_122_a_refused_answer_waiting_is_marked_and_commented_out_in_the_skeleton() -> None:
    """A refused answer stays in the pool (it may fit a later decision), and the waiting list showed
    it like any other; the skeleton repeated it with no word that it had been refused."""
    from adjudicator.engine import machine
    from adjudicator.engine.core.context import pool_entry
    from adjudicator.reports.report import render_report

    state = fresh()
    entries = []
    for i, c in enumerate(parse_turn_file("Winterfell: march +1\nWhite Harbor: defense +2\n"
                                          "The Shivering Sea: support +1\n").commands):
        entries.append(pool_entry(id=f"stark/1.planning/seq1/L{i + 2}", house="stark", round=1, command=c,
                                  text=__import__("adjudicator.turnfile.printer").turnfile.printer.format_command(c)))
    step = machine.advance(state, entries, board=BOARD)
    text = render_report(step.state, step.events, viewer="stark", last_seqs={"stark": 1})
    waiting = text.split("YOUR ANSWERS WAITING")[1].split("YOUR TURN FILE")[0]
    # Stark has 2 stars here: the two newest specials stand, the oldest is refused (ruling 121).
    assert waiting.count("refused in this step (see above)") == 1
    skeleton = text.split("seal and send\n")[1]
    # The refused lines are commented out, so the skeleton sent back as it is does not send them again.
    assert ("# refused (see your report): mend it and remove the '# ', or leave it out\n"
            "# Winterfell: march +1\n") in skeleton
    assert "\nWinterfell: march +1\n" not in skeleton and "\nThe Shivering Sea: support +1\n" in skeleton


def test_R244_leave_power_without_power_is_flagged() -> None:
    """``march ...; leave power`` from a house with no power passed the check, and the run refused
    the whole march (R244) a mail round trip later."""
    state = revealed(fresh(), {"dragonstone": ("baratheon", "march+1")})
    state.houses["baratheon"].power = 0
    tf = check("march from Dragonstone: knight -> Kingswood; leave power\n", state, "baratheon")
    assert warnings_of(tf) == [(2, "W401")] and "R244" in tf.warnings[0].message
    state.houses["baratheon"].power = 1
    assert warnings_of(check("march from Dragonstone: knight -> Kingswood; leave power\n", state, "baratheon")) == []


def test_a_receipt_lists_only_the_refusals_of_its_own_lines(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A file's receipt listed, among "answers the engine could not use", an older file's answer
    tried again in the same step, as if this file had sent it."""
    from adjudicator.engine.events import AnswerUnusable
    from adjudicator.folder.audit import Outcome, Snapshot, Understood
    from adjudicator.folder.receipts import unusable_for
    from adjudicator.turnfile.header import Header

    u = Understood("000025-baratheon-r2-action-seq1.txt", Header("winter", "baratheon", 2, "action", 1), True,
                   lines=[(2, "march from Crackclaw Point: knight, footman -> Kingswood")])
    events = [AnswerUnusable(house="baratheon", answer="march from Crackclaw Point: knight, footman -> Kingswood",
                             reason="no"),
              AnswerUnusable(house="baratheon", answer="march from Crackclaw Point: knight, footman -> King's Landing",
                             reason="too weak"),
              AnswerUnusable(house="baratheon", answer="Dragonstone: march +1; march from Crackclaw Point: knight, "
                             "footman -> Kingswood", reason="both")]
    outcome = Outcome(Snapshot(1, fresh()), events, [], [u], {})
    assert [e.reason for e in unusable_for(u, outcome)] == ["no", "both"]


def test_the_skeleton_fits_in_80_columns() -> None:
    """The skeleton's comment lines ran to 117 columns ("# support: support from Stoney Sept in the
    combat in Riverrun (...): attacker, defender or none"), past what a mail client shows."""
    from adjudicator.reports.report import skeleton

    req = {"key": "k", "kind": "support", "house": "lannister", "options": [],
           "prompt": "support from Stoney Sept in the combat in Riverrun (Greyjoy attacks Lannister): attacker, "
                     "defender or none"}
    text = skeleton(fresh(), "lannister", [req])
    assert max(len(line) for line in text.splitlines()) <= 78
    assert text.splitlines()[1:3] == ["# support: support from Stoney Sept in the combat in Riverrun (Greyjoy attacks",
                                      "#   Lannister): attacker, defender or none"]


def test_ruling_158_check_accepts_a_file_for_the_next_step_and_says_it_waits() -> None:
    """A file sealed for the action phase during the planning phase, which the run keeps and applies
    when its step opens (ruling 90), was refused by the check (E306) as for the wrong step."""
    ahead = "game winter · house stark · round 1 · action · seq 1\nmarch from Winterfell: knight -> Karhold\n"
    tf = check_turn_file(parse_turn_file(ahead + "if attacked: play eddard stark\n"), fresh(), engine=True)
    assert codes(tf) == []  # no orders known yet: the march is judged when the step opens
    assert [w.code for w in tf.warnings] == ["W302"]
    # With the house's orders sent (and held until the reveal), the march is checked against them.
    state = submit(fresh(), "stark", 1, "Winterfell: defense +1\nWhite Harbor: march +0\nThe Shivering Sea: support +0\n")
    assert codes(check_turn_file(parse_turn_file(ahead), state)) == [(2, "E411")]
    state = submit(fresh(), "stark", 1, STARK_ORDERS)
    assert codes(check_turn_file(parse_turn_file(ahead), state)) == []
    # A planning file sent during the action phase of the round before is judged without the old orders.
    state = revealed(fresh(), {"winterfell": ("stark", "march+1")})
    state.phase = "action"
    tf = check_turn_file(parse_turn_file("game winter · house stark · round 2 · planning · seq 1\n" + STARK_ORDERS),
                         state)
    assert codes(tf) == [] and [w.code for w in tf.warnings] == ["W302"]
    # A past step is still refused.
    state.round = 3
    assert (1, "E306") in codes(check_turn_file(parse_turn_file(
        "game winter · house stark · round 2 · planning · seq 1\n" + STARK_ORDERS), state))


def test_R123_revealed_orders_are_listed_by_house_as_written() -> None:
    """The reveal listed every order in board order ("Dragonstone: Baratheon march+1; Greywater
    Watch: Greyjoy defense+1; ..."): a player had to hunt through the whole list for one house's
    orders, written as ids rather than in words."""
    from adjudicator.engine.events.action import OrdersRevealed
    from adjudicator.reports.report import render_report

    e = OrdersRevealed(orders=(("dragonstone", "baratheon", "march+1"), ("pyke", "greyjoy", "defense+1"),
                               ("kingswood", "baratheon", "march-1")))
    text = " ".join(render_report(fresh(), [e]).split())
    assert ("Orders revealed. Greyjoy: Defense +1 in Pyke. Baratheon: March +1 in Dragonstone, March -1 in "
            "Kingswood.") in text


def test_R081_the_bid_skeleton_offers_the_later_tracks_too() -> None:
    """The skeleton for the Iron Throne bid held only that bid, so a player who filled it in and
    sent it was asked again, a mail round trip later, for Fiefdoms, then for King's Court. The later
    tracks now come as what is coming up (ruling 124)."""
    from adjudicator.engine.core.context import Request
    from adjudicator.reports.report import render_report
    from adjudicator.robots.simulate import simulate

    seen: list[GameState] = []
    simulate(4, 1, rounds=4, text=False, chaos=0.0, on_step=seen.append)
    state, req = next((s, r) for s in seen for r in map(Request.from_dict, s.pending)
                      if r.kind == "bid" and r.context.get("track") == "iron_throne")
    text = render_report(state, [], viewer=req.house, requests=state.pending)
    lines = text.split("seal and send\n")[1].split("-" * 78)[1].strip().splitlines()
    at = lines.index("# bid: bid for the Fiefdoms")
    assert lines[at:at + 4] == [
        "# bid: bid for the Fiefdoms", "# bid fiefdoms 0", "# bid: bid for the King's Court", "# bid king's court 0"]
    assert [str(c) for c in parse_turn_file("\n".join(x.lstrip("# ") for x in lines[at + 1:at + 4:2])).commands] == [
        "Bid(track='fiefdoms', amount=0)", "Bid(track='kings_court', amount=0)"]


def test_support_naming_an_area_says_which_two_lines_were_meant() -> None:
    """``support Winterfell`` was refused as "an area, where a house is expected", with no word of
    the two lines a player means by it: the support order's area, or the combat's."""
    (p,) = parse_turn_file("support Winterfell\n").problems
    assert p.code == "E209"
    assert p.suggestion == ("name the support order's area: 'support from Winterfell: HOUSE', or the combat's: "
                            "'support HOUSE in Winterfell'")


def test_a_malformed_header_says_what_is_wrong_and_the_line_to_write() -> None:
    """E301 said only "not a valid header ...; expected 'game GAME-ID · house HOUSE · ...'" for
    headers as players type them; ``Game: winter · House: Stark · ...`` was not even seen as a
    header, and came out as "unexpected character '·'" on an order line."""
    cases = {
        "Game: winter · House: Stark · Round: 3 · Westeros · Seq: 4": "write 'game winter · house stark · round 3 · "
                                                                      "westeros · seq 4'",
        "game winter · house stark · round three · westeros phase · seq 4": "write 'game winter · house stark · round "
                                                                            "3 · westeros · seq 4'",
        "game winter · house stark · round 3 · westeros": "the header has no 'seq N'",
        "game winter house stark round 3 westeros seq 4": "separate the five parts with '·', '|' or ','",
        "game winter · house stark · round 3 · muster · seq 1": "the step is one of westeros, planning, action",
    }
    for line, hint in cases.items():
        tf = parse_turn_file(line + "\nbid iron throne 0\n")
        assert [p.code for p in tf.problems] == ["E301"], (line, [str(p) for p in tf.problems])
        assert tf.problems[0].suggestion.startswith(hint), (line, tf.problems[0].suggestion)


def test_check_shows_a_malformed_header_instead_of_asking_for_house(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``maester check`` on a file whose header was mistyped stopped with "the file has no header
    naming its house: give --house", hiding what was wrong with the header."""
    from adjudicator.cli import main
    from adjudicator.folder.gamedir import create_game

    create_game(tmp_path / "winter", houses=FOUR, game_id="winter", seed="ux-tests")
    turn = tmp_path / "turn.txt"
    turn.write_text("game winter · house stark · round 1 · planning\nWinterfell: march +1\n")
    assert main(["check", str(tmp_path / "winter"), str(turn)]) == 1
    out = capsys.readouterr().out
    assert "error E301" in out and "hint: the header has no 'seq N'" in out


def test_a_header_for_another_game_keeps_its_seq_in_the_suggestion() -> None:
    """The suggested header for a file naming the wrong game always said 'seq 1', though the file's
    own seq 3 was right; for a past step it ignored the files already accepted."""
    state = fresh()
    tf = check_turn_file(parse_turn_file("game Winter · house stark · round 1 · planning · seq 3\n" + STARK_ORDERS),
                         state)
    assert [p.suggestion for p in tf.problems if p.code == "E304"] == [
        "write 'game winter · house stark · round 1 · planning · seq 3'"]
    state.round = 2
    tf = check_turn_file(parse_turn_file("game winter · house stark · round 1 · planning · seq 3\n"), state, last_seq=2)
    assert [p.suggestion for p in tf.problems if p.code == "E306"] == [
        "write 'game winter · house stark · round 2 · planning · seq 3'"]


def test_ruling_155_answers_that_may_be_asked_twice_in_a_step_are_not_called_hidden() -> None:
    """Two mustering lines for one area, two supply lines or two wildling bids may all be used in
    one Westeros phase (a wildling card after Mustering or Supply; a second wildling attack)."""
    tf = check("muster in Winterfell: footman\nmuster in Winterfell: knight\nbid wildlings 1\nbid wildlings 0\n"
               "supply: destroy footman in Winterfell\nsupply: destroy ship in The Shivering Sea\n", fresh(), "stark")
    assert warnings_of(tf) == []


def test_ruling_5_a_march_too_weak_for_a_neutral_force_is_flagged() -> None:
    """``march from Crackclaw Point: knight, footman -> King's Landing`` (2 + 1 + 1 against 5) passed
    the check in the planning file; the run refused it when the march came, a round trip later."""
    state = fresh()
    state.areas["crackclaw_point"] = state.areas.pop("dragonstone").__class__(units=list(state.area("dragonstone").units))
    weak = "Crackclaw Point: march +1\nKingswood: defense +1\nShipbreaker Bay: support +0\n"
    tf = check(weak + "march from Crackclaw Point: knight, footman -> King's Landing\n", state, "baratheon")
    assert [(w.where.line, w.code) for w in tf.warnings if w.code == "W401"] == [(5, "W401")]
    assert "would be 4, less than its 5" in tf.warnings[-1].message
    # With a support order next to King's Landing (Kingswood), the march can count on 4 + 1 + 0.
    strong = "Crackclaw Point: march +1\nKingswood: support +0\nShipbreaker Bay: defense +1\n"
    tf = check(strong + "march from Crackclaw Point: knight, footman -> King's Landing\n", state, "baratheon")
    assert not [w for w in tf.warnings if w.code == "W401"]
