"""Search: synonyms (game terms and the everyday words for them, both languages), words
left out and "did you mean". The PostgreSQL pass (scripts/ci-postgres.sh) runs these too."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from tests.core.test_glossary import GLOSSARY, forbidden_entries, glossary_rows
from wiki import search, synonyms

from .conftest import make_page

pytestmark = pytest.mark.django_db


def results(client, query: str, lang: str = "ru") -> str:
    response = client.get(f"/{lang}/wiki/search/", {"q": query})
    assert response.status_code == 200
    return response.content.decode()


def slugs(html: str) -> list[str]:
    return re.findall(r'<h2 class="result-title"><a href="/\w\w/wiki/([\w-]+)/"', html)


# -- synonyms on the shipped pages ------------------------------------------------------


@pytest.mark.parametrize("query", ["навыки", "навык", "навыков"])
def test_everyday_russian_for_skill_finds_the_skills_page(client, shipped_wiki, query):
    """The pages say «скилл»; a reader types «навыки»."""
    html = results(client, query)
    assert slugs(html)[0] == "skills"
    assert "<mark>Скиллы</mark>" in html  # the title, highlighted as a synonym
    assert "No page has" not in html


def test_legendarnaya_finds_the_pages_that_write_legendary(client, shipped_wiki):
    html = results(client, "легендарная")
    assert "rarities" in slugs(html)
    assert "<mark>Legendary</mark>" in html


@pytest.mark.parametrize(
    ("query", "lang", "slug"),
    [
        ("mana", "en", "energy"),
        ("мана", "ru", "energy"),
        ("недозаряд", "ru", "energy"),
        ("сродство", "ru", "skills"),
        ("affinity", "ru", "skills"),
        ("skill", "ru", "skills"),
        ("скилл", "en", "skills"),
        ("здоровье героя", "ru", "hero-lives"),
        ("бустеры", "en", "booster-packs"),
    ],
)
def test_synonyms_cross_words_and_languages(client, shipped_wiki, query, lang, slug):
    assert slug in slugs(results(client, query, lang))[:3], (query, lang)


def test_a_synonym_found_in_the_visitors_language_shows_its_snippet(client, shipped_wiki):
    """ "affinity" typed on /ru/ matches the Russian text through «аффинити»."""
    html = results(client, "affinity", "ru")
    first = html.split('<li class="result">')[1].split("</li>")[0]
    assert "Found in" not in first and "Найдено в" not in first
    assert 'lang="ru"' in first and "<mark>аффинити</mark>" in first.lower()


def test_a_word_still_being_typed_reaches_its_synonyms(client, shipped_wiki):
    assert "skills" in slugs(results(client, "навы"))[:3]


# -- words left out, did you mean ------------------------------------------------------


@pytest.fixture
def pages(db):
    make_page(
        "rarities",
        title_en="Rarities",
        title_ru="Редкости",
        body_en="A card's rarity is the highest result of seven rules. Legendary is the top.",
        body_ru="Редкость карты — наивысший результат семи правил. Legendary — высшая.",
    )
    make_page(
        "energy",
        title_en="Energy",
        title_ru="Энергия",
        body_en="Deploying costs NRG. Undercharge weakens a card.",
        body_ru="Выставление стоит NRG. Андерчардж ослабляет карту.",
    )
    make_page("secret", title_en="Secret", body_en="xyzzy plugh", published=False)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_unknown_words_are_named_and_left_out(client, pages, lang):
    html = results(client, "energy xyzzy", lang)
    assert slugs(html) == ["energy"]
    message = {
        "en": "No page has the word “xyzzy”, so the search left it out.",
        "ru": "Ни на одной странице нет слова «xyzzy», поэтому поиск его пропустил.",
    }[lang]
    assert message in html
    # an unpublished page's words are unknown too: nothing about drafts leaks


def test_several_unknown_words_and_only_unknown_words(client, pages):
    html = results(client, "qwzx plugh", "en")
    assert "No page has the words “qwzx”, “plugh”, so the search left them out." in html
    assert "Nothing found" in html and slugs(html) == []


@pytest.mark.parametrize(
    ("query", "lang", "corrected"),
    [
        ("enrgy", "en", "energy"),
        ("energy raritty", "en", "energy rarity"),
        ("андерчардш", "ru", "андерчардж"),
        ("нaвыки", "ru", None),  # a Latin "a" in a Cyrillic word: no close word, no link
    ],
)
def test_did_you_mean(client, pages, query, lang, corrected):
    html = results(client, query, lang)
    label = {"en": "Did you mean", "ru": "Может быть, вы имели в виду"}[lang]
    if corrected is None:
        assert label not in html
        return
    assert label in html
    link = re.search(r'<p class="search-suggestion">.*?<a href="([^"]+)"[^>]*>([^<]+)</a>', html)
    assert link and link.group(2) == corrected
    followed = client.get(link.group(1).replace("&amp;", "&"))
    assert followed.status_code == 200
    assert "left it out" not in followed.content.decode()


def test_did_you_mean_never_offers_a_word_only_a_draft_has(client, pages):
    assert "plugh" not in results(client, "plugg", "en").split("search-notes")[-1][:400]


def test_words_past_the_limit_are_named(client, pages):
    words = " ".join(["energy"] + [f"w{i}x" for i in range(12)] + ["rarity", "last"])
    html = results(client, words, "en")
    assert "Only the first 12 words are searched; left out: “w11x”, “rarity”, “last”." in html


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_pages_with_some_of_the_words_are_said_to_be_so(client, pages, lang):
    html = results(client, "энергия rarity", lang)
    assert set(slugs(html)) == {"energy", "rarities"}
    message = {
        "en": "No page has all of these words; these pages have some of them.",
        "ru": "Ни на одной странице нет всех этих слов; на этих страницах есть некоторые.",
    }[lang]
    assert message in html
    assert message not in results(client, "energy undercharge", lang)


def test_a_match_in_the_other_language_comes_with_that_languages_title(client, pages):
    """Russian words searched from /en/: the Russian snippet sits under the Russian title."""
    html = results(client, "наивысший", "en")
    item = html.split('<li class="result">')[1].split("</li>")[0]
    assert '<a href="/en/wiki/rarities/">Rarities</a>' in item
    note = re.search(r'<p class="match-lang">(.*?)</p>', item, re.S).group(1)
    assert "Found in the Russian text:" in note
    assert '<a href="/ru/wiki/rarities/" lang="ru" hreflang="ru">Редкости</a>' in note
    snippet = re.search(r'<p class="snippet" lang="ru">(.*?)</p>', item, re.S).group(1)
    assert "<mark>наивысший</mark>" in snippet


# -- the table itself ------------------------------------------------------------------


def test_each_word_of_the_table_stands_for_its_group():
    for group in synonyms.GROUPS:
        keys = {synonyms.key_of(word) for word in group}
        assert len(keys) == 1 and None not in keys, group


def _head(cell: str) -> str:
    found = re.search(r"\*\*([^*]+)\*\*", cell)
    return found.group(1) if found else ""


def test_the_table_follows_the_glossary():
    """A glossary term and its English name are one group; every single-word form the
    glossary forbids on the pages still finds that term (a reader may type it)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    problems = []
    for row in glossary_rows(text):
        english = [w.strip() for w in row["English"].split(",")]
        russian = re.findall(r"\*\*([^*]+)\*\*", row["Russian"])
        if len(english) != len(russian):
            english, russian = english[:1], russian[:1]
        for word, term in zip(english, russian, strict=True):
            if " " in word or " " in term:
                continue
            key, term_key = synonyms.key_of(word), synonyms.key_of(term)
            if key and term_key and key != term_key:
                problems.append(f"{word!r} and {term!r} are in different groups")
    for rule in forbidden_entries(text):
        entry = rule.entry
        if entry.startswith("=") or re.search(r"[\s\-«»→%]", entry):
            continue  # case-only, phrases and placeholders are not words one searches by
        word = entry.rstrip("*")
        terms = re.findall(r"\w+", rule.use)  # the forms to use, and their examples
        keys = search.parse_query(word).terms[0].keys  # as the search reads the word
        if not keys:
            problems.append(f"the forbidden form {entry!r} ({rule.term}) finds nothing: add it")
        elif not any(synonyms.key_of(term) in keys for term in terms):
            problems.append(f"the forbidden form {entry!r} does not reach «{rule.use}»")
    assert not problems, "\n".join(problems)


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_the_sqlite_index_is_rebuilt_when_the_table_changes(monkeypatch):
    page = make_page("skills", title_en="Skills", body_en="Every card has a skill.")
    assert [h.page_id for h in search.search_pages("навык")] == [page.pk]
    assert search.ensure_index_current() is False  # built with this table
    monkeypatch.setattr(synonyms, "FINGERPRINT", "changed")
    assert search.ensure_index_current() is True
    assert search.ensure_index_current() is False
    assert [h.page_id for h in search.search_pages("навык")] == [page.pk]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM wiki_page_fts WHERE page_id = 0")
        assert cursor.fetchone()[0] == 1


