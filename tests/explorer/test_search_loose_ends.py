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
