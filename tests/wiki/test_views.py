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


def test_page_view_runs_a_fixed_small_number_of_queries(
    client, django_assert_num_queries, settings
):
    energy = make_page("energy")
    make_page("skills")
    make_page(
        "roles",
        body_en="## A\n\n[[energy]] [[skills]] [[missing]]\n\n{{ energy_costs }}",
        related=[energy, Page.objects.get(slug="skills")],
    )
    page_url = url("wiki:page", slug="roles")
    # Content versions, the page directory (once per content version), page + its
    # related pages (prefetch)...
    with django_assert_num_queries(4):
        assert client.get(page_url).status_code == 200
    # ...then the whole page comes from the page cache until the content changes.
    with django_assert_num_queries(0):
        assert client.get(page_url).status_code == 200
    # Another page: only the page and its related pages (versions and directory known).
    with django_assert_num_queries(2):
        assert client.get(url("wiki:page", slug="energy")).status_code == 200
    cache.clear()
    with django_assert_num_queries(4):  # rendered afresh once the cache is gone
        assert client.get(page_url).status_code == 200
    # The page cache off (a first view): the article is kept per content version, so
    # the other language's page and a repeat view read nothing.
    settings.PAGE_CACHE_SECONDS = 0
    with django_assert_num_queries(0):
        assert client.get(page_url).status_code == 200
    with django_assert_num_queries(2):  # the Russian article: the page and related pages
        assert client.get(url("wiki:page", lang="ru", slug="roles")).status_code == 200


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


def test_staff_edits_show_at_once_in_both_languages_with_the_page_cache_off(client, settings):
    """The article is kept per content version: an edit (and a new or unpublished page
    it links to) shows on the next view, English and Russian, with no cache cleared."""
    settings.PAGE_CACHE_SECONDS = 0
    page = make_page("roles", title_ru="Роли", body_en="Old text [[energy]]", body_ru="Старый")
    en, ru = url("wiki:page", slug="roles"), url("wiki:page", lang="ru", slug="roles")
    assert "Old text" in client.get(en).content.decode()
    assert "Старый" in client.get(ru).content.decode()
    page.body_en, page.body_ru, page.title_ru = "New text [[energy]]", "Новый", "Роли игры"
    services.save_page(page)
    assert "New text" in client.get(en).content.decode()
    html = client.get(ru).content.decode()
    assert "Новый" in html and "<title>Роли игры" in html
    assert "wikilink-missing" in client.get(en).content.decode()
    energy = make_page("energy", title_en="Energy rules")
    assert 'class="wikilink">Energy rules' in client.get(en).content.decode()
    energy.published = False
    services.save_page(energy)
    assert client.get(url("wiki:page", slug="energy")).status_code == 404
    assert "wikilink-missing" in client.get(en).content.decode()
    page.published = False
    services.save_page(page)
    assert client.get(en).status_code == 404
    assert client.get(ru).status_code == 404


def test_an_edit_re_renders_only_the_bodies_whose_links_it_changes(client, monkeypatch):
    from wiki import presenters

    rendered: list[str] = []
    render = presenters.render_body
    monkeypatch.setattr(
        presenters, "render_body", lambda page, *a: rendered.append(page.slug) or render(page, *a)
    )
    make_page("energy")
    other = make_page("skills")
    make_page("roles", body_en="See [[energy]].")
    roles = url("wiki:page", slug="roles")
    assert client.get(roles).status_code == 200
    assert rendered == ["roles"]
    other.body_en = "Skills, again."
    services.save_page(other)  # a page "roles" does not link to: its body is kept
    assert 'class="wikilink">Energy<' in client.get(roles).content.decode()
    assert rendered == ["roles"]
    energy = Page.objects.get(slug="energy")
    energy.title_en = "Energy costs"
    services.save_page(energy)  # the title of a page it links to: rendered again
    assert 'class="wikilink">Energy costs<' in client.get(roles).content.decode()
    assert rendered == ["roles", "roles"]


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
    assert "Found in the Russian text:" in html


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


# -- request parameters go through forms --------------------------------------------------

# ASCII digits only: "²".isdigit() is True and int("²") raises; int("٣") and int("１") read 3
# and 1, which no address of the site means.
UNICODE_DIGITS = ["²", "٣", "１", "①", "߃", "৩", "𝟑", "1²", " ٣ "]


@pytest.mark.parametrize("value", UNICODE_DIGITS)
def test_unicode_digits_are_a_bad_request_everywhere(client, value):
    page = make_page("roles")
    services.save_page(page)
    diff = url("wiki:diff", slug="roles")
    for query in ({"from": value, "to": "2"}, {"from": "1", "to": value}):
        response = client.get(diff, query)
        assert response.status_code == 400
        assert "Enter a whole number" in response.content.decode()
    assert client.get(url("wiki:history", slug="roles"), {"page": value}).status_code == 400
    response = client.get(url("wiki:search"), {"q": "roles", "page": value})
    assert response.status_code == 400 and "Enter a whole number" in response.content.decode()


