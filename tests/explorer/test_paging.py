"""Paging that does not grow (issue 32): bounded counts, Scryfall's list fields, signed
keyset cursors through every sort, and a clear 400 for a cursor that was tampered with,
has expired or belongs to another search."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from cards import paging, search
from cards.models import Card
from cards.query import SORTS
from cards.search import search_cards


@pytest.fixture
def small_limits(monkeypatch):
    """Counts exact up to 30 and pages by number 40 cards deep, so that the 200 cards of
    the demo collection are "more than" that."""
    from django.core.cache import cache

    cache.clear()  # counts and pages kept under the real limits by other tests
    monkeypatch.setattr(search, "MAX_EXACT_COUNT", 30)
    monkeypatch.setattr(paging, "MAX_EXACT_COUNT", 30)
    monkeypatch.setattr("codex_site.presenters.MAX_EXACT_COUNT", 30)
    monkeypatch.setattr(paging, "MAX_OFFSET", 40)
    yield
    cache.clear()  # and none kept under the small ones


def _walk(client, params: dict[str, str]) -> tuple[list[int], list[dict]]:
    """Every token the API's list gives, following next_page to the end."""
    tokens: list[int] = []
    answers = []
    data = client.get("/api/cards", params).json()
    while True:
        answers.append(data)
        tokens += [card["token"] for card in data["results"]]
        if not data["has_more"]:
            assert "next_page" not in data
            return tokens, answers
        data = client.get(data["next_page"]).json()


@pytest.mark.parametrize("sort", [f"{d}{key}" for key in SORTS for d in ("", "-")])
def test_next_page_walks_every_sort_in_order_to_the_end(client, demo, sort):
    expected = list(search_cards(f"sort:{sort}").values_list("token", flat=True))
    tokens, answers = _walk(client, {"q": f"sort:{sort}", "page_size": "7"})
    assert tokens == expected
    assert [a["page"] for a in answers] == list(range(1, len(answers) + 1))


def test_a_list_follows_scryfalls_fields_with_an_exact_count(client, demo):
    data = client.get("/api/cards", {"q": "r>=common", "page_size": "5"}).json()
    expected = Card.objects.filter(rarity_rank__gte=1, starter=False).count()
    assert data["has_more"] is True
    assert data["total_cards"] == data["count"] == expected
    assert "total_cards_over" not in data
    assert "cursor=" in data["next_page"] and data["next_page"].startswith("http")
    last = client.get("/api/cards", {"q": "r>=common", "page_size": "200"}).json()
    assert last["has_more"] is False and "next_page" not in last


def test_a_count_past_the_limit_is_absent_and_over(client, demo, small_limits):
    data = client.get("/api/cards", {"page_size": "5"}).json()
    assert data["total_cards_over"] is True
    assert "total_cards" not in data
    assert data["count"] == 30


def test_a_count_reads_at_most_the_limit_plus_one(demo, small_limits):
    query = search.parse("")
    with connection.execute_wrapper(_recorder := _Recorder()):
        search.search_count(query, search_cards(query))
    assert any("LIMIT 31" in sql for sql in _recorder.sql), _recorder.sql


class _Recorder:
    def __init__(self) -> None:
        self.sql: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        self.sql.append(sql)
        return execute(sql, params, many, context)


def test_a_page_by_number_past_the_depth_is_refused_with_the_way_on(client, demo, small_limits):
    response = client.get("/api/cards", {"page_size": "5", "page": "10"})
    assert response.status_code == 400
    assert response.json()["code"] == "page_too_deep"
    assert "next_page" in response.json()["details"]


def test_a_tampered_cursor_is_a_json_400(client, demo):
    data = client.get("/api/cards", {"page_size": "5"}).json()
    url = data["next_page"]
    response = client.get(url.replace("cursor=ey", "cursor=ez"))
    assert response.status_code == 400
    assert response.json()["code"] == "bad_cursor"
    response = client.get("/api/cards", {"cursor": "garbage"})
    assert response.status_code == 400 and response.json()["code"] == "bad_cursor"


