"""Browsing: the list's displays and sort controls, the advanced search, the header search,
the home page, random cards, pictures, the card page's links — and their query counts."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache

from cards.models import Card
from cards.query import parse
from cards.search import search_cards

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def found_count(response) -> int:
    match = re.search(r"(\d+) cards? found", text(response))
    assert match, text(response)[:400]
    return int(match.group(1))


def tokens_on(response) -> list[int]:
    html = response.content.decode()
    return [int(t) for t in re.findall(r'href="/en/cards/(\d+)/"', html)]


# --- the list ------------------------------------------------------------------------


@pytest.mark.parametrize("display", ["grid", "checklist", "text"])
def test_each_display_shows_the_same_cards(client, demo, display):
    response = client.get("/en/cards/", {"q": "r:legendary sort:token", "display": display})
    assert response.status_code == 200
    expected = list(
        Card.objects.filter(rarity="legendary", starter=False)
        .order_by("token")
        .values_list("token", flat=True)
    )
    shown = list(dict.fromkeys(tokens_on(response)))
    assert shown == expected[: len(shown)] and shown
    html = response.content.decode()
    assert f'aria-current="true">{display.capitalize()}<' in html
    if display == "grid":
        assert 'class="card-tile-art" src="/en/cards/' in html
        assert "★ marks an active skill" in html  # the legend
    if display == "checklist":
        assert '<table class="checklist">' in html


def test_a_bad_display_shows_the_grid(client, demo):
    assert client.get("/en/cards/", {"display": "carousel"}).status_code == 200


@pytest.mark.parametrize("number", ["99999999999999999999", "²", "١٢", "-1", "0", "2.5"])
def test_a_page_number_that_is_not_one_shows_the_first_page(client, demo, number):
    response = client.get("/en/cards/", {"q": "r:legendary", "page": number})
    assert response.status_code == 200
    assert response.context["page"].number == 1


def test_a_page_past_the_end_shows_the_last(client, demo):
    response = client.get("/en/cards/", {"q": "r:legendary", "page": "999999999999"})
    assert response.status_code == 200
    assert response.context["page"].number == response.context["page"].paginator.num_pages > 1


def test_the_sort_controls_write_the_query(client, demo):
    response = client.get("/en/cards/", {"q": "r:epic sort:name", "sort": "atk", "dir": "asc"})
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert parse_qs(target.query) == {"q": ["r:epic sort:atk"]}
    default = client.get("/en/cards/", {"q": "r:epic", "sort": "rarity", "dir": "desc"})
    assert parse_qs(urlsplit(default["Location"]).query) == {"q": ["r:epic"]}
    checklist = client.get("/en/cards/", {"q": "", "sort": "hp", "dir": "desc", "display": "text"})
    assert parse_qs(urlsplit(checklist["Location"]).query) == {
        "q": ["sort:-hp"],
        "display": ["text"],
    }


def test_the_sort_controls_under_htmx_answer_at_once_with_the_address(client, demo):
    response = client.get(
        "/en/cards/", {"q": "r:epic", "sort": "token", "dir": "asc"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"] == "/en/cards/?q=r%3Aepic+sort%3Atoken"
    assert response.content.decode().lstrip().startswith('<section id="results"')
    tokens = tokens_on(response)
    assert tokens == sorted(tokens)


def test_a_refused_search_points_at_the_faulty_characters(client, demo):
    response = client.get("/en/cards/", {"q": "r:epic or or r:rare"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "<code>r:epic <mark>or</mark> or r:rare</code>" in html
    assert "(at character 8)" in html


def test_paging_keeps_the_display(client, demo):
    html = client.get("/en/cards/", {"q": "sort:token", "display": "text"}).content.decode()
    assert "?q=sort%3Atoken&amp;display=text&amp;page=2" in html


@pytest.mark.parametrize(
    ("params", "most"),
    [
        ({"q": "r>=rare sort:-atk"}, 4),
        ({"q": "Mitten or crown -is:combo", "display": "checklist"}, 5),
        ({"q": "(r:epic or r:legendary) is:god", "display": "text"}, 4),
        ({"q": "is:combo"}, 5),  # the combos, once
    ],
)
def test_list_query_count_does_not_grow_with_the_page(
    client, demo, django_assert_max_num_queries, params, most
):
    # Content versions, count, one page of ids, those cards with their attributes.
    cache.clear()
    with django_assert_max_num_queries(most):
        assert client.get("/en/cards/", params).status_code == 200
    with django_assert_max_num_queries(0):  # served from the page cache
        client.get("/en/cards/", params)


# --- the advanced search -----------------------------------------------------------------


def test_the_advanced_form_writes_the_query_and_redirects_to_the_list(client, demo):
    response = client.get(
        "/en/cards/advanced/",
        {
            "rarity": ["epic", "legendary"],
            "role": ["tank"],
            "attribute": "qx mitten",
            "slot": "paw",
            "atk_min": "8",
            "rank_max": "500",
            "is_combo": "no",
            "has_rank": "yes",
            "order": "atk",
            "direction": "desc",
        },
    )
    assert response.status_code == 302
    q = parse_qs(urlsplit(response["Location"]).query)["q"][0]
    assert q == (
        'paw:"qx mitten" (r:epic or r:legendary) role:tank atk>=8 rank<=500 has:rank '
        "not:combo sort:-atk"
    )
    parse(q)  # the language reads what the form writes
    assert client.get(response["Location"]).status_code == 200


def test_the_advanced_form_includes_starters_when_asked(client, demo):
    response = client.get("/en/cards/advanced/", {"starter": "include", "order": "rarity"})
    q = parse_qs(urlsplit(response["Location"]).query)["q"][0]
    assert search_cards(q).count() == Card.objects.count()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_advanced_form_explains_bad_numbers(client, demo, lang):
    response = client.get(f"/{lang}/cards/advanced/", {"atk_min": "²", "hp_max": "-3"})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    blank = client.get(f"/{lang}/cards/advanced/")
    assert blank.status_code == 200 and 'name="rarity"' in blank.content.decode()


def test_an_empty_advanced_form_lists_everything(client, demo):
    response = client.get("/en/cards/advanced/", {"name": "", "order": "rarity"})
    assert response["Location"] == "/en/cards/"


# --- the header search ---------------------------------------------------------------


def test_the_header_search_is_on_every_page(client, demo):
    for path in ("/en/", "/en/cards/", "/en/wiki/", "/ru/cards/stats/", "/en/play/"):
        html = client.get(path).content.decode()
        assert '<form class="site-search" role="search" method="get" action="/' in html, path


@pytest.fixture
def wiki(db):
    from django.core.management import call_command

    call_command("load_wiki", verbosity=0)


def test_a_card_query_shows_cards_first(client, demo, wiki):
    response = client.get("/en/search/", {"q": "r:legendary"})
    html = response.content.decode()
    assert html.index('id="found-cards"') < html.index('id="found-pages"')
    legendary = Card.objects.filter(rarity="legendary", starter=False).count()
    assert f'Cards <span class="count">({legendary})</span>' in html


def test_plain_words_show_wiki_pages_first(client, demo, wiki):
    response = client.get("/en/search/", {"q": "energy"})
    html = response.content.decode()
    assert html.index('id="found-pages"') < html.index('id="found-cards"')
    assert 'href="/en/wiki/' in html


def test_the_header_search_explains_a_refused_card_query_and_still_finds_pages(client, demo, wiki):
    response = client.get("/ru/search/", {"q": "rarity or or"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<mark>or</mark>" in html
    assert 'id="found-pages"' in html


@pytest.mark.parametrize("q", ["", " ", "²", "x" * 600, "(((", "-", '"', "🦊"])
def test_the_header_search_takes_anything(client, demo, wiki, q):
    assert client.get("/en/search/", {"q": q}).status_code == 200


# --- home, random, picture ----------------------------------------------------------------


def test_home_leads_with_the_search_a_random_card_and_featured_cards(
    client, demo, django_assert_max_num_queries
):
    cache.clear()
    with django_assert_max_num_queries(7):
        response = client.get("/en/")
    html = response.content.decode()
    assert 'id="home-q"' in html and 'href="/en/cards/random/"' in html
    newest = Card.objects.filter(rarity="legendary", starter=False).order_by("-token").first().token
    rarest = Card.objects.filter(starter=False).order_by("-wardrobe_score", "token").first().token
    featured = html[html.index('id="rarest-title"') :]
    assert f'href="/en/cards/{rarest}/"' in featured
    assert f'href="/en/cards/{newest}/"' in featured[featured.index('id="newest-title"') :]


def test_a_random_card_redirects_and_is_never_cached(client, demo):
    response = client.get("/en/cards/random/")
    assert response.status_code == 302
    assert re.fullmatch(r"/en/cards/\d+/", response["Location"])
    assert "no-store" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    within = client.get("/en/cards/random/", {"q": "r:legendary"})
    token = int(within["Location"].strip("/").split("/")[-1])
    assert Card.objects.get(token=token).rarity == "legendary"


def test_a_random_card_with_nothing_to_pick_says_so(client, demo):
    response = client.get("/en/cards/random/", {"q": "r:legendary r:common"})
    assert response.status_code == 200
    assert "so there is none to pick" in text(response)
    assert client.get("/en/cards/random/", {"q": "(("}).status_code == 400


def test_a_cards_picture_is_an_svg_file(client, demo):
    card = Card.objects.first()
    response = client.get(f"/en/cards/{card.token}/picture.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert response.content.decode().startswith("<svg")
    assert response["ETag"]
    assert client.get("/en/cards/99999/picture.svg").status_code == 404


# --- the card page's links ------------------------------------------------------------------


def test_the_card_page_links_neighbours_random_json_compare_and_each_attribute(client, demo):
    tokens = list(Card.objects.order_by("token").values_list("token", flat=True))
    card = Card.objects.select_related("paw").get(token=tokens[1])
    html = client.get(f"/en/cards/{card.token}/").content.decode()
    assert f'href="/en/cards/{tokens[0]}/" rel="prev"' in html
    assert f'href="/en/cards/{tokens[2]}/" rel="next"' in html
    assert 'href="/en/cards/random/"' in html
    assert f'href="/api/cards/{card.token}"' in html
    assert f'href="/en/cards/compare/?a={card.token}"' in html
    links = re.findall(r'<a href="(/en/cards/\?q=[^"]+)">the cards wearing it</a>', html)
    assert len(links) == 4
    paw_link = next(link for link in links if "paw%3D" in link)
    listed = client.get(paw_link.replace("&amp;", "&"))
    equipping = Card.objects.filter(paw=card.paw, starter=False).count()
    assert found_count(listed) == equipping
    first = Card.objects.order_by("token").first()
    assert 'rel="prev"' not in client.get(f"/en/cards/{first.token}/").content.decode()


def test_the_header_search_and_the_api_query_counts(
    client, demo, wiki, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/en/search/", {"q": "r:legendary or Mitten"}).status_code == 200
    cards = [q for q in queries if '"cards_card"' in q["sql"]]
    # The card count, one page of ids, those cards; the rest is the versions and the
    # wiki's own search (every word, then any word; PostgreSQL asks per language; then
    # which hits hold the words in their titles and headings, for the ranking).
    assert len(cards) == 3, [q["sql"][:80] for q in cards]
    assert len(queries) <= (8 if connection.vendor == "sqlite" else 11)
    # The count, one page of ids, those cards' rows (with their attributes' names).
    with django_assert_max_num_queries(3):
        assert client.get("/api/cards", {"q": "r:epic or r:legendary"}).status_code == 200
    # The combos, the count, a row.
    with django_assert_max_num_queries(3):
        assert client.get("/en/cards/random/", {"q": "is:combo"}).status_code == 302


@pytest.mark.parametrize(("lang", "message"), [("en", "Enter a number."), ("ru", "Введите число.")])
@pytest.mark.parametrize("value", ["٤", "４", "１.５", "١٫٥", "1e3"])
def test_the_advanced_forms_decimal_reads_ascii_digits_only(client, demo, lang, value, message):
    """Django's ``DecimalField`` read "٤" as 4 and "１.５" as 1.5: the wardrobe score follows
    the one policy for numbers (core.forms.AsciiDecimalField), a form error in both
    languages."""
    response = client.get(f"/{lang}/cards/advanced/", {"score_min": value})
    assert response.status_code == 400
    assert message in response.content.decode()
    good = client.get(f"/{lang}/cards/advanced/", {"score_min": "1.5"})
    assert good.status_code == 302
