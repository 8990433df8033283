"""Any text typed into the search box gives a page, never a server error."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiki import search

from .conftest import make_page

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query", ["___", "_", "a_b", "🙂 🙂", "١٢٣", "ǅ", '"*"', "NOT", "-x", "a:b", "(", "ё"]
)
def test_odd_queries(client, query):
    make_page("energy", title_en="Energy", title_ru="Энергия")
    assert client.get("/ru/wiki/search/", {"q": query}).status_code == 200


def test_a_nul_byte_is_a_bad_request(client):
    """No text of the site can hold a NUL; the site refuses it before any search runs."""
    assert client.get("/ru/wiki/search/", {"q": "a\x00b"}).status_code == 400


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.text(max_size=40))
def test_random_queries_never_fail(db, query):
    search.search_pages(query)
    search.snippet("Редкость и energy — the five rarities.", search.query_terms(query))
