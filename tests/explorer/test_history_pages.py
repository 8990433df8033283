"""A card's history on the site: the timeline page, ?as=, the changes page and its feeds,
and the API's history and fingerprint."""

from __future__ import annotations

import datetime
import hashlib
import json

import pytest

from cards.market import import_market
from cards.models import Attribute, Card
from cards.specs import combo_specs
from engine.data import RULES_VERSION

TODAY = datetime.date.today()


def day(n: int) -> str:
    return (TODAY - datetime.timedelta(days=n)).isoformat()


def _attr(slot: str, name: str, supply: int) -> Attribute:
    return Attribute.objects.create(slot=slot, name=name, supply=supply)


@pytest.fixture
def legend(db):
    """Legendary by supply count until its paw's supply rises on day -5."""
    card = Card.objects.create(
        token=4242,
        name="Pup #4242",
        head=_attr("head", "Hx Crown", 3),
        body=_attr("body", "Hx Armor", 2),
        paw=_attr("paw", "Hx Axe", 3),
        background=_attr("background", "Hx Sky", 800),
    )
    import_market(json.dumps([{"date": day(5), "slot": "paw", "attribute": "Hx Axe", "supply": 4}]))
    card.refresh_from_db()
    assert card.rarity == "epic"
    return card


def test_the_timeline_page_says_what_changed_and_why(client, legend):
    response = client.get("/en/cards/4242/history/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "History of Pup #4242" in html
    assert "Legendary" in html and "Epic" in html
    assert "Market: supply of Hx Axe (paw) 3 → 4" in html
    assert f'datetime="{day(5)}"' in html


def test_the_timeline_in_russian(client, legend):
    html = client.get("/ru/cards/4242/history/").content.decode()
    assert "История" in html
    assert "Legendary" in html
    assert "Рынок: тираж Hx Axe" in html


def test_an_unknown_card_has_no_history(client, db):
    assert client.get("/en/cards/77777/history/").status_code == 404
    response = client.get("/api/cards/77777/history")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_api_history_is_the_issue_shape(client, legend):
    data = client.get("/api/cards/4242/history").json()
    assert data["token"] == 4242
    rarity = next(c for c in data["changes"] if c["field"] == "rarity")
    assert rarity == {
        "date": day(5),
        "field": "rarity",
        "before": "legendary",
        "after": "epic",
        "causes": [
            {
                "kind": "market",
                "what": "supply",
                "slot": "paw",
                "attribute": "Hx Axe",
                "before": 3,
                "after": 4,
            }
        ],
    }


def test_the_card_as_of_a_day_before_the_change(client, legend):
    html = client.get(f"/en/cards/4242/?as={day(6)}").content.decode()
    assert "as-of-banner" in html
    assert "rarity-bg-legendary" in html
    assert '<meta name="robots" content="noindex">' in html  # a past day is not the card
    now = client.get("/en/cards/4242/").content.decode()
    assert "as-of-banner" not in now and "rarity-bg-epic" in now
    data = client.get(f"/api/cards/4242?as={day(6)}").json()
    assert data["rarity"] == "legendary" and data["as_of"] == day(6)
    assert data["equipped"]["paw"]["supply"] == 3
    assert client.get("/api/cards/4242").json()["rarity"] == "epic"


@pytest.mark.parametrize("value", ["2026-02-30", "tomorrow", "2999-01-01", "20260101", "x" * 300])
def test_a_bad_day_is_a_400_never_a_500(client, legend, value):
    response = client.get("/en/cards/4242/", {"as": value})
    assert response.status_code == 400
    assert "YYYY-MM-DD" in response.content.decode() or "future" in response.content.decode()
    api = client.get("/api/cards/4242", {"as": value})
    assert api.status_code == 400 and api.json()["code"] == "bad_date"
    assert client.get("/ru/cards/4242/", {"as": value}).status_code == 400


def test_the_fingerprint_is_on_the_page_and_in_the_api(client, legend):
    data = client.get("/api/cards/4242").json()
    assert data["rules_version"] == RULES_VERSION
    digest = data["inputs_sha256"]
    assert len(digest) == 64
    assert digest in client.get("/en/cards/4242/").content.decode()
    # The canonical JSON of the inputs the answer itself lists, with the rules version.
    inputs = {
        "card": {
            "token": 4242,
            "name": "Pup #4242",
            "starter": False,
            "equipped": data["equipped"],
            "wardrobe": data["wardrobe"],
            "getgems_rank": None,
            "burned_stickers": 0,
            "combos": [
                {
                    "name": c.name,
                    "attributes": [[slot.value, name] for slot, name in c.attributes],
                    "rarity": c.rarity.value,
                }
                for c in combo_specs()  # English names, whatever the page's language
            ],
        },
        "rules_version": RULES_VERSION,
    }
    text = json.dumps(inputs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(text.encode()).hexdigest() == digest
    assert client.get(f"/api/cards/4242?as={day(6)}").json()["inputs_sha256"] != digest


def test_the_changes_page_lists_tier_changes_first(client, legend):
    html = client.get("/en/changes/").content.decode()
    assert "Pup #4242" in html
    first_row = html.index("<tbody>")
    assert html.index("tier-change", first_row) < html.index("Stats", first_row)
    assert client.get("/en/changes/?page=abc").status_code == 200
    assert client.get("/en/changes/?page=99999999999999999999").status_code == 200
    assert client.get("/ru/changes/").status_code == 200


def test_the_changes_feed_is_atom(client, legend):
    response = client.get("/en/changes/feed.atom")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    body = response.content.decode()
    assert "<feed" in body and "Pup #4242" in body and "Hx Axe" in body


def test_a_search_feed_lists_cards_leaving_it_with_the_cause(client, legend):
    body = client.get("/en/changes/search.atom", {"q": "r:legendary"}).content.decode()
    assert "Pup #4242 left the search" in body
    assert "Market: supply of Hx Axe" in body
    entering = client.get("/en/changes/search.atom", {"q": "r:epic"}).content.decode()
    assert "Pup #4242 entered the search" in entering
    assert client.get("/en/changes/search.atom", {"q": "r:"}).status_code == 400
