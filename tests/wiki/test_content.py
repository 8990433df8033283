"""The shipped pages (wiki/content): complete in both languages, every table and link works."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from wiki import macros, reports
from wiki.importing import read_sources
from wiki.models import Section
from wiki.rendering import extract_headings, extract_macros

# Macros the content already names whose data does not exist yet. Each renders as a visible
# error box until it is registered; remove it from here the moment it is (a stale entry fails).
AWAITING_DATA: dict[str, str] = {}

SOURCES = read_sources()


def test_every_page_is_complete_in_both_languages():
    for source in SOURCES:
        assert set(source.bodies) == {"en", "ru"}, source.slug
        for lang in ("en", "ru"):
            assert source.titles[lang].strip() and source.bodies[lang].strip(), (source.slug, lang)
            assert source.summaries[lang].strip(), (source.slug, lang)
        assert source.section in Section.values, source.slug


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.slug)
def test_english_and_russian_level_two_headings_line_up(source):
    """Russian pages alias the English ids by position, so their ## headings must match."""
    en = [h for h in extract_headings(source.bodies["en"]) if h.level == 2]
    ru = [h for h in extract_headings(source.bodies["ru"]) if h.level == 2]
    assert len(en) == len(ru), (source.slug, [h.text for h in en], [h.text for h in ru])


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.slug)
def test_both_languages_use_the_same_tables(source):
    assert extract_macros(source.bodies["en"]) == extract_macros(source.bodies["ru"]), source.slug


def test_no_unknown_macro_in_the_content():
    used = {
        name for s in SOURCES for lang in ("en", "ru") for name, _ in extract_macros(s.bodies[lang])
    }
    unknown = {name for name in used if macros.get_macro(name) is None}
    assert unknown <= set(AWAITING_DATA), f"Unknown macros: {sorted(unknown - set(AWAITING_DATA))}"
    registered_but_listed = set(AWAITING_DATA) & set(macros.registered_macros())
    assert not registered_but_listed, (
        f"Now registered, drop from AWAITING_DATA: {registered_but_listed}"
    )


def test_no_broken_wiki_link_in_the_content(shipped_wiki):
    problems = [(p.page.slug, p.lang, p.written, p.problem) for p in reports.link_problems()]
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_page_renders_in_both_languages(client, shipped_wiki, lang):
    index = client.get(reverse("wiki:index") if lang == "en" else f"/{lang}/wiki/")
    assert index.status_code == 200
    for page in shipped_wiki:
        with translation.override(lang):
            url = reverse("wiki:page", kwargs={"slug": page.slug})
        response = client.get(url)
        html = response.content.decode()
        assert response.status_code == 200, url
        assert "wikilink-missing" not in html, url
        assert "not yet translated" not in html and "ещё не переведена" not in html, url
        assert "{{" not in html and "[[" not in html and ":::" not in html, url
        errors = re.findall(r'<div class="macro-error">.*?</div>', html)
        pending = [e for e in errors if not any(name in e for name in AWAITING_DATA)]
        assert pending == [], (url, pending)


def test_rule_sections_are_linkable_in_both_languages_with_the_english_anchor(client, shipped_wiki):
    for lang in ("en", "ru"):
        html = client.get(f"/{lang}/wiki/rarities/").content.decode()
        for anchor in ("wardrobe-score", "supply-count", "getgems-rank-floor", "burned-stickers"):
            assert f'id="{anchor}"' in html, (lang, anchor)
    html = client.get("/ru/wiki/energy/").content.decode()
    assert 'id="undercharge"' in html


def test_search_finds_the_shipped_pages_by_word_forms(client, shipped_wiki):
    ru = client.get("/ru/wiki/search/", {"q": "редкости"}).content.decode()
    assert re.search(r'result-title"><a href="/ru/wiki/rarities/"', ru)
    en = client.get("/en/wiki/search/", {"q": "skills"}).content.decode()
    first = re.search(r'result-title"><a href="/en/wiki/([\w-]+)/"', en)
    assert first and first.group(1) == "skills"


def _other_apps_sections() -> dict[str, tuple[str, str]]:
    from core.anchors import RULE_SECTIONS, TOPIC_SECTIONS
    from play.presenters import BOOST_SECTIONS

    sections = {
        **RULE_SECTIONS,
        **TOPIC_SECTIONS,
        **{f"boost:{kind.value}": where for kind, where in BOOST_SECTIONS.items()},
    }
    try:  # the explorer keeps its own table of the sections its breakdown links to
        from explorer.narration import WIKI_SECTIONS
    except ImportError:
        return sections
    return {**sections, **{f"explorer:{k}": v for k, v in WIKI_SECTIONS.items()}}


def test_every_section_other_apps_link_to_exists_in_both_languages():
    from core.anchors import RULE_SECTIONS, rule_url
    from engine import data
    from wiki.rendering import anchor_ids

    assert set(RULE_SECTIONS) == {*data.RULE_KEYS, data.STARTER_RULE_KEY}
    by_slug = {s.slug: s for s in SOURCES}
    for key, (slug, anchor) in _other_apps_sections().items():
        assert slug in by_slug, (key, slug)
        if not anchor:
            continue
        source = by_slug[slug]
        english = extract_headings(source.bodies["en"])
        assert anchor in anchor_ids(source.bodies["en"]), (key, slug, anchor)
        assert anchor in anchor_ids(source.bodies["ru"], alias_source=english), (key, slug, anchor)
    with translation.override("ru"):
        assert rule_url("wardrobe_score") == "/ru/wiki/rarities/#wardrobe-score"


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.slug)
def test_every_shipped_page_can_be_saved_again_in_the_admin(source):
    """The limits an editor's text must keep (wiki.validation) hold for the shipped pages."""
    from wiki.rendering import StaticResolver
    from wiki.validation import body_problems

    titles = {s.slug: s.titles["en"] for s in SOURCES}
    for lang, body in source.bodies.items():
        resolver = StaticResolver(titles, url_lang=lang)
        with translation.override(lang):
            assert body_problems(body, lang=lang, resolver=resolver) == [], (source.slug, lang)


END_OF_MATCH = {
    ("how-a-match-works", "en"): "Winning, losing and draws",
    ("how-a-match-works", "ru"): "Победа, поражение и ничья",
    ("hero-lives", "en"): "Winning and losing",
    ("hero-lives", "ru"): "Победа и поражение",
}


@pytest.mark.parametrize(("slug", "lang"), list(END_OF_MATCH), ids="-".join)
def test_the_end_of_a_match_says_what_rules_md_6_7_settles(slug, lang):
    """No card left on either side: each unused Hero Patch counts +3 (cap 90), then the
    higher Hero HP wins; after round 200 the higher Hero HP wins (docs/rules.md §6.7)."""
    from engine import data
    from engine.types import BoostKind

    body = next(s for s in SOURCES if s.slug == slug).bodies[lang]
    heading = f"## {END_OF_MATCH[slug, lang]}\n"
    assert heading in body
    section = body.split(heading, 1)[1].split("\n## ", 1)[0]
    patch = next(b.amount for b in data.BOOSTS if b.key is BoostKind.HERO_PATCH)
    for fact in ("Hero Patch", f"+{patch}", str(data.MAX_HERO_HP_CEILING), str(data.ROUND_LIMIT)):
        assert fact in section, (slug, lang, fact)
    draw = "draw" if lang == "en" else "ничья"
    assert section.count(draw) >= 3, "both Heroes at 0, no cards left and round 200 each say it"
