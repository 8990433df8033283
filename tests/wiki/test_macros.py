"""Live tables: built from the engine's data and the live collection, never typed numbers."""

import re

import pytest
from django.utils import translation

from engine import data
from engine.types import Rarity
from wiki import macros
from wiki.macros import get_macro, register_macro, render_macro, unregister_macro

from .conftest import make_page


def cells(html: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    return [
        [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
        for r in rows
    ]


def render(name: str, arg: str | None = None, lang: str = "en") -> str:
    with translation.override(lang):
        return render_macro(get_macro(name), arg)


def test_tables_follow_the_engine_data(monkeypatch):
    """Change a rule number in the engine and the table changes with it."""
    assert cells(render("energy_costs"))[-1] == ["Legendary", "4"]
    monkeypatch.setattr(data, "ENERGY_COST", {**data.ENERGY_COST, Rarity.LEGENDARY: 9})
    assert cells(render("energy_costs"))[-1] == ["Legendary", "9"]


def test_iron_pup_is_exactly_as_the_rules_say():
    rows = cells(render("template_stats", "iron_pup"))
    by_rarity = {row[0]: row[1:3] for row in rows[1:]}
    assert by_rarity == {
        "Free": ["8", "20"],
        "Common": ["8", "20"],
        "Rare": ["8", "22"],
        "Epic": ["9", "22"],
        "Legendary": ["10", "23"],
    }


def test_a_bad_argument_is_a_visible_error_not_a_crash():
    html = render("template_stats", "no_such_template")
    assert 'class="macro-error"' in html and "no_such_template" in html


def test_a_failing_macro_shows_an_error_box():
    @register_macro("exploding_table")
    def exploding(arg):
        raise RuntimeError("boom")

    try:
        html = render("exploding_table")
        assert 'class="macro-error"' in html and "exploding_table" in html
    finally:
        unregister_macro("exploding_table")


def test_sticker_table_matches_the_rules():
    rows = cells(render("sticker_thresholds"))[1:]
    assert rows[0] == ["0", "—", "0", "0"]
    assert rows[1] == ["1", "Rare", "0", "0"]
    assert rows[3] == ["3", "Epic", "+1", "+2"]
    assert rows[-1] == ["6+", "Legendary", "+3", "+4"]


def test_russian_tables_keep_game_terms_in_latin_letters():
    html = render("attribute_tiers", lang="ru")
    assert "Тир" in html and "unique" in html and "уникальный" not in html
    html = render("slot_weights", lang="ru")
    assert "paw" in html and "Вес слота" in html


def test_numbers_use_the_page_language():
    assert "3,000" in render("wardrobe_thresholds")
    assert "3\xa0000" in render("wardrobe_thresholds", lang="ru")


@pytest.mark.django_db
def test_collection_stats_are_live(client):
    from tests.cards.conftest import attr, make_card

    crown, armor, axe = (
        attr("head", "Iron Crown", 3),
        attr("body", "Chain Armor", 2),
        attr("paw", "Axe", 3),
    )
    make_card(1, head=crown, body=armor, paw=axe)
    make_card(2)
    make_card(3, starter=True, name="Starter Pup")
    make_page("rarities", body_en="## Stats\n\n{{ collection_stats }}")
    html = client.get("/en/wiki/rarities/").content.decode()
    rows = {row[0]: row[1:] for row in cells(html.split('title="collection_stats"', 1)[1])}
    assert rows["Legendary"] == ["1", "50%", "1"]
    assert rows["Common"] == ["1", "50%", "0"]
    assert "Free" not in rows and "1 starter (Free) card is not counted" in html
    assert rows["Pierce"] == ["1"]
    # Not cached with the page: a new card shows at once.
    make_card(4, head=crown, body=armor, paw=axe, name="Another")
    html = client.get("/en/wiki/rarities/").content.decode()
    rows = {row[0]: row[1:] for row in cells(html.split('title="collection_stats"', 1)[1])}
    assert rows["Legendary"][0] == "2"


def test_other_apps_can_register_macros_and_use_the_table_helpers():
    @register_macro("test_live_table", live=True)
    def live_table(arg):
        return macros.table(
            "test_live_table", [macros.Col("A"), macros.Col("N", num=True)], [("x", 1)]
        )

    try:
        assert get_macro("test_live_table").live
        assert '<td class="num">1</td>' in render("test_live_table")
    finally:
        unregister_macro("test_live_table")
    assert get_macro("test_live_table") is None
