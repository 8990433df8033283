"""The card list and the card page: filters, breakdown, what-if, bad input, query counts."""

import re

import pytest
from django.core.cache import cache
from django.utils import translation

from cards.models import RARITY_RANK, Attribute, Card
from cards.specs import card_spec
from core import versions
from engine.card.derive import derive

pytestmark = pytest.mark.django_db

ORDER = ["Free", "Common", "Rare", "Epic", "Legendary"]


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_list_filters_by_the_query_language(client, demo):
    response = client.get("/en/cards/", {"q": "r:legendary"})
    assert response.status_code == 200
    expected = Card.objects.filter(rarity="legendary", starter=False).count()
    assert expected > 0
    assert f"{expected} cards found" in text(response)
    assert "Rarity is Legendary" in text(response)
    tokens = [int(t) for t in re.findall(r'href="/en/cards/(\d+)/"', response.content.decode())]
    assert tokens and all(Card.objects.get(token=t).rarity == "legendary" for t in tokens)


def test_list_hides_starter_cards_unless_asked(client, demo):
    starter = Card.objects.filter(starter=True).first()
    assert starter is not None
    everything = client.get("/en/cards/", {"q": starter.name.split()[0]}).content.decode()
    assert f'href="/en/cards/{starter.token}/"' not in everything
    asked = client.get("/en/cards/", {"q": "starter:yes sort:token"}).content.decode()
    assert f'href="/en/cards/{starter.token}/"' in asked


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_bad_query_is_a_400_with_the_reason_in_the_visitors_language(client, demo, lang):
    response = client.get(f"/{lang}/cards/", {"q": "rarty:legendary"})
    assert response.status_code == 400
    expected = "did you mean “rarity”" if lang == "en" else "может быть, «rarity»"
    assert expected in response.content.decode()


