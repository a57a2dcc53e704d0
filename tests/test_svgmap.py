"""The SVG map: a shape for every area, honest borders, geography, and what each area holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from adjudicator.game.board import Board
from adjudicator.game.setup import new_game
from adjudicator.game.state import Order, Unit
from adjudicator.reports.svgmap import (
    HOUSE_COLOURS,
    MapLayout,
    _edges,
    border_lines,
    inside,
    render_map,
    segments_cross,
    shape_gap,
)

BOARD = Board.classic()
LAYOUT = MapLayout.classic()
SVG = "{http://www.w3.org/2000/svg}"
ADJACENT = {tuple(sorted(p)) for p in BOARD.border_pairs}


def _tree(state, **kw):
    return ET.fromstring(render_map(state, **kw))


def _area_group(root, area_id):
    return next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"area-{area_id}")


def _texts(element):
    return [t.text for t in element.iter(f"{SVG}text")]


def _fill_of(root, area_id):
    uses = [u for u in root.iter(f"{SVG}use") if u.get("href") == f"#shape-{area_id}" and u.get("class") != "highlight"]
    assert len(uses) == 1
    return uses[0].get("fill"), uses[0].get("stroke")


def _six():
    return new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="map")


# --- the layout data -----------------------------------------------------------------------------


def test_every_area_has_exactly_one_shape_on_the_canvas():
    assert set(LAYOUT.shapes) == set(BOARD.areas) and len(LAYOUT.shapes) == 58
    for shape in LAYOUT.shapes.values():
        for x, y in shape.outline:
            assert 0 <= x <= LAYOUT.width and 0 <= y <= LAYOUT.height, shape.id


def test_every_border_is_visible_as_a_short_line_or_touching_shapes():
    for a, b in ADJACENT:
        gap, _, _ = shape_gap(LAYOUT.shapes[a], LAYOUT.shapes[b])
        assert gap <= 180, (a, b, gap)
    drawn = {(a, b) for a, b, _, _ in border_lines()}
    for a, b in ADJACENT:
        assert (a, b) in drawn or shape_gap(LAYOUT.shapes[a], LAYOUT.shapes[b])[0] == 0, (a, b)


def test_areas_that_are_not_adjacent_never_touch():
    ids = sorted(LAYOUT.shapes)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if (a, b) not in ADJACENT:
                assert shape_gap(LAYOUT.shapes[a], LAYOUT.shapes[b])[0] >= 8, (a, b)


def test_border_lines_cross_no_third_area_except_a_sea_at_one_of_their_coasts():
    for a, b, p, q in border_lines():
        for c, shape in LAYOUT.shapes.items():
            if c in (a, b):
                continue
            crosses = inside(p, shape) or inside(q, shape) or any(segments_cross(p, q, *e) for e in _edges(shape))
            coast = BOARD.area(c).is_sea and 0 in (shape_gap(shape, LAYOUT.shapes[a])[0], shape_gap(shape, LAYOUT.shapes[b])[0])
            assert not crosses or coast, (a, b, c)


def test_the_schematic_follows_the_geography_of_the_board():
    y = {a: s.centre[1] for a, s in LAYOUT.shapes.items()}
    x = {a: s.centre[0] for a, s in LAYOUT.shapes.items()}
    assert y["castle_black"] < y["winterfell"] < y["moat_cailin"] < y["riverrun"] < y["kings_landing"]
    assert y["kings_landing"] < y["the_reach"] < y["dornish_marches"] < y["princes_pass"] < y["starfall"]
    assert y["sunspear"] > y["storms_end"] and y["highgarden"] > y["lannisport"]
    assert x["sunset_sea"] < x["lannisport"] < x["kings_landing"] < x["dragonstone"]
    assert x["bay_of_ice"] < x["winterfell"] < x["the_shivering_sea"]
    assert x["pyke"] < x["riverrun"] and x["the_arbor"] < x["oldtown"] and x["the_eyrie"] > x["the_twins"]


def test_ports_sit_between_their_land_area_and_their_sea():
    for port in BOARD.ports():
        shape = LAYOUT.shapes[port.id]
        assert shape.box is not None and shape.box[2] < 120, port.id  # drawn as a small box
        for other in (port.port_of, port.opens_onto):
            assert shape_gap(shape, LAYOUT.shapes[other])[0] <= 60, (port.id, other)


# --- the picture --------------------------------------------------------------------------------


def test_svg_is_well_formed_with_title_and_desc():
    root = _tree(_six())
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text.startswith("game · round 1 · planning")
    desc = root.find(f"{SVG}desc").text
    assert "Winterfell: Stark; 1 footman, 1 knight; garrison 2" in desc
    assert "Sunspear: Martell; 1 footman, 1 knight; garrison 2" in desc


def test_each_area_shape_is_defined_once_and_drawn_once():
    svg = render_map(_six(), highlight=["winterfell"])
    for area_id in BOARD.areas:
        assert svg.count(f'id="shape-{area_id}"') == 1, area_id
        fills = [line for line in svg.splitlines() if f'href="#shape-{area_id}"' in line and "highlight" not in line]
        assert len(fills) == 1, area_id


def test_areas_are_coloured_by_their_controller():
    state = _six()
    state.area_mut("the_reach").power_token = "tyrell"
    root = _tree(state)
    assert _fill_of(root, "winterfell") == (HOUSE_COLOURS["stark"][1], HOUSE_COLOURS["stark"][0])
    assert _fill_of(root, "the_reach") == (HOUSE_COLOURS["tyrell"][1], HOUSE_COLOURS["tyrell"][0])
    assert _fill_of(root, "harrenhal")[0] == "#f2ead6"  # nobody's
    assert _fill_of(root, "the_narrow_sea")[0] == "#cfe2f3"


def test_units_are_drawn_as_labelled_chips_by_house_and_type():
    state = _six()
    state.area_mut("the_twins").units += [Unit("stark", "footman"), Unit("stark", "footman"), Unit("stark", "siege_engine")]
    root = _tree(state)
    assert _texts(_area_group(root, "the_twins"))[1:] == ["2F", "1E"]
    assert "1S" in _texts(_area_group(root, "port_of_lannisport"))
    assert "2S" in _texts(_area_group(root, "shipbreaker_bay"))


def test_routed_units_are_faded_and_say_so():
    state = _six()
    state.area_mut("the_twins").units.append(Unit("stark", "knight", routed=True))
    chip = next(g for g in _area_group(_tree(state), "the_twins").iter(f"{SVG}g") if "unit" in (g.get("class") or ""))
    assert chip.get("opacity") == "0.55" and chip.find(f"{SVG}title").text == "Stark: 1 knight (routed)"


def test_orders_power_tokens_garrisons_and_neutral_forces_are_drawn():
    state = _six()
    state.area_mut("winterfell").order = Order("stark", "march+1")
    state.area_mut("lannisport").order = Order("lannister", "raid")
    state.area_mut("harrenhal").power_token = "lannister"
    root = _tree(state)
    assert "M+1*" in _texts(_area_group(root, "winterfell")) and "G2" in _texts(_area_group(root, "winterfell"))
    assert "R" in _texts(_area_group(root, "lannisport"))
    assert "P" in _texts(_area_group(root, "harrenhal"))
    assert "N6" in _texts(_area_group(root, "the_eyrie"))  # six players: the Eyrie's token is 6


def test_highlighted_areas_are_marked():
    svg = render_map(_six(), highlight=["the_twins"])
    assert '<use href="#shape-the_twins" class="highlight"' in svg
    assert svg.count('class="highlight"') == 1


def test_highlighting_an_unknown_area_is_refused():
    with pytest.raises(KeyError):
        render_map(_six(), highlight=["atlantis"])


def test_impassable_areas_are_hatched_in_a_three_player_game():
    root = _tree(new_game(["stark", "lannister", "baratheon"], seed="map"))
    assert _fill_of(root, "sunspear")[0] == "url(#hatch)"
    assert "impassable" in _texts(_area_group(root, "sunspear"))
    assert _fill_of(root, "winterfell")[0] != "url(#hatch)"


def test_text_in_the_map_is_escaped():
    state = _six()
    state.game_id = "a<b>&c"
    root = _tree(state, viewer="stark")
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
    state.area_mut("winterfell").garrison = 0
    state.area_mut("winterfell").units.append(Unit("stark", "siege_engine"))
    after = _tree(state)
    assert "G2" not in _texts(_area_group(after, "winterfell")) and "1E" in _texts(_area_group(after, "winterfell"))
    state.area_mut("winterfell").garrison = 2
    state.area_mut("winterfell").units.pop()
    assert render_map(state) == before


def test_a_moderators_map_template_is_used_and_kept_apart_from_the_builtin_one(tmp_path):
    from adjudicator.util.resources import resource_dir

    own = (resource_dir("templates") / "map.svg.j2").read_text(encoding="utf-8").replace("#f7f4ec", "#000001")
    (tmp_path / "map.svg.j2").write_text(own, encoding="utf-8")
    builtin = render_map(_six())
    theirs = render_map(_six(), templates_dir=tmp_path)
    assert 'fill="#000001"' in theirs and 'fill="#000001"' not in builtin
    assert theirs.replace("#000001", "#f7f4ec") == builtin == render_map(_six())


def test_a_map_template_without_the_macros_is_refused_with_what_it_lacks(tmp_path):
    import jinja2

    (tmp_path / "map.svg.j2").write_text("<svg>{{ title }}</svg>\n", encoding="utf-8")
    with pytest.raises(jinja2.TemplateError, match="missing: shapes, border_lines, area_fill, area_contents, legend"):
        render_map(_six(), templates_dir=tmp_path)
