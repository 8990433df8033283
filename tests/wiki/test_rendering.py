"""The Markdown renderer: headings and anchors, callouts, links, macros, sanitising."""

import doctest

import pytest
from django.utils import translation

import wiki.anchors
import wiki.diff
import wiki.importing
import wiki.macros.registry
import wiki.rendering
import wiki.search
from wiki.rendering import StaticResolver, extract_headings, render_markdown, sanitize

from .htmlcheck import live_html_problems

TITLES = {"energy": "Energy", "roles": "Roles"}


def render(text: str, lang: str = "en", **kwargs):
    resolver = StaticResolver(TITLES, url_lang=lang)
    return render_markdown(text, lang=lang, resolver=resolver, **kwargs)


@pytest.mark.parametrize(
    "module",
    [wiki.rendering, wiki.search, wiki.diff, wiki.importing, wiki.macros.registry, wiki.anchors],
)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_headings_get_stable_unique_ids_and_h1_becomes_h2():
    out = render("# Top\n\n## Shield (DEF)\n\n### Pierce `skips` it\n\n## Shield (DEF)\n")
    assert [(h.level, h.id, h.text) for h in out.headings] == [
        (2, "top", "Top"),
        (2, "shield-def", "Shield (DEF)"),
        (3, "pierce-skips-it", "Pierce skips it"),
        (2, "shield-def-2", "Shield (DEF)"),
    ]
    assert "<h1" not in out.html
    assert '<h2 id="shield-def">Shield (DEF)</h2>' in out.html


def test_russian_headings_get_their_own_id_and_the_english_id_as_an_alias():
    english = extract_headings("## Wardrobe score\n\ntext\n\n### Example\n\n## Tier badge\n")
    out = render(
        "## Счёт гардероба\n\nтекст\n\n### Пример\n\n## Значок тира\n", "ru", alias_source=english
    )
    assert (
        '<h2 id="счёт-гардероба"><span id="wardrobe-score" class="anchor-alias"></span>' in out.html
    )
    assert '<h3 id="пример"><span id="example" class="anchor-alias"></span>' in out.html
    assert '<span id="tier-badge" class="anchor-alias"></span>' in out.html


def test_aliases_fall_back_to_level_two_headings_when_subheadings_differ():
    english = extract_headings("## One\n\n### Detail\n\n## Two\n")
    out = render("## Один\n\n## Два\n\n### Подробности\n", "ru", alias_source=english)
    assert 'id="one"' in out.html and 'id="two"' in out.html
    assert 'id="detail"' not in out.html


def test_no_aliases_when_the_level_two_headings_do_not_line_up():
    english = extract_headings("## One\n\n## Two\n")
    out = render("## Один\n", "ru", alias_source=english)
    assert "anchor-alias" not in out.html


@pytest.mark.parametrize(("lang", "title"), [("en", "Under the hood"), ("ru", "Под капотом")])
def test_callouts_have_a_translated_title(lang, title):
    out = render(
        "::: under-the-hood\nThe **engine** does it.\n:::\n\n::: note\nMind this.\n:::\n", lang
    )
    assert '<div class="callout callout-under-the-hood" role="note">' in out.html
    assert f'<p class="callout-title">{title}</p>' in out.html
    assert "<strong>engine</strong>" in out.html
    assert 'class="callout callout-note"' in out.html


def test_wiki_links_to_existing_and_missing_pages():
    out = render("See [[energy]], [[roles#hash-fallback|the hash]] and [[booster-packs|pools]].")
    assert '<a href="/en/wiki/energy/" class="wikilink">Energy</a>' in out.html
    assert '<a href="/en/wiki/roles/#hash-fallback" class="wikilink">the hash</a>' in out.html
    assert '<span class="wikilink-missing"' in out.html and ">pools<" in out.html
    assert [link.slug for link in out.missing_links] == ["booster-packs"]


def test_links_in_russian_go_to_russian_urls():
    out = render("См. [[energy|энергию]].", "ru")
    assert '<a href="/ru/wiki/energy/" class="wikilink">энергию</a>' in out.html


def test_card_links_point_at_the_explorer_card_page():
    out = render("Look at [[card:123]] and [[card:7|this pup]].")
    assert 'href="/en/cards/123/"' in out.html
    assert 'class="card-link">Card #123</a>' in out.html
    assert ">this pup</a>" in out.html


def test_gfm_tables_alignment_becomes_a_class_not_a_style():
    out = render("| a | b |\n|---|--:|\n| 1 | 2 |\n")
    assert '<div class="table-wrap"><table>' in out.html
    assert '<td class="align-right">2</td>' in out.html
    assert "style=" not in out.html


def test_macros_render_tables_and_unknown_ones_a_visible_error():
    out = render("Text\n{{ energy_costs }}\n\n{{ no_such_table }}\n")
    assert '<table class="macro-table">' in out.html
    assert 'class="macro-error"' in out.html and "no_such_table" in out.html
    assert out.unknown_macros == ("no_such_table",)


def test_a_macro_only_counts_alone_on_its_line():
    out = render("Inline {{ energy_costs }} stays text.\n")
    assert "macro-table" not in out.html
    assert "{{ energy_costs }}" in out.html


XSS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD4=)",
    '<iframe src="https://evil.example/"></iframe>',
    "<style>body{display:none}</style>",
    '<p style="color:red" onclick="x()">hi</p>',
    "![x](javascript:alert(1))",
    "[[energy|<script>alert(1)</script>]]",
    "[[card:1|<img src=x onerror=alert(1)>]]",
    '## <img src=x onerror="alert(1)">',
    "<svg onload=alert(1)>",
    '<a href="vbscript:msgbox(1)">x</a>',
]


@pytest.mark.parametrize("payload", XSS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_untrusted_markup_never_becomes_live_html(payload, lang):
    html = render(f"Текст / text\n\n{payload}\n\n::: note\n{payload}\n:::\n", lang).html
    assert live_html_problems(html) == [], html


def test_the_checker_sees_live_html():
    assert live_html_problems(
        '<p onclick="x">a</p><a href="javascript:1">b</a><script></script>'
    ) == [
        "p[onclick]",
        "a[href=javascript:1]",
        "<script>",
    ]


def test_the_sanitiser_strips_what_the_renderer_never_produces():
    dirty = (
        '<h2 id="a" onclick="x()">t</h2><div class="callout evil" style="x">'
        '<a href="javascript:alert(1)" class="wikilink other">l</a></div><script>1</script>'
    )
    clean = sanitize(dirty)
    assert clean == '<h2 id="a">t</h2><div class="callout"><a class="wikilink">l</a></div>'


def test_every_macro_renders_in_both_languages_without_error():
    from wiki.macros import get_macro, registered_macros, render_macro

    for lang in ("en", "ru"):
        with translation.override(lang):
            for name in registered_macros():
                macro = get_macro(name)
                if macro.live:
                    continue
                html = render_macro(macro, None)
                assert "macro-error" not in html, (name, lang, html)
                assert "<table" in html, name