def test_htmx_gets_the_results_fragment_and_varies_on_it(client, demo):
    response = client.get("/en/cards/", {"q": "role:tank"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results"')
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]
    restore = client.get(
        "/en/cards/",
        {"q": "role:tank"},
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in restore.content.decode()


def test_pagination_keeps_the_query(client, demo):
    response = client.get("/en/cards/", {"q": "sort:token", "page": "2"})
    html = response.content.decode()
    assert 'aria-current="page">2<' in html
    assert "?q=sort%3Atoken&amp;page=3" in html
    assert client.get("/en/cards/", {"page": "999"}).status_code == 200  # clamps to the last


def test_list_query_count_does_not_grow_with_the_page(client, demo, django_assert_max_num_queries):
    # Content versions, count, one page of ids, those cards with their attributes.
    with django_assert_max_num_queries(4):
        client.get("/en/cards/", {"q": "r>=rare sort:-atk"})
    with django_assert_max_num_queries(0):  # served from the page cache
        client.get("/en/cards/", {"q": "r>=rare sort:-atk"})


def test_a_searchs_count_is_kept_across_its_sorts_displays_and_pages(
    client, demo, django_assert_num_queries
):
    """The count of a search is kept per collection version: another sort, display or page
    of it counts no cards again (at 100,000 cards a broad count is 3–5 ms); a change of
    the collection counts afresh."""
    first = client.get("/en/cards/", {"q": "r>=rare sort:-atk"}).content.decode()
    found = re.search(r"(\d+) cards found", first).group(1)
    with django_assert_num_queries(2):  # a page of ids, those cards: no count
        html = client.get(
            "/en/cards/", {"q": "r>=rare sort:hp", "display": "checklist", "page": "2"}
        ).content.decode()
    assert f"{found} cards found" in html
    card = Card.objects.filter(rarity="common").order_by("token").first()
    Card.objects.filter(pk=card.pk).update(rarity="rare", rarity_rank=RARITY_RANK["rare"])
    versions.bump("cards")
    html = client.get("/en/cards/", {"q": "r>=rare sort:hp"}).content.decode()
    assert f"{int(found) + 1} cards found" in html


def test_list_rows_read_what_the_orm_would_in_one_query(demo, django_assert_num_queries):
    from explorer.selectors import ROW_FIELDS, list_rows

    ids = list(Card.objects.order_by("-token").values_list("pk", flat=True)[:7])
    ids += list(Card.objects.filter(starter=True).values_list("pk", flat=True)[:2])
    ids.append(10**9)  # no such card: left out
    expected = {row[0]: row for row in Card.objects.filter(pk__in=ids).values_list(*ROW_FIELDS)}
    with django_assert_num_queries(1):
        rows = list_rows(ids)
    assert [row["pk"] for row in rows] == ids[:-1]  # the page's order
    for row in rows:
        for name, theirs in zip(ROW_FIELDS, expected[row["pk"]], strict=True):
            mine = row[name]  # the same values, of the same types (booleans, decimals)
            assert (mine, type(mine)) == (theirs, type(theirs)), name
    # Any batch size, padded or not, answers only what it was asked.
    for size in (1, 8, 9):
        assert [row["pk"] for row in list_rows(ids[:size])] == ids[:size]
    assert list_rows([]) == []


@pytest.mark.parametrize(
    "q", ["atk>=9 hp>=20", "r:rare atk>=5 hp>=16", "-r:common atk>=10 hp>=18", "nrg<=3 def>=2"]
)
def test_stat_searches_count_from_an_index_alone(demo, q):
    """A search on the stored stats is counted without reading a card's row (a covering
    index): at 100,000 cards, what keeps its count near its time at 1,000."""
    from django.db import connection

    from cards.search import search_cards

    if connection.vendor != "sqlite":
        pytest.skip("the plan's wording is SQLite's")
    sql, params = search_cards(q).values_list("pk", flat=True).order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN SELECT COUNT(*) FROM ({sql})", params)
        plan = " ".join(row[-1] for row in cursor.fetchall())
    assert "COVERING INDEX cards_card_" in plan, plan


def _sort_controls(html: str) -> tuple[list[str], list[str]]:
    form = html[html.index('<form class="sort-form"') :]
    form = form[: form.index("</form>")]
    key = form[form.index('id="sort-key"') : form.index("</select>")]
    direction = form[form.index('id="sort-dir"') :]
    return (
        re.findall(r'<option value="([^"]*)" selected>', key),
        re.findall(r'<option value="([^"]*)" selected>', direction),
    )


def test_kept_parts_of_the_list_follow_the_sort_and_the_language(client, demo):
    """The header and the sort controls are kept between renders (a fragment cache):
    each render still shows its own sort chosen and its own language."""
    for q, key, direction in [
        ("atk>=1 sort:-atk", "atk", "desc"),
        ("atk>=1 sort:atk", "atk", "asc"),
        ("atk>=1 sort:hp", "hp", "asc"),
        ("atk>=1", "rarity", "desc"),
        ("atk>=1 sort:-atk", "atk", "desc"),
    ]:
        for lang, sort_by in [("en", "Sort by"), ("ru", "Сортировка")]:
            for headers in ({}, {"HX-Request": "true"}):
                html = client.get(f"/{lang}/cards/", {"q": q}, headers=headers).content.decode()
                assert _sort_controls(html) == ([key], [direction]), (q, lang, headers)
                assert f'<label for="sort-key">{sort_by}</label>' in html
                assert f'action="/{lang}/cards/"' in html
            if not headers:
                assert f'href="/{lang}/cards/advanced/"' in html
    english = client.get("/en/cards/", {"q": "hp>=1"}).content.decode()
    russian = client.get("/ru/cards/", {"q": "hp>=1"}).content.decode()
    assert "Search the collection" in english and "Search the collection" not in russian
    assert 'href="/ru/cards/help/"' in russian  # the hint's link, in Russian too
    assert 'value="hp&gt;=1"' in russian  # the visitor's own query, never a kept one


def test_card_page_explains_the_card(client, demo):
    card = Card.objects.filter(rarity="legendary").first()
    breakdown = derive(card_spec(card.token))
    response = client.get(f"/en/cards/{card.token}/")
    assert response.status_code == 200
    page = text(response)
    assert "Legendary because of" in page
    assert "Why Legendary?" in page
    assert "Legendary is the highest rarity" in page
    assert (
        f"ATK {breakdown.stats.atk}" in page
        or f"ATK</dt><dd>{breakdown.stats.atk}" in response.content.decode()
    )
    # Every rule row links to its section of the rarities page.
    assert 'href="/en/wiki/rarities/#wardrobe-score"' in response.content.decode()
    assert '<svg class="card-art"' in response.content.decode()


def test_card_page_in_russian(client, demo):
    card = Card.objects.filter(rarity="epic").first()
    response = client.get(f"/ru/cards/{card.token}/")
    assert response.status_code == 200
    page = text(response)
    assert "Почему Epic?" in page
    assert "Что сделает её Legendary?" in page
    assert 'href="/ru/wiki/rarities/#supply-count"' in response.content.decode()


def test_card_page_query_count_is_fixed(client, demo, django_assert_num_queries):
    big = max(Card.objects.all(), key=lambda c: c.wardrobe.count())
    small = min(Card.objects.all(), key=lambda c: c.wardrobe.count())
    for card in (big, small):
        cache.clear()
        # Content versions, the card with its wardrobe, the combos, the attribute catalogue,
        # the neighbours.
        with django_assert_num_queries(5):
            assert client.get(f"/en/cards/{card.token}/").status_code == 200
        with django_assert_num_queries(0):  # the same page again comes from the cache
            assert client.get(f"/en/cards/{card.token}/").status_code == 200


def test_the_ways_up_query_count_is_fixed(client, demo, django_assert_num_queries):
    cards = Card.objects.filter(starter=False).exclude(rarity="legendary")
    big = max(cards, key=lambda c: c.wardrobe.count())
    small = min(cards, key=lambda c: c.wardrobe.count())
    for card in (big, small):
        cache.clear()
        # Content versions, the card with its wardrobe, the combos, the attribute catalogue:
        # the ways up are checked in memory, however many there are.
        with django_assert_num_queries(4):
            response = client.get(f"/en/cards/{card.token}/paths/", HTTP_HX_REQUEST="true")
            assert response.status_code == 200
        with django_assert_num_queries(0):
            assert client.get(f"/en/cards/{card.token}/paths/", HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_unknown_token_is_a_translated_404(client, demo, lang):
    response = client.get(f"/{lang}/cards/99999999999/")
    assert response.status_code == 404
    assert (
        "Page not found" if lang == "en" else "Страница не найдена"
    ) in response.content.decode()
    assert client.get(f"/{lang}/cards/123456/").status_code == 404


def test_whatif_raising_the_rank_makes_it_legendary(client, demo):
    card = Card.objects.filter(rarity="common", starter=False).first()
    response = client.get(f"/en/cards/{card.token}/", {"rank": "3"})
    assert response.status_code == 200
    page = text(response)
    assert "What-if — nothing is saved." in page
    assert "The real card is Common; with these changes it would be Legendary." in page
    card.refresh_from_db()
    assert card.rarity == "common" and card.getgems_rank != 3  # nothing saved


def test_whatif_equipping_a_catalogue_attribute(client, demo):
    card = Card.objects.filter(rarity="common", starter=False).first()
    divine = Attribute.objects.filter(kind="god").first()
    response = client.get(f"/en/cards/{card.token}/", {divine.slot: divine.name})
    assert response.status_code == 200
    assert "with these changes it would be Legendary" in text(response)


def test_whatif_fragment_for_htmx(client, demo):
    card = Card.objects.filter(starter=False).first()
    response = client.get(
        f"/en/cards/{card.token}/", {"burned": "6"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    # One swap: the picture, the Equipped panel, the form and the breakdown together.
    assert html.lstrip().startswith('<div id="card"')
    assert "<html" not in html
    for part in ('<svg class="card-art"', 'class="equipped"', 'name="burned"', 'id="breakdown"'):
        assert part in html
    assert 'name="burned" type="number" min="0" max="999" inputmode="numeric" value="6"' in html
    assert "would be Legendary" in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"paw": "No Such Thing"}, "There is no paw attribute called “No Such Thing”."),
        ({"rank": "-4"}, "A GetGems rank is a whole number"),
        ({"rank": "abc"}, "A GetGems rank is a whole number"),
        ({"burned": "1e9"}, "Burned stickers is a whole number"),
    ],
)
def test_bad_whatif_is_a_400_with_the_reason(client, demo, params, message):
    card = Card.objects.filter(starter=False).first()
    response = client.get(f"/en/cards/{card.token}/", params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_bad_whatif_in_russian(client, demo):
    card = Card.objects.filter(starter=False).first()
    with translation.override("ru"):
        response = client.get(f"/ru/cards/{card.token}/", {"head": "Nope"})
    assert response.status_code == 400
    assert "Нет атрибута" in response.content.decode()


def test_every_suggested_whatif_reaches_its_target(client, demo):
    """The 'Try it' links are derived before they are offered: follow each one."""
    for card in Card.objects.filter(starter=False, rarity__in=["common", "rare", "epic"])[:15]:
        page = client.get(f"/en/cards/{card.token}/paths/").content.decode()
        section = page[page.index('id="next-title"') :]
        target = re.search(r"What would make it (\w+)\?", section).group(1)
        links = set(
            re.findall(
                rf'<a class="button button-secondary" href="/en/cards/{card.token}/\?([^"]+)"',
                section,
            )
        )
        assert links, card.token
        for query in links:
            follow = client.get(f"/en/cards/{card.token}/?{query.replace('&amp;', '&')}")
            assert follow.status_code == 200
            reached = re.search(r"it would be (\w+)\.", text(follow)).group(1)
            assert ORDER.index(reached) >= ORDER.index(target), (card.token, query, reached)


def test_the_card_page_loads_what_would_lift_it_on_its_own(client, demo):
    """Checking the ways up derives the card again for each: the page holds a placeholder
    that htmx fills as it scrolls into view, and that links to the answer without it."""
    card = Card.objects.filter(rarity="rare", starter=False).first()
    html = client.get(f"/en/cards/{card.token}/").content.decode()
    placeholder = html[html.index('<section id="card-paths"') :]
    placeholder = placeholder[: placeholder.index("</section>")]
    assert f'hx-get="/en/cards/{card.token}/paths/"' in placeholder
    assert 'hx-trigger="intersect once"' in placeholder
    # Crawlers are asked not to follow it: the answer is the card page's, worked out again.
    assert (
        f'<a id="card-paths-focus" href="/en/cards/{card.token}/paths/" rel="nofollow">'
        in placeholder
    )
    assert "What would make it Epic?" in placeholder
    assert "Try it" not in html  # no what-if is checked for the first view

    legendary = Card.objects.filter(rarity="legendary").first()
    html = client.get(f"/en/cards/{legendary.token}/").content.decode()
    assert 'id="card-paths"' not in html
    assert "Legendary is the highest rarity" in html


def test_a_whatif_asks_the_ways_up_of_the_card_it_shows(client, demo):
    card = Card.objects.filter(rarity="common", starter=False).first()
    html = client.get(f"/en/cards/{card.token}/", {"burned": "1"}, HTTP_HX_REQUEST="true")
    html = html.content.decode()
    assert f'hx-get="/en/cards/{card.token}/paths/?burned=1"' in html
    paths = client.get(f"/en/cards/{card.token}/paths/", {"burned": "1"})
    assert paths.status_code == 200
    assert "nothing is saved" in text(paths)
    assert f'href="/en/cards/{card.token}/?burned=1">Back to the what-if' in paths.content.decode()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_ways_up_as_a_swap_recompute_the_card_in_place(client, demo, lang):
    card = Card.objects.filter(rarity="common", starter=False).first()
    swap = client.get(f"/{lang}/cards/{card.token}/paths/", HTTP_HX_REQUEST="true")
    assert swap.status_code == 200
    fragment = swap.content.decode()
    assert "<html" not in fragment
    assert (
        fragment.count('hx-target="#card"') == fragment.count('class="button button-secondary"') > 0
    )
    assert swap["Vary"] and "HX-Request" in swap["Vary"]
    page = client.get(f"/{lang}/cards/{card.token}/paths/").content.decode()
    assert "<html" in page and 'hx-target="#card"' not in page  # no #card to swap there
    assert '<meta name="robots" content="noindex">' in page
    heading = "Что сделает её Rare?" if lang == "ru" else "What would make it Rare?"
    assert heading in fragment and heading in page


def test_the_ways_up_refuse_bad_input_in_the_visitors_language(client, demo):
    card = Card.objects.filter(rarity="common", starter=False).first()
    response = client.get(f"/ru/cards/{card.token}/paths/", {"burned": "²"})
    assert response.status_code == 400
    assert "Число сожжённых стикеров" in response.content.decode()
    assert client.get("/en/cards/999999999/paths/").status_code == 404


def test_search_help_lists_every_field(client):
    response = client.get("/ru/cards/help/")
    assert response.status_code == 200
    for field in ("rarity", "role", "skill", "active", "rank", "supply", "burned", "head"):
        assert f"<code>{field}</code>" in response.content.decode()


BAR = re.compile(
    r'<a class="bar-link" href="([^"]+)">\s*<span class="bar-label">([^<]+)</span>.*?'
    r'<span class="bar-value">(\d+) ',
    re.S,
)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_statistics_bar_counts_what_its_search_finds(client, demo, lang):
    html = client.get(f"/{lang}/cards/stats/").content.decode()
    bars = BAR.findall(html)
    assert len(bars) >= 21  # rarity 4, role 4, affinity 4, active 5, facts 5
    for href, name, number in bars:
        found = client.get(href.replace("&amp;", "&"))
        match = re.search(r"(\d+) (?:cards? found|карт)", text(found))
        assert match, (href, text(found)[:300])
        assert int(match.group(1)) == int(number), (name, href, number, match.group(0))


def test_statistics_count_the_catalogue_and_the_starters_apart(
    client, demo, django_assert_num_queries
):
    cache.clear()
    # Content versions; the bars on the card's own columns in one pass; the combos, then
    # the cards wearing one, a god attribute, a premium skin (each by its index); the
    # supply table; the rarest attributes, then the cards of the catalogue owning each
    # (one query for them all: what each one's owns= link finds).
    with django_assert_num_queries(9):
        response = client.get("/en/cards/stats/")
    page = text(response)
    assert response.status_code == 200
    starters = Card.objects.filter(starter=True).count()
    catalogue = Card.objects.filter(starter=False).count()
    assert f"count the {catalogue} cards of the main catalogue" in page
    assert f"The {starters} starter (Free) cards are counted apart" in page
    tanks = Card.objects.filter(role="tank", starter=False).count()
    assert re.search(rf"Tank\s*{tanks} ", page)
    assert "Аффинити скилла" in client.get("/ru/cards/stats/").content.decode()


def test_compare_two_cards_by_token_or_name_and_mark_what_differs(client, demo):
    a, b = Card.objects.filter(starter=False).order_by("token")[:2]
    response = client.get("/en/cards/compare/", {"a": a.token, "b": b.name.upper()})
    assert response.status_code == 200
    html = response.content.decode()
    assert a.name in html and b.name in html
    differing = re.findall(r'<tr class="differs">\s*<th scope="row">(.*?)</th>', html, re.S)
    assert differing  # two different cards differ somewhere (their equipment at least)
    assert "≠" in html and "differences, marked ≠" in html
    same = client.get("/en/cards/compare/", {"a": a.token, "b": a.token}).content.decode()
    assert 'class="differs"' not in same
    assert client.get("/en/cards/compare/").status_code == 200
    assert client.get("/en/cards/compare/", {"a": a.token}).status_code == 200  # half-filled


def test_compare_names_shared_by_several_cards_ask_for_the_token(client, demo):
    Card.objects.filter(token__in=[1, 2]).update(name="Twin")
    response = client.get("/en/cards/compare/", {"a": "twin", "b": "3"})
    assert response.status_code == 400
    assert "Several cards are called “twin”" in text(response) and "(#1)" in text(response)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"a": "no such card at all", "b": "1"}, "No card is called “no such card at all”"),
        ({"a": "1", "b": "987654"}, "There is no card #987654."),
        ({"a": "#x", "b": "1"}, "is not a card token"),
    ],
)
def test_compare_bad_tokens_are_400(client, demo, params, message):
    response = client.get("/en/cards/compare/", params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_common_card_also_learns_what_would_make_it_legendary(client, demo):
    card = Card.objects.filter(rarity="common", starter=False).first()
    html = client.get(f"/en/cards/{card.token}/paths/").content.decode()
    assert "What would make it Rare?" in html
    section = html[html.index('id="legendary-title"') :]
    links = re.findall(r'<a class="button button-secondary" href="([^"]+)"', section)
    assert links
    follow = client.get(links[0].replace("&amp;", "&"))
    assert "it would be Legendary." in text(follow)


# --- Request input through forms: digits int() refuses are form errors, never a 500 ---

UNICODE_DIGITS = ["²", "٣", "１", "①"]


@pytest.mark.parametrize("value", UNICODE_DIGITS)
def test_unicode_digits_in_a_search_are_not_a_server_error(client, demo, value):
    assert client.get("/en/cards/", {"q": value}).status_code == 200  # a name search
    response = client.get("/en/cards/", {"q": f"#{value}"})
    assert response.status_code == 400
    assert "digits 0–9" in text(response)
    assert client.get("/en/cards/", {"q": f"rank<={value}"}).status_code == 400
    assert client.get("/en/cards/", {"page": value}).status_code == 200  # the first page


@pytest.mark.parametrize("param", ["rank", "burned"])
def test_a_superscript_in_a_whatif_number_is_a_400(client, demo, param):
    card = Card.objects.filter(starter=False).first()
    response = client.get(f"/en/cards/{card.token}/", {param: "²"})
    assert response.status_code == 400
    assert "is a whole number from" in text(response)


@pytest.mark.parametrize(("param", "value"), [("burned", "١"), ("rank", "４"), ("rank", "#٣")])
def test_digits_of_other_scripts_in_a_whatif_are_a_400_not_a_number(client, demo, param, value):
    card = Card.objects.filter(starter=False).first()
    response = client.get(f"/en/cards/{card.token}/", {param: value})
    assert response.status_code == 400  # it read burned=١ as 1 and rank=４ as 4
    assert "is a whole number from" in text(response)


@pytest.mark.parametrize("value", ["#٤", "#４"])
def test_digits_of_other_scripts_in_compare_are_no_token(client, demo, value):
    response = client.get("/en/cards/compare/", {"a": value, "b": "1"})
    assert response.status_code == 400
    assert "is not a card token" in text(response)


def test_a_superscript_in_compare_is_a_400(client, demo):
    response = client.get("/en/cards/compare/", {"a": "#²", "b": "1"})
    assert response.status_code == 400
    assert "“#²” is not a card token" in text(response)
    # Without "#", "²" is read as a name, and no card is called so.
    assert client.get("/en/cards/compare/", {"a": "²", "b": "1"}).status_code == 400


# --- The what-if form shows what the address says ---------------------------------


def _selected(html: str, name: str) -> list[str]:
    select = re.search(rf'<select id="wi-{name}" name="{name}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)" selected>', select)


def test_the_whatif_form_shows_every_parameter_of_the_address(client, demo):
    card = Card.objects.filter(starter=False).select_related("paw", "head").first()
    paw = Attribute.objects.filter(slot="paw").exclude(owners=card).order_by("name").first()
    response = client.get(f"/en/cards/{card.token}/", {"paw": paw.name, "rank": "4"})
    assert response.status_code == 200
    html = response.content.decode()
    assert _selected(html, "paw") == [paw.name]
    assert _selected(html, "head") == [card.head.name]  # not in the address: the card's own
    assert 'name="rank" type="number" min="1" max="1000000" inputmode="numeric" value="4"' in html
    assert '<details class="whatif panel" open>' in html
    # The picture and the Equipped panel show the what-if's card too.
    equipped = html[html.index('class="equipped"') : html.index("</table>")]
    assert paw.name in equipped and card.paw.name not in equipped


def test_a_whatif_error_under_htmx_swaps_the_card_fragment(client, demo):
    card = Card.objects.filter(starter=False).exclude(getgems_rank=None).first()
    response = client.get(
        f"/en/cards/{card.token}/", {"rank": "abc", "burned": "3"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="card"') and "<html" not in html
    assert "A GetGems rank is a whole number" in html
    # The refused rank shows the card's own (sending the form again changes nothing that
    # was not asked); the valid burned count is kept.
    rank = re.search(r'<input id="wi-rank"[^>]*>', html).group(0)
    assert f'value="{card.getgems_rank}"' in rank and 'aria-invalid="true"' in rank
    assert re.search(r'<input id="wi-burned"[^>]*value="3"', html)


def test_the_catalogue_options_follow_the_collection(client, demo):
    card = Card.objects.filter(starter=False).first()
    url = f"/en/cards/{card.token}/"
    assert "Brand New Hat" not in client.get(url).content.decode()
    Attribute.objects.create(slot="head", name="Brand New Hat", supply=77)
    versions.bump("cards")  # what the services do after a write (issue 12 item 4: not all do)
    assert '<option value="Brand New Hat">Brand New Hat (77)</option>' in (
        client.get(url).content.decode()
    )


# --- HEAD is allowed wherever GET is -----------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/en/",
        "/en/cards/",
        "/en/cards/help/",
        "/en/cards/stats/",
        "/en/cards/compare/",
        "/api/cards",
    ],
)
def test_head_is_answered_like_get(client, demo, url):
    response = client.head(url)
    assert response.status_code == 200
    assert response.content == b""


def test_head_of_a_card_page_and_its_json(client, demo):
    card = Card.objects.first()
    assert client.head(f"/en/cards/{card.token}/").status_code == 200
    assert client.head(f"/api/cards/{card.token}").status_code == 200


def test_try_it_from_a_whatif_keeps_the_whatif_and_reaches_its_target(client, demo):
    """The ways up of a what-if are what-ifs of the real card with the what-if's changes
    kept, each checked on exactly what its link shows."""
    checked = 0
    for card in Card.objects.filter(starter=False, rarity="common")[:6]:
        page = client.get(f"/en/cards/{card.token}/paths/", {"rank": "999999"})
        section = page.content.decode()
        if 'id="next-title"' not in section:
            continue
        target = re.search(r"What would make it (\w+)\?", section).group(1)
        for href in set(re.findall(r'class="button button-secondary" href="([^"]+)"', section)):
            href = href.replace("&amp;", "&")
            if href == f"/en/cards/{card.token}/?rank=999999":
                continue  # "Back to the what-if"
            assert "rank=" in href, href  # the what-if's rank, or the way up's own
            reached = re.search(r"it would be (\w+)\.", text(client.get(href))).group(1)
            assert ORDER.index(reached) >= ORDER.index(target), (card.token, href, reached)
            checked += 1
    assert checked


@pytest.mark.parametrize(
    "path",
    [
        "/{lang}/cards/{token}/?rank=5&burned=1",  # the what-if: the card partial
        "/{lang}/cards/?q=atk%3E%3D8",  # the card list's results
        "/{lang}/wiki/search/?q=energy",  # the wiki search's results
    ],
)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_htmx_answer_is_the_fragment_its_page_shows(client, demo, settings, path, lang):
    """One template per page: the htmx answer is its partial, byte for byte the markup the
    full page holds (the page cache off, so both are rendered)."""
    settings.PAGE_CACHE_SECONDS = 0
    token = Card.objects.filter(starter=False).order_by("token").first().token
    url = path.format(lang=lang, token=token)
    page = client.get(url).content.decode()
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode().strip()
    assert len(fragment) > 200 and "<html" not in fragment
    assert fragment in page


def test_the_russian_card_page_writes_a_rank_one_way_and_decimals_with_a_comma(client, demo):
    card = Card.objects.filter(starter=False, getgems_rank__isnull=False).first()
    page = text(client.get(f"/ru/cards/{card.token}/"))
    assert f"№{card.getgems_rank}" in page and f"#{card.getgems_rank}" not in page
    assert not re.search(r"счёт [0-9 ]+\.[0-9]", page), "a score written with a point"
    other = Card.objects.filter(starter=False).exclude(pk=card.pk).first()
    compare = text(client.get("/ru/cards/compare/", {"a": card.token, "b": other.token}))
    assert f"№{card.getgems_rank}" in compare and not re.search(r"\b[0-9]+\.[0-9]\b", compare)
