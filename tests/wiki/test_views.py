"""The public wiki: index, page, translation notice, history, diffs, search."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from wiki import services
from wiki.models import Page

from .conftest import make_page
from .htmlcheck import live_html_problems

pytestmark = pytest.mark.django_db


def url(name: str, lang: str = "en", **kwargs) -> str:
    with translation.override(lang):
        return reverse(name, kwargs=kwargs or None)


def test_index_lists_published_pages_by_section(client):
    make_page("energy", title_en="Energy", title_ru="Энергия", section="match", order=2)
    make_page("rarities", title_en="Rarities", section="basics")
    make_page("draft", title_en="Secret draft", published=False)
    html = client.get(url("wiki:index", "ru")).content.decode()
    assert "Энергия" in html and "Rarities" in html and "Secret draft" not in html
    assert html.index("Основы") < html.index("Матч")
    # An untranslated title is marked, never passed off as Russian.
    assert 'lang="en">Rarities</a>' in html


def test_page_shows_title_summary_toc_body_related_and_history_link(client):
    energy = make_page("energy", title_en="Energy", summary_en="NRG and its uses")
    make_page(
        "roles",
        title_en="Roles",
        summary_en="Four roles.",
        body_en="Intro\n\n## Votes\n\nSee [[energy]].\n\n### Example\n\nx\n\n## Hash fallback\n",
        related=[energy],
    )
    response = client.get(url("wiki:page", slug="roles"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Roles</h1>" in html and "Four roles." in html
    assert '<a href="#votes">Votes</a>' in html and '<a href="#example">Example</a>' in html
    assert '<h2 id="hash-fallback">' in html
    assert '<a href="/en/wiki/energy/" class="wikilink">Energy</a>' in html
    assert "NRG and its uses" in html  # related page
    assert url("wiki:history", slug="roles") in html
    assert "<time datetime=" in html
    assert 'hreflang="ru" href="http://testserver/ru/wiki/roles/"' in html
    assert "not yet translated" not in html


def test_untranslated_russian_page_says_so_and_shows_english(client):
    make_page("roles", title_en="Roles", body_en="## Votes\n\nEnglish text.")
    html = client.get(url("wiki:page", "ru", slug="roles")).content.decode()
    assert "ещё не переведена" in html
    assert '<h1 lang="en">Roles</h1>' in html
    assert '<div class="wiki-body" lang="en">' in html and "English text." in html


def test_partially_translated_page_still_says_so(client):
    make_page(
        "roles",
        title_en="Roles",
        title_ru="Роли",
        body_en="Text",
        body_ru="Текст",
        summary_en="Four roles.",
    )
    html = client.get(url("wiki:page", "ru", slug="roles")).content.decode()
    assert "ещё не переведена" in html and '<p class="lead" lang="en">Four roles.</p>' in html


def test_translated_page_has_no_notice_and_english_anchor_aliases(client):
    make_page(
        "rarities",
        title_en="Rarities",
        title_ru="Редкости",
        body_en="## Wardrobe score\n\nx",
        body_ru="## Счёт гардероба\n\nх",
    )
    html = client.get(url("wiki:page", "ru", slug="rarities")).content.decode()
    assert "ещё не переведена" not in html
    assert '<h2 id="счёт-гардероба"><span id="wardrobe-score" class="anchor-alias"></span>' in html


def test_unpublished_and_unknown_pages_are_404(client):
    make_page("draft", published=False)
    for name in ("wiki:page", "wiki:history", "wiki:diff"):
        assert client.get(url(name, slug="draft")).status_code == 404
    assert client.get(url("wiki:page", slug="no-such-page")).status_code == 404


def test_page_view_runs_a_fixed_small_number_of_queries(client, django_assert_num_queries):
    energy = make_page("energy")
    make_page("skills")
    make_page(
        "roles",
        body_en="## A\n\n[[energy]] [[skills]] [[missing]]\n\n{{ energy_costs }}",
        related=[energy, Page.objects.get(slug="skills")],
    )
    page_url = url("wiki:page", slug="roles")
    # Content versions, page + its related pages (prefetch) + the page directory...
    with django_assert_num_queries(4):
        assert client.get(page_url).status_code == 200
    # ...then the whole page comes from the page cache until the content changes.
    with django_assert_num_queries(0):
        assert client.get(page_url).status_code == 200
    cache.clear()
    with django_assert_num_queries(4):  # rendered afresh once the cache is gone
        assert client.get(page_url).status_code == 200


def test_rendered_html_is_cached_per_revision(client):
    page = make_page("roles", body_en="First text")
    page_url = url("wiki:page", slug="roles")
    assert "First text" in client.get(page_url).content.decode()
    page.body_en = "Second text"
    services.save_page(page)
    assert "Second text" in client.get(page_url).content.decode()
    # A new page turns a missing link into a real one: the directory is in the key.
    page.body_en = "See [[energy]]."
    services.save_page(page)
    assert "wikilink-missing" in client.get(page_url).content.decode()
    make_page("energy")
    assert 'class="wikilink">Energy' in client.get(page_url).content.decode()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_xss_in_either_language_never_reaches_the_page(client, lang):
    payload = (
        "<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) "
        '<iframe src="//evil"></iframe><style>*{}</style><b style="x" onmouseover="y">b</b>'
    )
    make_page(
        "evil",
        title_en="T <script>alert(1)</script>",
        summary_en=payload,
        body_en=f"## {payload}\n\n{payload}",
        title_ru=payload,
        body_ru=f"{payload}\n\n## {payload}",
    )
    for name in ("wiki:page", "wiki:history", "wiki:index"):
        response = client.get(url(name, lang, **({"slug": "evil"} if name != "wiki:index" else {})))
        html = response.content.decode()
        assert response.status_code == 200
        assert live_html_problems(html.split("<main", 1)[1], allow={"form"}) == [], name
    html = client.get(url("wiki:search", lang) + "?q=alert").content.decode()
    assert "alert" in html
    assert live_html_problems(html.split("<main", 1)[1], allow={"form"}) == []


def test_history_and_diff_between_revisions(client):
    page = make_page("roles", body_en="Line one\nLine two <b>", summary="created")
    page.body_en = "Line one\nLine 2 <b>"
    services.save_page(page, summary="fix number")
    html = client.get(url("wiki:history", slug="roles")).content.decode()
    assert "fix number" in html and "created" in html
    response = client.get(url("wiki:diff", slug="roles") + "?from=1&to=2")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<del>two</del>" in html and "<ins>2</ins>" in html
    assert "&lt;b&gt;" in html and "<b>" not in html.split("<main", 1)[1]


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?from=1&to=9", 404),
        ("?from=0&to=1", 404),
        ("?from=a&to=1", 400),
        ("", 400),
        ("?from=1", 400),
        ("?from=-1&to=1", 400),
        ("?from=99999999999999&to=1", 400),
    ],
)
def test_bad_revision_numbers_are_client_errors(client, query, status):
    make_page("roles")
    assert client.get(url("wiki:diff", slug="roles") + query).status_code == status


# -- search ------------------------------------------------------------------------------


@pytest.fixture
def searchable(db):
    make_page(
        "rarities",
        title_en="Rarities",
        title_ru="Редкости",
        summary_en="The five rarity levels.",
        body_en="A card's rarity is the highest result of seven rules.",
        body_ru="Редкость карты — наивысший результат семи правил.",
    )
    make_page(
        "skills",
        title_en="Skills",
        title_ru="Скиллы",
        body_en="Every card leans towards one skill: Pierce, Speed, Steal or Arcane.",
        body_ru="Каждая карта склоняется к одному скиллу.",
    )
    make_page("energy", title_en="Energy", body_en="Deploying costs NRG.")


def results(client, query: str, lang: str = "en", **headers) -> str:
    return client.get(url("wiki:search", lang), {"q": query}, headers=headers).content.decode()


def result_slugs(html: str) -> list[str]:
    return re.findall(r'<h2 class="result-title"><a href="/\w\w/wiki/([\w-]+)/"', html)


def test_search_finds_russian_word_forms(client, searchable):
    html = results(client, "редкости", "ru")
    assert result_slugs(html) == ["rarities"]
    assert "<mark>Редкость</mark>" in html


def test_search_finds_english_word_forms(client, searchable):
    assert result_slugs(results(client, "skills"))[0] == "skills"
    assert result_slugs(results(client, "skill"))[0] == "skills"
    html = results(client, "rarity")
    assert result_slugs(html)[0] == "rarities"
    assert "<mark>Rarities</mark>" in html


def test_search_crosses_languages_and_says_where_it_matched(client, searchable):
    html = results(client, "наивысший", "en")
    assert result_slugs(html) == ["rarities"]
    assert "Found in the Russian text." in html


def test_search_ranks_title_matches_first(client, searchable):
    make_page("stats", title_en="Card stats", body_en="Skills change nothing here; skill skill.")
    assert result_slugs(results(client, "skills"))[0] == "skills"


def test_search_prefix_while_typing_and_empty_states(client, searchable):
    assert result_slugs(results(client, "energ")) == ["energy"]
    assert "Nothing found" in results(client, "zzzzqqq")
    assert "Type a word" in results(client, "")
    assert "Type a word" in results(client, "   !!! ")


def test_search_leaves_out_unpublished_pages(client, searchable):
    make_page("secret", title_en="Secret rarity notes", published=False)
    assert "secret" not in result_slugs(results(client, "rarity"))


def test_search_survives_fts_syntax_in_the_query(client, searchable):
    for query in ['"', "NEAR(", "rarity OR", "*", "a AND -b", "'; DROP TABLE x; --", "^^"]:
        assert client.get(url("wiki:search"), {"q": query}).status_code == 200


def test_htmx_gets_the_results_fragment_and_history_restore_the_full_page(client, searchable):
    fragment = results(client, "energy", HX_Request="true")
    assert "<html" not in fragment and result_slugs(fragment) == ["energy"]
    response = client.get(url("wiki:search"), {"q": "energy"}, headers={"HX-Request": "true"})
    assert "HX-Request" in response["Vary"]
    full = results(client, "energy", HX_Request="true", HX_History_Restore_Request="true")
    assert "<html" in full


def test_search_form_works_without_javascript_and_wires_htmx(client):
    html = results(client, "")
    assert 'action="/en/wiki/search/" method="get" role="search"' in html
    assert 'hx-get="/en/wiki/search/"' in html and 'hx-push-url="true"' in html


def test_search_results_are_paginated(client):
    for i in range(12):
        make_page(f"page-{i}", title_en=f"Shield notes {i}", body_en="shield")
    html = results(client, "shield")
    assert len(result_slugs(html)) == 10 and "12 pages found" in html
    page2 = client.get(url("wiki:search"), {"q": "shield", "page": 2}).content.decode()
    assert len(result_slugs(page2)) == 2
