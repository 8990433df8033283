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
    assert "вражеская карта" in render("effect_kinds", lang="ru")


def test_boosts_are_worded_by_the_one_vocabulary():
    """The boosts table says what the match demo says: core.labels, with the engine's numbers."""
    from core.labels import describe
    from engine.types import BoostKind

    with translation.override("ru"):
        rows = {row[0]: row[1] for row in cells(render("boosts", lang="ru"))[1:]}
        assert rows["Hero Patch"] == describe(BoostKind.HERO_PATCH)


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


def test_the_table_template_escapes_values_and_keeps_styled_cells():
    html = macros.table(
        "t <x>",
        [macros.Col("<b>A</b>"), macros.Col("N", num=True)],
        [("<script>1</script>", 2), (macros.rarity_cell("epic"), "x & y")],
        caption="<i>c</i>",
    )
    assert '<div class="macro" title="t &lt;x&gt;">' in html
    assert '<th scope="col">&lt;b&gt;A&lt;/b&gt;</th>' in html
    assert '<th scope="row">&lt;script&gt;1&lt;/script&gt;</th><td class="num">2</td>' in html
    assert '<th scope="row"><span class="rarity rarity-epic">Epic</span></th>' in html
    assert "<caption>&lt;i&gt;c&lt;/i&gt;</caption>" in html and "x &amp; y" in html


# ---------------------------------------------------------------------------
# Booster packs (§7) and the slab arena (§8)


def table_cells(html: str, name: str) -> list[list[str]]:
    """The cells of the macro table titled ``name`` (a macro may return several tables)."""
    part = html.split(f'title="{name}"', 1)[1].split("</table>", 1)[0]
    return cells(part)


def caption(html: str, name: str) -> str:
    part = html.split(f'title="{name}"', 1)[1]
    return re.search(r"<caption>(.*?)</caption>", part, re.S).group(1)


def test_pack_weights_show_each_tier_and_its_one_pick_chance():
    rows = cells(render("pack_weights"))
    assert rows[0][:2] == ["Rarity", "Tier weight"]
    assert rows[1:] == [
        ["Common", "80", "80/150 ≈ 53.3%"],
        ["Rare", "40", "40/150 ≈ 26.7%"],
        ["Epic", "20", "20/150 ≈ 13.3%"],
        ["Legendary", "10", "10/150 ≈ 6.7%"],
        ["All tiers", "150", "100%"],
    ]
    assert "Free" not in [row[0] for row in rows]


def test_pack_weights_follow_the_engine(monkeypatch):
    from engine import packs

    weights = {**data.PACK_TIER_WEIGHT, Rarity.LEGENDARY: 60}  # total 200: exact percentages
    monkeypatch.setattr(data, "PACK_TIER_WEIGHT", weights)
    monkeypatch.setattr(packs, "PACK_TIER_WEIGHT", weights)
    packs._mask_odds.cache_clear()
    try:
        rows = cells(render("pack_weights"))
        assert rows[1] == ["Common", "80", "80/200 = 40%"]
        assert rows[4] == ["Legendary", "60", "60/200 = 30%"]
    finally:
        packs._mask_odds.cache_clear()


def test_pack_weights_in_russian():
    html = render("pack_weights", lang="ru")
    # In the draw a tier is a rarity (docs/glossary.md).
    assert "Вес редкости" in html and "≈ 53,3" in html and "Все редкости" in html
    assert "тир" not in html.replace("тираж", "")


def test_slab_stat_book_is_the_rules():
    html = render("slab_stat_book")
    assert table_cells(html, "slab_stat_book hp")[1:] == [
        ["$0 – $49.99", "60"],
        ["$50 – $149.99", "80"],
        ["$150 – $499.99", "100"],
        ["$500 – $1,999.99", "120"],
        ["$2,000 and up", "140"],
    ]
    assert table_cells(html, "slab_stat_book tiers")[1:] == [
        ["$0 – $24.99", "common", "none", "—", "1"],
        ["$25 – $74.99", "uncommon", "attack +20", "2", "1"],
        ["$75 – $249.99", "rare", "attack +30", "2", "2"],
        ["$250 and up", "epic", "attack +40", "3", "2"],
    ]
    assert table_cells(html, "slab_stat_book attack")[1:] == [
        ["10", "30"],
        ["9 or 9.5", "25"],
        ["8 or 8.5", "20"],
        ["7.5 or lower", "15"],
    ]
    assert table_cells(html, "slab_stat_book armor")[1:] == [
        ["2003 or earlier", "10"],
        ["2004 – 2015", "5"],
        ["2016 or later", "0"],
    ]
    assert table_cells(html, "slab_stat_book elements")[1:] == [
        ["0", "Sun", "Star", "+10"],
        ["1", "Moon", "Sun", "+10"],
        ["2", "Star", "Moon", "+10"],
    ]
    assert table_cells(html, "slab_stat_book damage")[1][2] == "1"
    assert caption(html, "slab_stat_book damage") == (
        "damage = max(10, move damage + element bonus − target armor)"
    )


def test_slab_tables_follow_the_engine(monkeypatch):
    from decimal import Decimal

    from engine.arena import slabs

    monkeypatch.setattr(slabs, "MIN_DAMAGE", 12)
    monkeypatch.setattr(
        slabs, "HP_BY_VALUE", (slabs.HpBand(Decimal(40), 55), slabs.HpBand(None, 90))
    )
    monkeypatch.setattr(
        slabs, "ARMOR_BY_YEAR", (slabs.ArmorBand(1999, 7), slabs.ArmorBand(None, 1))
    )
    monkeypatch.setattr(
        slabs, "BRACKETS", (slabs.BracketCap(slabs.Bracket.ROOKIE, Decimal("99.50")),)
    )
    html = render("slab_stat_book")
    assert table_cells(html, "slab_stat_book hp")[1:] == [
        ["$0 – $39.99", "55"],
        ["$40 and up", "90"],
    ]
    assert table_cells(html, "slab_stat_book armor")[1:] == [
        ["1999 or earlier", "7"],
        ["2000 or later", "1"],
    ]
    assert "max(12," in caption(html, "slab_stat_book damage")
    assert cells(render("slab_brackets"))[1:] == [["rookie", "$99.50"]]


def test_slab_brackets_and_the_team_rule():
    html = render("slab_brackets")
    assert cells(html)[1:] == [
        ["rookie", "$150"],
        ["pro", "$600"],
        ["elite", "$2,500"],
        ["open", "no cap"],
    ]
    assert "4 different slabs, at most 2 of them rare or epic" in html


def test_slab_tables_in_russian_keep_tiers_and_brackets_in_latin_letters():
    book = render("slab_stat_book", lang="ru")
    assert "Солнце" in book and "Звезда" in book and "Луна" in book
    assert "epic" in book and "Суперприём" in book and "$1\xa0999,99" in book
    assert "9 или 9,5" in book and "урон = max(10," in book
    brackets = render("slab_brackets", lang="ru")
    assert "rookie" in brackets and "$2\xa0500" in brackets and "без ограничения" in brackets
    assert "Дивизион" in brackets
