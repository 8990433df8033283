"""Very long input comes back shortened: a heading, a title or an error repeats at most
``core.forms.ECHO_CHARS`` characters of it, cut with "…" (a 3,000-character query made the
search heading 11,980 px wide and the team builder 31,025 px)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from core.forms import ECHO_CHARS, ChoiceField, MultipleChoiceField

pytestmark = pytest.mark.django_db

LONG = "x" * 3000


def longest_run(html: str) -> int:
    """The longest run of "x" the page shows outside form fields' values."""
    shown = re.sub(r'value="[^"]*"', "", html)
    shown = re.sub(r'href="[^"]*"|hx-get="[^"]*"|content="[^"]*"|action="[^"]*"', "", shown)
    return max((len(m) for m in re.findall(r"x+", shown)), default=0)


@pytest.mark.parametrize(
    ("path", "length"),
    [
        ("/en/search/", 3000),
        ("/ru/search/", 3000),
        ("/en/cards/", 3000),
        ("/en/wiki/search/", 3000),
        ("/en/play/", 450),  # its box takes at most 500 characters
    ],
)
def test_a_long_query_is_repeated_shortened(client, path, length):
    response = client.get(path, {"q": LONG[:length]})
    html = response.content.decode()
    assert longest_run(html) < ECHO_CHARS, path
    assert "x…" in html, path


def test_the_search_heading_shows_the_start_of_a_long_query(client):
    html = client.get("/en/search/", {"q": LONG}).content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)
    assert heading == "Search: “" + "x" * (ECHO_CHARS - 1) + "…”"
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "x" * ECHO_CHARS not in title


def test_the_team_builder_refuses_a_long_slab_id_without_repeating_it(client):
    response = client.get(reverse("arena:team"), {"slab": LONG})
    html = response.content.decode()
    assert response.status_code == 400
    assert "is not one of the choices offered here" in html
    assert "Select a valid choice" not in html
    assert longest_run(html) < ECHO_CHARS


@pytest.mark.parametrize("field", [ChoiceField, MultipleChoiceField])
def test_choice_fields_say_a_refusal_with_the_value_shortened(field):
    value = [LONG] if field is MultipleChoiceField else LONG
    with pytest.raises(Exception) as refused:
        field(choices=[("a", "A")]).clean(value)
    (message,) = refused.value.messages
    assert message == "“" + "x" * (ECHO_CHARS - 1) + "…” is not one of the choices offered here."
