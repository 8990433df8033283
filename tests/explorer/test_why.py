"""Why this result, why not that card (the results page's panel, its page, the API), the
warnings of a search, and the statistics page's links that find what it counts."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from cards.explain import leaves
from cards.models import Card
from cards.query import And, Node, Not, Or, parse
from cards.search import search_cards
from cards.specs import card_spec
from engine.card.derive import derive
from explorer.selectors import attribute_catalogue
from explorer.whatif import WhatIf, apply

pytestmark = pytest.mark.django_db


def combine(node: Node | None, flags: list[bool]) -> bool:
    if node is None:
        return True
    if isinstance(node, Not):
        return not combine(node.child, flags)
    if isinstance(node, And | Or):
        values = [combine(child, flags) for child in node.children]
        return all(values) if isinstance(node, And) else any(values)
    return flags.pop(0)


# ---------------------------------------------------------------------------
# The API


def test_explain_gives_each_card_one_entry_per_leaf_that_combine_to_true(client, demo):
    text = "(r:legendary or r:epic) -is:combo not:god decided:getgems or owns:crown"
    response = client.get("/api/cards", {"q": text, "explain": "1", "page_size": 50})
    assert response.status_code == 200, response.content[:300]
    data = response.json()
    query = parse(text)
    assert data["results"]
    for card in data["results"]:
        explained = card["explain"]
        assert [set(e) for e in explained] == [{"clause", "ok", "value"}] * len(explained)
        assert len(explained) == len(list(leaves(query.root)))
        assert combine(query.root, [e["ok"] for e in explained]), card["token"]
    first = data["results"][0]["explain"]
    assert [e["clause"] for e in first] == [
        "r:legendary",
        "r:epic",
        "is:combo",
        "is:god",
        "decided:getgems",
        "owns:crown",
    ]
    assert first[0]["value"] == data["results"][0]["rarity"]


def test_without_explain_the_cards_carry_none_and_warnings_are_said(client, demo):
    data = client.get("/api/cards", {"q": "r:epic ? sort:name sort:-atk"}).json()
    assert "explain" not in data["results"][0]
    assert [w["code"] for w in data["warnings"]] == ["ignored_word", "ignored_sort"]
    assert data["warnings"][0]["position"] == 7 and data["warnings"][0]["message"]
    assert client.get("/api/cards", {"q": "r:epic"}).json()["warnings"] == []


def test_a_bad_explain_flag_is_a_json_error(client, demo):
    response = client.get("/api/cards", {"q": "r:epic", "explain": "maybe"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_choice"


def _not_legendary_with_a_way(client) -> tuple[Card, dict]:
    for card in Card.objects.filter(rarity="epic", starter=False).order_by("token"):
        data = client.get(f"/api/cards/{card.token}/explain", {"q": "r:legendary"}).json()
        if data["whatif"]:
            return card, data
    raise AssertionError("no epic card of the demo has a way to Legendary")


def test_why_not_names_the_failing_clause_and_a_whatif_that_matches(client, demo):
    card, data = _not_legendary_with_a_way(client)
    assert data["object"] == "explanation" and data["matched"] is False
    assert data["failed"] == [{"clause": "r:legendary", "ok": False, "value": "epic"}]
    url = urlsplit(data["whatif"]["url"])
    assert url.path == f"/en/cards/{card.token}/"  # the card page's what-if permalink
    params = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
    assert url.query == data["whatif"]["changes"]
    spec = card_spec(card.token)
    equip = {k: v for k, v in params.items() if k in ("head", "body", "paw", "background")}
    owned = {(a.slot.value, a.name) for a in spec.owned}
    assert all((slot, name) in owned for slot, name in equip.items())  # its own wardrobe
    whatif = WhatIf(
        equip,
        int(params["rank"]) if params.get("rank") else WhatIf().rank,
        int(params["burned"]) if "burned" in params else WhatIf().burned,
    )
    changed = apply(spec, whatif, attribute_catalogue())
    assert derive(changed).rarity.value == "legendary"
    page = client.get(url.path + "?" + url.query)
    assert page.status_code == 200


def test_why_says_a_match_and_a_starter_left_out(client, demo):
    legendary = Card.objects.filter(rarity="legendary").first()
    data = client.get(f"/api/cards/{legendary.token}/explain", {"q": "r:legendary"}).json()
    assert data["matched"] is True and data["failed"] == [] and data["whatif"] is None
    starter = Card.objects.filter(starter=True).first()
    data = client.get(f"/api/cards/{starter.token}/explain", {"q": "r:free"}).json()
    assert data["matched"] is True
    data = client.get(f"/api/cards/{starter.token}/explain", {"q": "role:" + starter.role}).json()
    assert data["matched"] is False and data["starter_left_out"] is True


def test_why_refuses_bad_input_as_json(client, demo):
    assert client.get("/api/cards/999999/explain", {"q": "r:epic"}).json()["code"] == "not_found"
    error = client.get("/api/cards/1/explain", {"q": "r:legendar"})
    assert error.status_code == 400 and error.json()["code"] == "bad_choice"
    assert "character 1" in error.json()["details"]


# ---------------------------------------------------------------------------
# The pages


def test_every_result_links_to_its_explanation_and_the_box_asks_of_any_card(client, demo):
    response = client.get("/en/cards/", {"q": "r:epic or is:combo"})
    html = response.content.decode()
    tokens = re.findall(r'class="why-link" href="/en/cards/why/\?q=[^"]*card=(\d+)"', html)
    assert tokens and len(tokens) == html.count('class="card-tile ')
    assert 'hx-target="#why-panel"' in html and 'name="card"' in html
    for display in ("checklist", "text"):
        html = client.get("/en/cards/", {"q": "r:epic", "display": display}).content.decode()
        assert "why-link" in html
    assert "why-link" not in client.get("/en/cards/").content.decode()  # no search, no why


def test_the_explanation_is_a_tree_of_checked_clauses_in_words(client, demo):
    card = Card.objects.filter(rarity="epic", starter=False).first()
    q = "r:legendary (mitten or -is:combo)"
    response = client.get("/en/cards/why/", {"q": q, "card": card.token})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "<html" in html  # without JavaScript, a page of its own
    assert "This search does not find this card." in html
    assert "<code>r:legendary</code> — Rarity is Legendary." in html
    assert "This card: rarity Epic, decided by" in html
    assert html.count("why-depth-") == 6  # and, r:, or, mitten, not, is:combo
    partial = client.get("/en/cards/why/", {"q": q, "card": card.token}, HTTP_HX_REQUEST="true")
    assert "<html" not in partial.content.decode() and "why-tree" in partial.content.decode()
    assert "HX-Request" in partial["Vary"]
    russian = unescape(client.get("/ru/cards/why/", {"q": q, "card": card.token}).content.decode())
    assert "Этот поиск не находит эту карту." in russian and "У этой карты:" in russian


def test_the_why_page_refuses_bad_input_with_a_400_in_the_visitors_language(client, demo):
    assert client.get("/en/cards/why/", {"q": "r:epic", "card": "999999"}).status_code == 400
    response = client.get("/ru/cards/why/", {"q": "r:legendar", "card": "1"})
    assert response.status_code == 400 and "Use one of" not in response.content.decode()
    assert client.get("/en/cards/why/").status_code == 200  # the empty form


def test_a_word_the_search_ignored_is_said_on_the_page(client, demo):
    html = unescape(client.get("/en/cards/", {"q": "r:epic ?"}).content.decode())
    assert "“?” has no letter or digit, so the search ignored it." in html
    russian = unescape(client.get("/ru/cards/", {"q": "r:epic ?"}).content.decode())
    assert "поиск это слово пропустил" in russian


def test_the_statistics_links_find_what_they_count(client, demo):
    """Each rare attribute's "Cards owning it" count is what its link finds (the wearing
    search found 0 for attributes owned but not worn), and so is each decided: bar."""
    html = client.get("/en/cards/stats/").content.decode()
    links = re.findall(r'<a href="/en/cards/\?q=([^"]+)">(\d+)</a></td></tr>', html)
    assert len(links) >= 10
    for encoded, shown in links:
        q = parse_qs(f"q={unescape(encoded)}")["q"][0]
        assert q.startswith("owns=")
        assert search_cards(q).count() == int(shown), q
    bars = re.findall(
        r'href="/en/cards/\?q=(decided%3A\w+)">.*?<span class="bar-value">(\d+)', html, re.S
    )
    assert len(bars) == 7
    for encoded, shown in bars:
        q = parse_qs(f"q={encoded}")["q"][0]
        assert search_cards(q).count() == int(shown), q


def test_a_why_not_spends_a_bounded_number_of_derivations(client, demo, monkeypatch):
    """A query nothing near can satisfy tries what-ifs until the budget is spent, then
    says none is within reach: the request stays bounded, as the search itself is."""
    from django.db.models import Count

    import explorer.why as why_module

    calls = []
    real = why_module.derive
    monkeypatch.setattr(why_module, "derive", lambda spec: calls.append(1) or real(spec))
    card = (
        Card.objects.filter(starter=False, rarity="common")
        .annotate(n=Count("wardrobe"))
        .order_by("-n")
        .first()
    )
    q = "r:legendary is:combo near:legendary rank<=5 burned>=3 -rank<=5"
    data = client.get(f"/api/cards/{card.token}/explain", {"q": q}).json()
    assert data["matched"] is False and data["whatif"] is None
    assert 0 < len(calls) <= why_module.MAX_TRIES