def test_an_expired_cursor_is_a_json_400(client, demo, monkeypatch):
    url = client.get("/api/cards", {"page_size": "5"}).json()["next_page"]
    monkeypatch.setattr(paging, "CURSOR_MAX_AGE", -1)
    response = client.get(url)
    assert response.status_code == 400
    assert response.json()["code"] == "expired_cursor"


def test_a_cursor_of_another_search_is_refused(client, demo):
    url = client.get("/api/cards", {"page_size": "5"}).json()["next_page"]
    cursor = url.split("cursor=")[1].split("&")[0]
    response = client.get(f"/api/cards?q=sort%3Aatk&page_size=5&cursor={cursor}")
    assert response.status_code == 400
    assert response.json()["code"] == "cursor_mismatch"


def test_the_card_list_says_more_than_and_goes_on_by_cursor(client, demo, small_limits):
    first = client.get("/en/cards/", {"q": "sort:token", "display": "checklist"})
    assert "more than 10,000 cards found" not in first.content.decode()  # patched: 30
    assert "more than 30 cards found" in first.content.decode()
    # Checklist pages hold 60: page 1 is the last numbered one, its Next is a cursor.
    html = first.content.decode()
    assert "cursor=" in html
    start = html.index('href="?q=sort%3Atoken&amp;display=checklist&amp;cursor=')
    link = html[start + 6 : html.index('"', start + 6)].replace("&amp;", "&")
    second = client.get("/en/cards/" + link)
    assert second.status_code == 200
    expected = list(search_cards("sort:token").values_list("token", flat=True)[60:120])
    text = second.content.decode()
    assert f"/en/cards/{expected[0]}/" in text and f"/en/cards/{expected[-1]}/" in text
    assert "Page 2" in text


def test_the_card_list_refuses_a_tampered_cursor_with_a_400_page(client, demo):
    response = client.get("/ru/cards/", {"cursor": "nonsense"})
    assert response.status_code == 400
    assert "Начните поиск заново" in response.content.decode()


def test_the_card_list_counts_in_russian_past_the_limit(client, demo, small_limits):
    html = client.get("/ru/cards/").content.decode()
    assert "более 30" in html


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="SQLite's progress handler")
def test_a_search_past_its_time_budget_is_a_400_saying_how_to_narrow_it(client, demo, monkeypatch):
    monkeypatch.setattr(paging, "SEARCH_BUDGET_MS", -1000)  # every statement is over
    response = client.get("/api/cards", {"q": "atk>=1 sort:name", "page_size": "100"})
    assert response.status_code == 400
    assert response.json()["code"] == "search_too_broad"
    assert "r:epic" in response.json()["details"]
    page = client.get("/en/cards/", {"q": "atk>=1 sort:name"})
    assert page.status_code == 400
    assert "Narrow it" in page.content.decode()


def test_a_search_within_its_budget_answers(client, demo):
    assert client.get("/api/cards", {"q": "atk>=1 sort:name"}).status_code == 200


_SLOW = {
    "sqlite": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000000)"
    " SELECT count(*) FROM n",
    "postgresql": "SELECT pg_sleep(2)",
}


@pytest.mark.django_db
def test_the_budget_stops_a_slow_statement_on_either_database():
    with (
        pytest.raises(paging.SearchTooBroad),
        transaction.atomic(),  # the cancelled statement's rollback stays in here
        paging.search_budget(100),
        connection.cursor() as cursor,
    ):
        cursor.execute(_SLOW[connection.vendor])
    with connection.cursor() as cursor:  # and the connection works on, unbounded
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_header_search_says_more_than_past_the_limit(client, demo, small_limits):
    html = client.get("/en/search/", {"q": "-r:common sort:-hp"}).content.decode()
    assert "(more than 30)" in html
    assert "More than 30 cards in the card list" in html
