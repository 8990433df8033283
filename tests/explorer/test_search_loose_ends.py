"""Issues 29 and 30's loose ends: the header search says what it ignored, the search help
names every predicate, the card list offers its Atom feed, the advanced search builds the
new predicates."""

import re

import pytest

from cards.models import Card

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def wiki(db):
    from django.core.management import call_command

    call_command("load_wiki", verbosity=0)


# --- 1. the header search and a query it cannot read ---------------------------------


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Nothing in this search could be read, so it finds no card."),
        ("ru", "В этом поиске нечего прочесть, поэтому он не находит ни одной карты."),
    ],
)
def test_the_header_search_finds_no_card_when_every_word_was_ignored(
    client, demo, wiki, lang, said
):
    assert Card.objects.exists()
    response = client.get(f"/{lang}/search/", {"q": "???"})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<span class="count">(0)</span>' in html
    assert not re.search(rf'href="/{lang}/cards/\d+/"', html)
    page = text(response)
    assert "???" in page and said in page
    assert html.count('class="notice notice-warning"') == 2  # the ignored word, and the sum


def test_the_header_search_says_a_word_it_ignored_beside_the_cards_it_found(client, demo, wiki):
    response = client.get("/en/search/", {"q": "r:legendary ???"})
    html = response.content.decode()
    legendary = Card.objects.filter(rarity="legendary", starter=False).count()
    assert f'<span class="count">({legendary})</span>' in html
    assert "has no letter or digit, so the search ignored it." in text(response)
    assert "so it finds no card" not in text(response)


# --- 2. the search help names every part of the language -----------------------------


def _language_keys() -> list[str]:
    """Every name the query language reads before a ``:`` or an operator, as written."""
    from cards.query import FACTS, FIELD_BY_NAME, HAS_FACTS

    keys = list(FIELD_BY_NAME)
    keys += [f"is:{n}" for key, aliases in FACTS.items() for n in (key, *aliases)]
    keys.append("not:")  # the opposite of any is: fact
    keys += [f"has:{n}" for key, aliases in HAS_FACTS.items() for n in (key, *aliases)]
    return [*keys, "sort", "order", "as:YYYY-MM-DD"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_search_help_names_every_key_of_the_language(client, lang):
    from cards.query import SORTS

    html = client.get(f"/{lang}/cards/help/").content.decode()
    missing = [
        key
        for key in _language_keys()
        if not re.search(rf"<code>-?{re.escape(key)}(?=[<:=!&\s])", html)
    ]
    assert not missing, missing
    sort_row = re.search(r"<code>sort</code>.*?</tr>", html, re.S).group(0)
    assert [key for key in SORTS if not re.search(rf"\b{key}\b", sort_row)] == []


def test_the_search_help_explains_as_of_with_an_example_that_works(client, demo):
    html = client.get("/en/cards/help/").content.decode()
    section = html[html.index('id="as-of"') :]
    assert "as it was on that day" in section
    example = re.search(r"<code>(as:\d{4}-\d\d-\d\d [^<]+)</code>", section).group(1)
    assert client.get("/en/cards/", {"q": example}).status_code == 200


# --- 3. the card list offers its search as a feed ------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Follow this search (Atom)"), ("ru", "Следить за поиском (Atom)")]
)
def test_the_card_list_offers_its_search_as_an_atom_feed(client, demo, lang, said):
    response = client.get(f"/{lang}/cards/", {"q": 'r:legendary "qx mitten"'})
    html = response.content.decode()
    feed = f"/{lang}/changes/search.atom?q=r%3Alegendary+%22qx+mitten%22"
    head = html[: html.index("</head>")]
    assert re.search(
        rf'<link rel="alternate" type="application/atom\+xml" title="[^"<]*&quot;qx mitten&quot;'
        rf'[^"<]*" href="{re.escape(feed)}">',
        head,
    ), head
    link = re.search(rf'<a href="{re.escape(feed)}"[^>]*>([^<]+)</a>', html)
    assert link and link.group(1) == said
    answer = client.get(feed)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/atom+xml")


def test_the_unfiltered_card_list_has_no_search_to_follow(client, demo):
    html = client.get("/en/cards/").content.decode()
    assert "search.atom" not in html


# --- 4. the advanced search writes the new predicates --------------------------------


def _written(response) -> str:
    from urllib.parse import parse_qs, urlsplit

    assert response.status_code == 302, response.content.decode()[:400]
    return parse_qs(urlsplit(response["Location"]).query)["q"][0]


def test_the_advanced_form_writes_the_engines_predicates(client, demo):
    from cards.query import parse
    from cards.search import search_cards

    response = client.get(
        "/en/cards/advanced/",
        {
            "owns": "qx mitten",
            "decided": ["supply_count", "getgems_rank"],
            "near": "epic",
            "effect": "burn",
            "is_fragile": "yes",
            "as_of": "2026-11-01",
            "order": "atk",
        },
    )
    q = _written(response)
    assert q == (
        'owns:"qx mitten" (decided:supply_count or decided:getgems_rank) near:epic '
        "effect:burn is:fragile as:2026-11-01 sort:-atk"
    )
    parse(q)  # the language reads what the form writes
    assert client.get(response["Location"]).status_code == 200
    one = _written(client.get("/en/cards/advanced/", {"decided": ["combo"], "is_fragile": "no"}))
    assert one == "decided:combo not:fragile"
    assert search_cards(one).count() == search_cards("decided:combo -is:fragile").count()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_advanced_form_offers_the_new_predicates(client, demo, lang):
    html = client.get(f"/{lang}/cards/advanced/").content.decode()
    for name in ("owns", "decided", "near", "effect", "is_fragile", "as_of"):
        assert f'name="{name}"' in html, name
    assert 'type="date"' in html
    assert 'value="supply_count"' in html and 'value="burn"' in html


@pytest.mark.parametrize(
    ("value", "said"),
    [("2999-01-01", "is in the future"), ("01.11.2026", "is not a date"), ("x", "is not a date")],
)
def test_the_advanced_form_refuses_a_bad_day(client, demo, value, said):
    response = client.get("/en/cards/advanced/", {"as_of": value})
    assert response.status_code == 400
    assert said in text(response)


def test_the_advanced_form_refuses_an_unknown_rule(client, demo):
    response = client.get("/en/cards/advanced/", {"decided": ["nonsense"], "near": "free"})
    assert response.status_code == 400
