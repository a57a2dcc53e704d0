"""The SVG map: area shapes that share an edge exactly where the board has a border, a palette told
apart by colour-blind readers, and what each area holds, the step's moves and the tracks drawn."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from adjudicator.engine.events.action import UnitsMoved
from adjudicator.engine.events.combat import Retreated
from adjudicator.game.board import Board
from adjudicator.game.setup import new_game
from adjudicator.game.state import Order, Unit
from adjudicator.reports.mapshapes import MapShapes
from adjudicator.reports.svgmap import (
    HOUSE_COLOURS,
    NEUTRAL_FILL,
    PORT_FILL,
    SEA_FILL,
    MapLayout,
    render_map,
)

BOARD = Board.classic()
SHAPES = MapShapes.classic()
SVG = "{http://www.w3.org/2000/svg}"


def _six():
    return new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="map")


def _fill_of(svg: str, area_id: str) -> tuple[str, str]:
    """An area's fill and outline: its own, or the land group's default."""
    m = re.search(rf'<use href="#a-{area_id}"( fill="([^"]+)" stroke="([^"]+)")?', svg)
    assert m, area_id
    return (m.group(2), m.group(3)) if m.group(1) else (NEUTRAL_FILL, "#8a7752")


# --- the shapes ------------------------------------------------------------------------------------


def test_bordering_areas_share_an_edge_and_no_others_do():
    """The map's promise: two areas are drawn touching along an edge exactly when they border."""
    shared = SHAPES.shared_edges()
    borders = {frozenset(p) for p in BOARD.border_pairs}
    assert set(shared) == borders
    assert all(length >= 25 for length in shared.values()), "every border is long enough to see"
    for a, b in combinations(sorted(BOARD.areas), 2):
        assert (frozenset((a, b)) in shared) == (frozenset((a, b)) in borders), (a, b)


def test_every_area_has_one_outline_that_closes():
    for area_id in BOARD.areas:
        path = SHAPES.path(area_id)
        assert path.startswith("M") and path.endswith("z"), area_id
    assert SHAPES.path("pyke").count("M") == 1, "an island is one ring"
    assert SHAPES.path("ironmans_bay").count("M") == 2, "the sea round Pyke has Pyke as a hole"


def test_the_map_follows_the_geography_of_the_board():
    x = {a: p[0] for a, p in SHAPES.anchors.items()}
    y = {a: p[1] for a, p in SHAPES.anchors.items()}
    assert y["castle_black"] < y["winterfell"] < y["moat_cailin"] < y["riverrun"] < y["kings_landing"]
    assert y["kings_landing"] < y["the_reach"] < y["dornish_marches"] < y["princes_pass"] < y["starfall"]
    assert y["sunspear"] > y["storms_end"] and y["highgarden"] > y["lannisport"]
    assert x["sunset_sea"] < x["lannisport"] < x["kings_landing"] < x["dragonstone"]
    assert x["bay_of_ice"] < x["winterfell"] < x["the_shivering_sea"]
    assert x["pyke"] < x["riverrun"] and x["the_arbor"] < x["oldtown"] and x["the_eyrie"] > x["the_twins"]


def test_a_grid_with_a_character_not_in_the_legend_is_refused():
    with pytest.raises(ValueError, match="characters without an area in the legend: Q"):
        MapShapes.from_toml({"grid": {"cell": 10, "rows": ["aQ"]}, "legend": {"a": "x"}})


# --- the palette -----------------------------------------------------------------------------------


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


# How readers with each common colour-vision deficiency see a colour (Machado et al. 2009, severity 1).
DEFICIENCIES = {
    "protanopia": ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052)),
    "deuteranopia": ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969)),
    "tritanopia": ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304)),
}


