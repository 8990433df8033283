"""NUL bytes in a request are refused with a 400 before any view sees them.

PostgreSQL raises DataError for NUL in a text parameter (a 500), found by fuzzing the card
list and the deck builder's search on the PostgreSQL pass; core.middleware refuses them.
"""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/en/cards/?q=%00",
        "/ru/cards/?q=a%00b",
        "/en/play/?q=%00",
        "/en/wiki/search/?q=%00",
        "/api/cards?q=%00",
        "/en/?x%00=1",
        "/en/cards/%00/",
    ],
)
def test_nul_in_the_url_is_a_400_in_the_visitors_language(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert response.has_header("Content-Security-Policy")
    if url.startswith("/ru/"):
        assert '<html lang="ru">' in response.content.decode()


def test_nul_in_form_data_is_a_400(client):
    response = client.post("/en/play/", {"card": "1\x00"})
    assert response.status_code == 400


def test_ordinary_requests_pass(client):
    assert client.get("/en/cards/?q=r%3Alegendary").status_code == 200