def test_the_corrected_query_names_each_word_once_and_leaves_out_the_rest(pages):
    vocabulary = search.vocabulary()
    parsed = search.parse_query("energy enrgy energi rarity zzqqxx", vocabulary)
    assert parsed.unknown == ("enrgy", "zzqqxx") and parsed.corrected == "energy rarity"


def test_numbers_on_the_pages_are_words_like_any_other(client, shipped_wiki):
    html = results(client, "200 раунд")
    assert "how-a-match-works" in slugs(html) and "left it out" not in html
    assert "поиск его пропустил" not in html


def test_the_vocabulary_is_kept_per_content_version_without_flooding_the_cache(pages, monkeypatch):
    """Built once per content version, with one cache entry: a cache entry per page (a
    thousand pages' plain texts) would push the process memos' own generation out of a
    bounded cache and rebuild it on every search."""
    from django.core.cache import cache

    keys: list[str] = []
    set_ = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **kw: keys.append(key) or set_(key, *a, **kw))
    first = search.vocabulary()
    assert search.vocabulary() is first
    assert [k for k in keys if k.startswith("wiki:")] == [k for k in keys if "vocabulary" in k]
    assert len([k for k in keys if "vocabulary" in k]) == 1
    make_page("zebra-page", body_en="Zebras are striped.")
    assert search.vocabulary() is not first
    assert "zebra" in search.vocabulary().words