def _seen(rgb: tuple[float, float, float], matrix) -> tuple[float, ...]:
    return tuple(max(0.0, min(1.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix)


def test_every_house_colour_differs_from_the_others_and_from_the_neutral_and_sea_colours_for_every_reader():
    mains = {h: c[0] for h, c in HOUSE_COLOURS.items()}
    tints = {h: c[1] for h, c in HOUSE_COLOURS.items()}
    fixed = {"neutral": NEUTRAL_FILL, "sea": SEA_FILL, "port": PORT_FILL, "impassable": "#d0d0d0"}
    for name, matrix in {"normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)), **DEFICIENCIES}.items():
        for group in (mains, tints | fixed):
            seen = {k: _seen(_rgb(v), matrix) for k, v in group.items()}
            for a, b in combinations(seen, 2):
                distance = sum((p - q) ** 2 for p, q in zip(seen[a], seen[b])) ** 0.5
                assert distance > 0.06, (name, a, b)


# --- the picture ------------------------------------------------------------------------------------


def test_svg_is_well_formed_with_title_and_desc():
    root = ET.fromstring(render_map(_six()))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text.startswith("game · round 1 · planning")
    assert root.find(f"{SVG}desc").text
    assert (int(root.get("width")), int(root.get("height"))) == (MapLayout.classic().width,
                                                                   MapLayout.classic().height + MapLayout.classic().legend_height)  # fmt: skip


def test_each_land_outline_is_defined_once_and_drawn_once():
    svg = render_map(_six(), highlight=["winterfell"])
    for area in BOARD.areas.values():
        if area.is_sea:  # the seas are the background; a line marks each border between two seas
            assert f'id="a-{area.id}"' not in svg
            continue
        assert svg.count(f'id="a-{area.id}"') == 1, area.id
        assert svg.count(f'<use href="#a-{area.id}"') == 2 if area.id == "winterfell" else 1, area.id


def test_areas_are_coloured_by_their_controller():
    state = _six()
    state.area_mut("the_reach").power_token = "tyrell"
    svg = render_map(state)
    assert _fill_of(svg, "winterfell") == (HOUSE_COLOURS["stark"][1], HOUSE_COLOURS["stark"][0])
    assert _fill_of(svg, "the_reach") == (HOUSE_COLOURS["tyrell"][1], HOUSE_COLOURS["tyrell"][0])
    assert _fill_of(svg, "harrenhal")[0] == NEUTRAL_FILL  # nobody's
    assert f'fill="{SEA_FILL}"' in svg


def test_units_are_icons_in_their_house_colour_with_a_count():
    state = _six()
    state.area_mut("the_twins").units += [Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "siege_engine")]
    svg = render_map(state)
    stark = HOUSE_COLOURS["stark"][0]
    assert re.search(rf'<use href="#u-footman" x="[\d.]+" y="[\d.]+" fill="{stark}"/><text x="[\d.]+" y="[\d.]+">2</text>', svg)
    assert re.search(rf'<use href="#u-siege_engine" x="[\d.]+" y="[\d.]+" fill="{stark}"/>', svg)
    assert svg.count('href="#u-ship"') == 8 + 1  # the starting fleets (two ships in one area: one icon), the legend


def test_routed_units_are_faded():
    state = _six()
    state.area_mut("the_twins").units.append(Unit("stark", "knight", routed=True))
    assert re.search(r'<use href="#u-knight" [^>]* opacity=".5"/>', render_map(state))


def test_orders_power_tokens_garrisons_and_neutral_forces_are_drawn():
    state = _six()
    state.area_mut("winterfell").order = Order("stark", "march+1")
    state.area_mut("lannisport").order = Order("lannister", "raid*")
    state.area_mut("harrenhal").power_token = "lannister"
    svg = render_map(state)
    stark, lannister = HOUSE_COLOURS["stark"][0], HOUSE_COLOURS["lannister"][0]
    assert re.search(rf'<use href="#tok" x="[\d.]+" y="[\d.]+" stroke="{stark}" stroke-dasharray="3 2"/><text [^>]*>M\+1</text>', svg)
    assert re.search(rf'stroke="{lannister}" stroke-dasharray="3 2"/><text [^>]*>R</text>', svg)  # special orders dashed
    assert f'r="8" fill="{HOUSE_COLOURS["lannister"][0]}"' in svg  # the power token
    assert svg.count("q0 8-9 11q-9-3-9-11z") >= 6  # a garrison shield in each home area and the legend
    assert ">6</text>" in svg  # six players: the Eyrie's neutral force is 6


def test_the_steps_marches_and_retreats_are_arrows():
    state = _six()
    events = [UnitsMoved(house="stark", origin="winterfell", destination="moat_cailin", units=("footman",)),
              Retreated(house="greyjoy", from_area="seagard", to_area="riverrun", units=("footman",))]
    svg = render_map(state, events=events)
    assert svg.count('marker-end="url(#head)"') == 2 + 1  # and one in the legend
    assert 'stroke-dasharray="6 4"' in svg  # the retreat
    assert render_map(state).count('marker-end="url(#head)"') == 1


def test_the_tracks_are_drawn_under_the_board():
    state = _six()
    state.wildling_threat = 6
    svg = render_map(state)
    assert "Iron Throne</text>" in svg and "Supply</text>" in svg and "Victory</text>" in svg
    assert re.search(r'fill="#5a5a5a" stroke="#777"/><text [^>]*fill="#fff">6</text>', svg)  # the threat marker
    throne = state.tracks["iron_throne"][0]
    assert f'fill="{HOUSE_COLOURS[throne][0]}" stroke="#111"/><text x="120"' in svg


def test_highlighted_areas_are_marked():
    svg = render_map(_six(), highlight=["the_twins", "the_narrow_sea"])
    assert '<use href="#a-the_twins" fill="none" stroke="#d00000"' in svg
    assert svg.count('stroke="#d00000" stroke-width="5"') == 2  # a sea's outline is drawn for it


def test_highlighting_an_unknown_area_is_refused():
    with pytest.raises(KeyError):
        render_map(_six(), highlight=["atlantis"])


def test_impassable_areas_are_hatched_in_a_three_player_game():
    svg = render_map(new_game(["stark", "lannister", "baratheon"], seed="map"))
    assert _fill_of(svg, "sunspear")[0] == "url(#hatch)"
    assert ">impassable</text>" in svg
    assert _fill_of(svg, "winterfell")[0] != "url(#hatch)"


def test_text_in_the_map_is_escaped():
    state = _six()
    state.game_id = "a<b>&c"
    root = ET.fromstring(render_map(state, viewer="stark"))
    assert root.find(f"{SVG}title").text == "a<b>&c · round 1 · planning · seen by Stark"


def test_the_map_is_deterministic():
    assert render_map(_six(), highlight=["winterfell"]) == render_map(_six(), highlight=["winterfell"])


# --- parts drawn once and reused ------------------------------------------------------------------


def test_the_reuse_key_covers_every_field_of_an_area_unit_and_order():
    from dataclasses import fields

    from adjudicator.game.state import AreaState
    from adjudicator.reports.svgmap import KEYED_AREA_FIELDS

    assert tuple(f.name for f in fields(AreaState)) == KEYED_AREA_FIELDS
    assert tuple(f.name for f in fields(Unit)) == ("house", "type", "routed")
    assert tuple(f.name for f in fields(Order)) == ("house", "token")


def test_reused_parts_give_the_same_map_as_drawing_everything_afresh():
    from adjudicator.reports.svgmap import clear_caches
    from adjudicator.robots.simulate import simulate

    states = []
    simulate(4, 3, rounds=4, text=False, on_step=lambda s: states.append(s.copy()))
    warm = [render_map(s, viewer=s.houses_in_play[0], highlight=["the_twins"] if i % 3 else []) for i, s in enumerate(states)]
    fresh = []
    for i, s in enumerate(states):
        clear_caches()
        fresh.append(render_map(s, viewer=s.houses_in_play[0], highlight=["the_twins"] if i % 3 else []))
    assert len(states) > 20 and len(set(warm)) > 20
    assert warm == fresh


def test_a_state_changed_in_place_is_drawn_as_it_is_now():
    state = _six()
    before = render_map(state)
    state.area_mut("winterfell").units.append(Unit("stark", "siege_engine"))
    assert render_map(state) != before
    state.area_mut("winterfell").units.pop()
    assert render_map(state) == before


def test_a_moderators_map_template_is_used_and_kept_apart_from_the_builtin_one(tmp_path):
    from adjudicator.util.resources import resource_dir

    own = (resource_dir("templates") / "map.svg.j2").read_text(encoding="utf-8").replace("#fffdf6", "#000001")
    (tmp_path / "map.svg.j2").write_text(own, encoding="utf-8")
    builtin = render_map(_six())
    theirs = render_map(_six(), templates_dir=tmp_path)
    assert 'fill="#000001"' in theirs and 'fill="#000001"' not in builtin
    assert theirs.replace("#000001", "#fffdf6") == builtin == render_map(_six())


def test_a_map_template_without_the_macros_is_refused_with_what_it_lacks(tmp_path):
    import jinja2

    (tmp_path / "map.svg.j2").write_text("<svg>{{ title }}</svg>\n", encoding="utf-8")
    with pytest.raises(jinja2.TemplateError, match="missing: shapes, area_fill, area_contents, arrows, tracks, legend"):
        render_map(_six(), templates_dir=tmp_path)


def test_mother_of_dragons_overlays_keep_the_base_map_and_share_edges_where_the_expansion_has_borders():
    """The expansion's areas come as data (mother_of_dragons/map_shapes.toml), not a new drawing."""
    import tomllib
    from importlib import resources

    mod = tomllib.loads(resources.files("adjudicator.game").joinpath("data/mother_of_dragons/board.toml")
                        .read_text("utf-8"))["borders"]  # fmt: skip
    base = {frozenset(p) for p in BOARD.border_pairs}
    westeros = base - {frozenset(p) for p in mod["removed_pairs"]} | {frozenset(p) for p in mod["added_pairs"]}
    essos = {frozenset(p) for p in mod["essos_pairs"] + mod["cross_board_pairs"]}
    assert set(MapShapes.mother_of_dragons("vale").shared_edges()) == westeros
    both = MapShapes.mother_of_dragons()
    assert set(both.shared_edges()) == westeros | essos
    assert both.width == SHAPES.width + 16 * SHAPES.cell, "Essos is drawn to the right of the base board"
    assert [row[:40] for row in MapShapes.mother_of_dragons("essos").rows] == list(SHAPES.rows)  # base untouched
