"""The Markdown renderer: headings and anchors, callouts, links, macros, sanitising."""

import doctest

import pytest
from django.utils import translation

import core.anchors
import wiki.diff
import wiki.importing
import wiki.macros
import wiki.macros.registry
import wiki.rendering
import wiki.search
import wiki.search.index
import wiki.search.query
import wiki.validation
from wiki.rendering import (
    StaticResolver,
    extract_headings,
    macro_calls,
    render_markdown,
    sanitize,
)

from .htmlcheck import live_html_problems

TITLES = {"energy": "Energy", "roles": "Roles"}


def render(text: str, lang: str = "en", **kwargs):
    resolver = StaticResolver(TITLES, url_lang=lang)
    return render_markdown(text, lang=lang, resolver=resolver, **kwargs)


@pytest.mark.parametrize(
    "module",
    [
        wiki.rendering,
        wiki.search,
        wiki.search.index,
        wiki.search.query,
        wiki.diff,
        wiki.importing,
        wiki.macros,
        wiki.macros.registry,
        core.anchors,
        wiki.validation,
    ],
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


def test_an_unknown_macro_inside_a_paragraph_is_a_visible_error_not_text():
    out = render("A sentence with {{ no_such_macro }} inside it.\n")
    assert out.unknown_macros == ("no_such_macro",)
    assert '<span class="macro-error">Unknown macro: no_such_macro</span>' in out.html
    assert "{{" not in out.html


def test_macro_calls_find_inline_ones_with_their_line_but_not_in_code():
    text = "Intro\n\nOne\ntwo {{ a_b x }} and `{{ c }}`\n\n```\n{{ d }}\n```\n\n{{ e }}\n"
    calls = macro_calls(text)
    assert [(c.line, c.name, c.arg, c.inline) for c in calls] == [
        (4, "a_b", "x", True),
        (10, "e", None, False),
    ]


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


# -- linear parsing: the pathological inputs -----------------------------------------------

import re as _re  # noqa: E402
import time  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wiki.limits import MAX_LINE_CHARS, MAX_MACROS  # noqa: E402
from wiki.rendering import match_wikilink, parse_link_target, parse_macro_line  # noqa: E402

# The patterns the renderer used before it parsed by hand: kept here as the reference the
# string parsing must agree with (on short inputs, where backtracking costs nothing).
OLD_MACRO_LINE = _re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+([^{}]*?))?\s*\}\}\s*")
OLD_WIKILINK = _re.compile(r"\[\[([^\[\]\n|]+?)(?:\|([^\[\]\n]*?))?\]\]")


def seconds(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


# Each took seconds to minutes before: the macro-line pattern backtracked in cubic time
# ({{ a + 4,000 spaces + x: 37 s). A generous bound on CPU time (not wall time, which a
# busy machine stretches), only to catch that kind of growth.
PATHOLOGICAL = [
    "{{ a" + " " * 4000 + "x",
    "{{ a " + " " * 4000,
    "{{ a" + "\t " * 2000 + "}",
    "{{" + " a" * 2000,
    "[[a|" + "x" * 4000,
    "[[" * 1000,
    "[[a|" * 500,
    "![" * 1000,
    "*a" * 1000,
    "[a](" * 500,
]


@pytest.mark.parametrize("text", PATHOLOGICAL, ids=lambda t: f"{t[:8]!r}×{len(t)}")
def test_pathological_lines_render_quickly(text):
    assert seconds(lambda: render(text)) < 3.0
    assert seconds(lambda: render("\n".join([text[:MAX_LINE_CHARS]] * 5))) < 3.0


def test_the_reported_line_is_text_not_a_macro():
    out = render("{{ a" + " " * 4000 + "x")
    assert "macro" not in out.html and out.html.startswith("<p>{{ a")


@given(st.text(alphabet="{} \taZ_9|x-é", max_size=24))
def test_macro_lines_parse_as_the_old_pattern_did(line):
    old = OLD_MACRO_LINE.fullmatch(line.lstrip(" "))
    expected = (old.group(1), (old.group(2) or "").strip() or None) if old else None
    assert parse_macro_line(line.lstrip(" ")) == expected


@given(st.text(alphabet="[]|\n a#:1", max_size=24), st.integers(0, 24))
def test_wiki_links_parse_as_the_old_pattern_did(text, pos):
    stop = len(text)
    old = OLD_WIKILINK.match(text, pos)
    expected = (old.end(), old.group(1), old.group(2)) if old and old.end() <= stop else None
    assert match_wikilink(text, pos, stop) == expected


def test_a_page_draws_at_most_its_share_of_tables():
    text = "\n\n".join(["{{ energy_costs }}"] * (MAX_MACROS + 2))
    html = render(text).html
    assert html.count('<table class="macro-table">') == MAX_MACROS
    assert html.count('class="macro-error"') == 2 and "at most 20 tables" in html


def test_card_links_take_ascii_digits_only():
    assert parse_link_target("card: 42").card == 42
    assert parse_link_target("card:٤٢").card is None
    assert parse_link_target("card:" + "9" * 13).card is None


def _repeats(items) -> list:
    """The repeat nodes (*, +, ?, {m,n}) directly in a parsed pattern's sequence."""
    return [arg for op, arg in items if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT)]


def _flat(items) -> list:
    """A parsed sequence with its (unquantified) groups spliced in."""
    flat = []
    for op, arg in items:
        if op is _sre.SUBPATTERN:
            flat += _flat(arg[-1])
        else:
            flat.append((op, arg))
    return flat


def _is_simple(items) -> bool:
    """At most one quantifier per branch, quantifying a single character class or
    literal: such a pattern is matched in linear time whatever the input."""
    items = _flat(items)
    branches = [items]
    for op, arg in items:
        if op is _sre.BRANCH:
            if len(items) > 1:
                return False
            branches = [_flat(b) for b in arg[1]]
    for branch in branches:
        repeats = _repeats(branch)
        if len(repeats) > 1:
            return False
        for _low, _high, inner in repeats:
            if len(inner) != 1 or inner[0][0] not in (_sre.IN, _sre.LITERAL, _sre.NOT_LITERAL):
                return False
    return True


import importlib  # noqa: E402
import pkgutil  # noqa: E402
import re._constants as _sre  # noqa: E402
import re._parser as _re_parser  # noqa: E402


def _wiki_patterns():
    import wiki

    for info in pkgutil.walk_packages(wiki.__path__, "wiki."):
        if ".migrations" in info.name or ".management" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, _re.Pattern):
                yield f"{info.name}.{name}", value


def test_every_pattern_in_the_wiki_is_linear():
    """The macro line once backtracked in cubic time; no pattern of the wiki may nest or
    chain quantifiers again (the wiki's own syntax is parsed with string operations)."""
    found = dict(_wiki_patterns())
    assert "wiki.search.query.WORD" in found
    assert [
        name for name, p in found.items() if not _is_simple(list(_re_parser.parse(p.pattern)))
    ] == []
    assert not _is_simple(list(_re_parser.parse(OLD_MACRO_LINE.pattern)))
    assert not _is_simple(list(_re_parser.parse(OLD_WIKILINK.pattern)))
