"""as:YYYY-MM-DD: the collection searched as it was on a day."""

from __future__ import annotations

import datetime
import json

import pytest

from cards.market import import_market
from cards.query import QueryError, parse
from cards.search import search_cards

from .conftest import make_card

TODAY = datetime.date.today()


def day(n: int) -> str:
    return (TODAY - datetime.timedelta(days=n)).isoformat()


def tokens(text: str) -> list[int]:
    return list(search_cards(text).values_list("token", flat=True))


@pytest.fixture
def cards(catalogue):
    legend = make_card(
        42,
        head=catalogue["crown"],
        body=catalogue["armor"],
        paw=catalogue["axe"],
        background=catalogue["sky"],
    )
    plain = make_card(43, getgems_rank=300)
    return legend, plain


def test_as_of_a_day_finds_the_cards_as_they_were(cards):
    import_market(json.dumps([{"date": day(5), "slot": "paw", "attribute": "Axe", "supply": 4}]))
    import_market(json.dumps([{"date": day(2), "card": 43, "getgems_rank": 3}]))
    assert tokens("r:legendary") == [43]
    assert tokens(f"r:legendary as:{day(1)}") == [43]
    assert tokens(f"r:legendary as:{day(3)}") == []
    assert tokens(f"r:legendary as:{day(6)}") == [42]
    assert tokens(f"r:epic as:{day(6)}") == []
    assert tokens(f"rank<=5 as:{day(3)}") == []
    assert tokens(f"rank=300 as:{day(3)}") == [43]
    assert tokens(f"paw_supply<=3 as:{day(6)}") == [42]
    assert tokens(f"paw_supply<=3 as:{day(4)}") == []
    # Terms time does not change are the database's: the name, the attributes worn.
    assert tokens(f"paw:axe r:legendary as:{day(6)}") == [42]
    assert tokens(f"-paw:axe r:legendary as:{day(6)}") == []
    assert tokens(f"as:{TODAY.isoformat()} r:legendary") == [43]


def test_the_count_of_a_search_as_of_a_day_is_its_own(cards):
    from cards.search import search_count

    import_market(json.dumps([{"date": day(5), "slot": "paw", "attribute": "Axe", "supply": 4}]))
    now, then = parse("r:legendary"), parse(f"r:legendary as:{day(6)}")
    assert search_count(now, search_cards(now)) == 0
    assert search_count(then, search_cards(then)) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("as:2026-13-01", "not a date"),
        ("as:yesterday", "not a date"),
        ("as:2999-01-01", "future"),
        ("-as:2020-01-01", "whole search"),
        ("(r:epic as:2020-01-01)", "whole search"),
    ],
)
def test_a_bad_day_is_a_query_error(text, words):
    with pytest.raises(QueryError) as refused:
        parse(text)
    assert refused.value.code == "bad_as"
    assert words in refused.value.message