def test_a_bad_diff_shows_the_history_with_the_message_in_the_visitors_language(client):
    page = make_page("roles")
    services.save_page(page)
    response = client.get(url("wiki:diff", "ru", slug="roles"), {"from": "²"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'role="alert"' in html and "Введите целое число" in html
    assert "Выберите две версии для сравнения." in html
    assert 'name="from" value="1"' in html  # the compare form, to pick again


def test_a_bad_search_page_is_a_400_with_the_first_page_of_results(client):
    make_page("energy", title_en="Energy", body_en="energy")
    response = client.get(url("wiki:search", "ru"), {"q": "energy", "page": "x"})
    html = response.content.decode()
    assert response.status_code == 400 and "Введите целое число" in html
    assert result_slugs(html) == ["energy"]


@pytest.mark.parametrize(
    "name", ["wiki:index", "wiki:page", "wiki:history", "wiki:diff", "wiki:search"]
)
def test_head_is_answered_wherever_get_is(client, name):
    page = make_page("roles")
    services.save_page(page)
    kwargs = {} if name in ("wiki:index", "wiki:search") else {"slug": "roles"}
    query = "?from=1&to=2" if name == "wiki:diff" else ""
    get = client.get(url(name, **kwargs) + query)
    head = client.head(url(name, **kwargs) + query)
    assert get.status_code == head.status_code == 200
    assert head.content == b""
    assert client.post(url(name, **kwargs) + query).status_code == 405


def test_the_history_is_paged_and_each_row_links_its_own_changes(client, django_assert_num_queries):
    page = make_page("roles", body_en="v1")
    for n in range(2, 61):
        page.body_en = f"v{n}"
        services.save_page(page, summary=f"edit {n}")
    history = url("wiki:history", slug="roles")
    html = client.get(history).content.decode()
    assert html.count('name="to"') == 50 and "edit 60" in html and "edit 10<" not in html
    assert "?from=59&amp;to=60" in html and 'rel="next"' in html and "Page 1 of 2" in html
    second = client.get(history, {"page": 2}).content.decode()
    assert second.count('name="to"') == 10 and "edit 10" in second
    assert "?from=9&amp;to=10" in second and "first version" in second
    assert 'rel="prev"' in second
    assert client.get(history, {"page": 99}).status_code == 200  # past the end: the last page
    cache.clear()
    # Content versions, the page (and its related pages), the revision numbers, the rows.
    with django_assert_num_queries(5):
        client.get(history, {"page": 2})


# -- drafts stay private ------------------------------------------------------------------


def test_drafts_written_before_publishing_never_reach_the_public(client, admin_client):
    page = make_page("roles", body_en="Secret plan one", published=False)
    page.body_en = "Secret plan two"
    services.save_page(page)
    page.body_en, page.published = "Public text", True
    services.save_page(page, summary="publish")  # revision 3: the first the public may see
    html = client.get(url("wiki:history", slug="roles")).content.decode()
    assert "publish" in html and html.count('name="to"') == 1 and "first version" in html
    for old in ("1", "2"):
        response = client.get(url("wiki:diff", slug="roles"), {"from": old, "to": "3"})
        assert response.status_code == 404
        assert "Secret plan" not in response.content.decode()
    # Staff still see every revision in the admin.
    admin = admin_client.get(reverse("admin:wiki_page_revisions", args=[page.pk])).content.decode()
    assert admin.count('name="to"') == 3
    diff = reverse("admin:wiki_page_revision_diff", args=[page.pk]) + "?from=1&to=3"
    assert "Secret" in admin_client.get(diff).content.decode()


def test_drafts_written_while_unpublished_stay_private_too(client):
    page = make_page("roles", body_en="Was public")
    page.published = False
    services.save_page(page)  # 2: taken down
    page.body_en = "Unannounced draft"
    services.save_page(page)  # 3: edited while hidden
    page.body_en, page.published = "Public again", True
    services.save_page(page)  # 4: back
    html = client.get(url("wiki:history", slug="roles")).content.decode()
    assert html.count('name="to"') == 2 and "?from=1&amp;to=4" in html
    assert client.get(url("wiki:diff", slug="roles"), {"from": "3", "to": "4"}).status_code == 404
    response = client.get(url("wiki:diff", slug="roles"), {"from": "1", "to": "4"})
    html = response.content.decode()
    assert response.status_code == 200 and "again" in html
    assert "Unannounced" not in html
