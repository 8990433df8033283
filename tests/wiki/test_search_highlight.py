"""Results highlighted by the database: FTS5's highlight() on SQLite, ts_headline on
PostgreSQL (the PostgreSQL pass, scripts/ci-postgres.sh, runs these too)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from wiki import search, synonyms
from wiki.models import Page
from wiki.search import highlights

from .conftest import make_page

pytestmark = pytest.mark.django_db

SQLITE = pytest.mark.skipif(connection.vendor != "sqlite", reason="the FTS5 index is SQLite's")


def results(client, query: str, lang: str = "en") -> str:
    response = client.get(f"/{lang}/wiki/search/", {"q": query})
    assert response.status_code == 200
    return response.content.decode()


def snippets(html: str) -> list[str]:
    return re.findall(r'<p class="snippet" lang="\w\w">(.*?)</p>', html, re.S)


def test_flags_follow_the_words_and_their_synonym_keys():
    key = synonyms.KEY_MARK + "skill"
    marked = f"the \x01skill\x02 {key} of \x01rariti\x02"
    assert highlights._flags_of(marked) == [False, True, False, True]
    # A word whose synonym key matched is marked too (the key follows its word).
    assert highlights._flags_of(f"скилл \x01{key}\x02 навык") == [True, False]
    assert highlights._flags_of("") == []


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["skill", "of", "rariti"]), st.booleans(), st.booleans(), st.booleans()
        ),
        max_size=30,
    )
)
def test_flags_agree_with_reading_every_token(words):
    """The scan over marks and keys alone gives each word the flag a token-by-token
    reading gives it: marked itself, or its synonym key marked."""
    tokens, expected = [], []
    for word, marked, has_key, key_marked in words:
        tokens.append(f"\x01{word}\x02" if marked else word)
        if has_key:
            key = synonyms.KEY_MARK + word
            tokens.append(f"\x01{key}\x02" if key_marked else key)
        expected.append(marked or (has_key and key_marked))
    assert highlights._flags_of(" ".join(tokens)) == expected


def test_the_words_found_are_marked_in_title_and_snippet(client):
    make_page(
        "duels",
        title_en="Duels and rarities",
        summary_en="How a duel is fought.",
        body_en="Filler words first. " * 30 + "A rare card wins a duel only by rarity.",
    )
    html = results(client, "rarity duel")
    assert "<mark>Duels</mark> and <mark>rarities</mark>" in html
    (text,) = snippets(html)
    # The window is the one with the matches, cut with an ellipsis at its start.
    assert text.startswith("… ")
    assert "<mark>duel</mark> only by <mark>rarity</mark>" in text
    # Not a stem in sight: the page's own words are shown.
    assert "rariti" not in text


def test_highlighted_text_is_escaped(client):
    make_page(
        "markup",
        title_en="Tags <b>bold</b> & energy",
        body_en="Energy is `<script>alert(1)</script>` here.",
    )
    html = results(client, "energy")
    assert "<script>alert" not in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; <mark>energy</mark>" in html
    assert "<mark>Energy</mark>" in snippets(html)[0]


def test_a_synonym_is_marked_where_the_page_uses_its_own_word(client):
    make_page("nrg-page", title_en="NRG", body_en="Spend NRG to deploy a card.")
    html = results(client, "energy")
    assert "<mark>NRG</mark>" in html
    assert "Spend <mark>NRG</mark> to deploy" in snippets(html)[0]


def test_the_other_languages_title_is_marked_under_its_own_snippet(client):
    make_page(
        "ru-only",
        title_en="Hero lives",
        body_en="The hero starts with lives.",
        title_ru="Жизни героя",
        body_ru="Герой начинает с наивысшим запасом жизней.",
    )
    html = results(client, "наивысший")
    assert "<mark>наивысшим</mark>" in snippets(html)[0]
    assert "Hero lives" in html  # the visitor's title, no word of it searched


def test_one_query_highlights_a_whole_page_of_results(client, django_assert_num_queries):
    for n in range(12):
        make_page(f"energy-{n}", body_en=f"Energy page {n} spends energy.")
    # The vocabulary and the published pages (kept per content version), the versions.
    results(client, "energy")
    # The search (on PostgreSQL one per language), which of the hits' titles and headings
    # hold the words (the ranking) and the results' highlights: no page and no body is
    # read again.
    with django_assert_num_queries(3 if connection.vendor == "sqlite" else 4) as captured:
        html = results(client, "energy spends")
    assert len(snippets(html)) >= 10
    highlights = [q for q in captured.captured_queries if "highlight(" in q["sql"]]
    headlines = [q for q in captured.captured_queries if "ts_headline" in q["sql"]]
    assert len(highlights) + len(headlines) == 1


@SQLITE
def test_a_page_saved_without_its_index_is_still_highlighted(client):
    """The index behind the text (it is updated on every save; here it is not): the words
    are matched in Python instead of shifting every mark."""
    page = make_page("stale", body_en="Energy is spent.")
    Page.objects.filter(pk=page.pk).update(body_en="Now the energy, the energy is spent.")
    html = results(client, "energy")
    assert "Now the <mark>energy</mark>, the <mark>energy</mark> is spent." in snippets(html)[0]


@given(st.lists(st.text(alphabet="ab ёж,\n.1_", max_size=40), min_size=1, max_size=4))
def test_a_texts_words_are_found_once_per_text(parts):
    """What a text's highlights keep of it (per part, joined by line breaks) is what
    reading the joined text word by word finds."""
    facts = highlights._TextFacts(parts)
    joined = "\n".join(parts)
    assert facts.counts == tuple(len(search.WORD.findall(p)) for p in parts)
    words = [m.span() for m in search.WORD.finditer(joined)]
    assert facts.spans(0, len(words)) == words
    assert facts.spans(1, 3) == words[1:3]


def test_an_edited_page_is_found_and_shown_as_it_reads_now(client):
    from wiki.services import save_page

    page = make_page("energy", body_en="Energy is spent on skills.")
    assert "spent on skills" in snippets(results(client, "energy"))[0]
    page.body_en = "Energy now refills each turn."
    save_page(page, summary="edit")
    shown = snippets(results(client, "energy"))[0]
    assert "<mark>Energy</mark> now refills each turn." in shown
    assert "skills" not in shown
