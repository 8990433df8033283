"""Markdown → safe HTML for wiki pages, with the wiki's own conventions.

Supported on top of CommonMark: GFM tables and strikethrough; ``##``/``###`` headings
with stable ids (and, on a translation, an alias id equal to the English heading's id at
the same position, so ``/ru/wiki/rarities/#wardrobe-score`` works); callouts
``::: note`` / ``::: under-the-hood`` … ``:::``; wiki links ``[[slug]]``,
``[[slug|text]]``, ``[[slug#anchor|text]]``; card links ``[[card:123]]``; and macros
``{{ name }}`` / ``{{ name arg }}`` alone on a line (see ``wiki.macros``). Inside a
paragraph a macro draws nothing: a known one stays text, an unknown one is an error (the
editor refuses it with the same message as on its own line).

Raw HTML in the Markdown is never passed through, and the final HTML is sanitised with
nh3 against an allow-list of exactly what this renderer produces: staff-written text is
untrusted too. The wiki's own syntax is read with plain string operations (no regular
expression that could backtrack), so rendering time grows with the text's length and
nothing else; ``wiki.limits`` bounds that length.

>>> from wiki.rendering import StaticResolver, render_markdown
>>> out = render_markdown("## Hello *world*\\n\\nSee [[rarities]].", lang="en",
...                       resolver=StaticResolver({"rarities": "Rarities"}))
>>> out.html
'<h2 id="hello-world">Hello <em>world</em></h2>\\n<p>See <a href="/en/wiki/rarities/" class="wikilink">Rarities</a>.</p>\\n'
>>> out.headings
(Heading(level=2, id='hello-world', text='Hello world'),)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import nh3
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.text import slugify
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin

from . import macros
from .limits import MAX_MACROS

logger = logging.getLogger(__name__)

CALLOUTS = ("note", "under-the-hood")

# ---------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of a page: its level (2 or deeper), its id and its plain text."""

    level: int
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class WikiLink:
    """A ``[[…]]`` link as written: a page slug (with an optional anchor) or a card token."""

    slug: str
    anchor: str | None = None
    text: str | None = None
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Rendered:
    """The rendered body: sanitised HTML plus what the renderer found on the way.

    ``html`` may still hold placeholders for live macros (``live_macros``), filled in by
    ``fill_live_macros`` on every view so their data is never stale.
    """

    html: str
    headings: tuple[Heading, ...]
    missing_links: tuple[WikiLink, ...]
    unknown_macros: tuple[str, ...]
    live_macros: tuple[tuple[str, str | None], ...]


class LinkResolver(Protocol):
    """What the renderer needs to know about other pages and where links go."""

    def page_title(self, slug: str, lang: str) -> str | None:
        """The title of a published page in ``lang`` (English if untranslated), else None."""

    def page_url(self, slug: str, anchor: str | None) -> str:
        """The URL of a page (with ``#anchor`` when given)."""

    def card_url(self, token: int) -> str:
        """The URL of a card's page in the explorer."""


class UrlResolver:
    """URLs in one language; page titles from a ``{slug: {lang: title}}`` mapping."""

    def __init__(self, titles: Mapping[str, Mapping[str, str]], url_lang: str) -> None:
        self.titles = titles
        self.url_lang = url_lang

    def page_title(self, slug: str, lang: str) -> str | None:
        by_lang = self.titles.get(slug)
        if by_lang is None:
            return None
        return by_lang.get(lang) or by_lang.get("en") or slug

    def page_url(self, slug: str, anchor: str | None) -> str:
        with translation.override(self.url_lang):
            url = reverse("wiki:page", kwargs={"slug": slug})
        return f"{url}#{anchor}" if anchor else url

    def card_url(self, token: int) -> str:
        with translation.override(self.url_lang):
            try:
                return reverse("explorer:card-detail", kwargs={"token": token})
            except NoReverseMatch:
                # The explorer's card page may not be routed yet; its path is fixed.
                return f"/{self.url_lang}/cards/{token}/"


class StaticResolver(UrlResolver):
    """Titles from a plain ``{slug: title}`` mapping (tests, previews, doctests)."""

    def __init__(self, titles: Mapping[str, str], url_lang: str = "en") -> None:
        super().__init__({slug: {"en": title} for slug, title in titles.items()}, url_lang)


# ---------------------------------------------------------------------------
# Parsing rules

_MAX_CARD_DIGITS = 12
_ALIGNMENTS = ("left", "center", "right")


def _is_macro_name(name: str) -> bool:
    """``[A-Za-z_][A-Za-z0-9_]*``, checked without a regular expression."""
    return (
        bool(name)
        and name.isascii()
        and not name[0].isdigit()
        and all(c.isalnum() or c == "_" for c in name)
    )


def parse_macro_line(line: str) -> tuple[str, str | None] | None:
    """``(name, arg)`` when ``line`` is a macro line ``{{ name [arg] }}``, else None.

    >>> parse_macro_line("{{ template_stats iron_pup }}  ")
    ('template_stats', 'iron_pup')
    >>> parse_macro_line("{{energy_costs}}"), parse_macro_line("{{ a" + " " * 4000 + "x")
    (('energy_costs', None), None)
    """
    line = line.rstrip()
    if not (line.startswith("{{") and line.endswith("}}")) or len(line) < 5:
        return None
    inner = line[2:-2]
    if "{" in inner or "}" in inner:
        return None
    parts = inner.split(None, 1)
    if not parts or not _is_macro_name(parts[0]):
        return None
    arg = parts[1].strip() if len(parts) > 1 else ""
    return parts[0], arg or None


def _macro_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("{{", start):
        return False
    parsed = parse_macro_line(state.src[start : state.eMarks[start_line]])
    if parsed is None:
        return False
    if silent:
        return True
    token = state.push("wiki_macro", "div", 0)
    token.block = True
    token.map = [start_line, start_line + 1]
    token.meta = {"name": parsed[0], "arg": parsed[1]}
    state.line = start_line + 1
    return True


#: How far an inline ``{{ … }}`` may run before its ``}}`` (a macro line is short).
_MAX_INLINE_MACRO = 200


def _macro_inline(state: StateInline, silent: bool) -> bool:
    """``{{ name [arg] }}`` inside a paragraph, a heading or a table cell (never in code:
    code spans and blocks are not parsed inline)."""
    src, pos = state.src, state.pos
    if not src.startswith("{{", pos):
        return False
    stop = min(state.posMax, pos + _MAX_INLINE_MACRO)
    end = src.find("}}", pos + 2, stop)
    if end < 0 or "\n" in src[pos:end]:
        return False
    end += 2
    parsed = parse_macro_line(src[pos:end])
    if parsed is None:
        return False
    if not silent:
        token = state.push("wiki_macro_inline", "", 0)
        token.content = src[pos:end]
        token.meta = {"name": parsed[0], "arg": parsed[1], "line": src.count("\n", 0, pos)}
    state.pos = end
    return True


# One character, no quantifier: a search for it is a single forward scan.
_LINK_STOP = re.compile(r"[\[\]\n]")


def _wikilink_end(src: str, start: int, stop: int) -> int | None:
    """Where the ``]]`` closing a wiki link opened just before ``start`` is, or None.

    A wiki link holds no bracket and no line break, so the first of those ends it: one
    scan that stops there, never a backtrack.
    """
    found = _LINK_STOP.search(src, start, stop)
    if found is None or not src.startswith("]]", found.start()) or found.start() + 2 > stop:
        return None
    return found.start()


def match_wikilink(src: str, pos: int, stop: int) -> tuple[int, str, str | None] | None:
    """The wiki link ``[[target|text]]`` at ``src[pos]``: (where it ends, target, text or
    None), or None when there is none before ``stop``.

    >>> match_wikilink("See [[roles#ties|the ties]].", 4, 28)
    (27, 'roles#ties', 'the ties')
    """
    if not src.startswith("[[", pos):
        return None
    end = _wikilink_end(src, pos + 2, stop)
    if end is None:
        return None
    target, sep, text = src[pos + 2 : end].partition("|")
    if not target:
        return None
    return end + 2, target, text if sep else None


def _wikilink_inline(state: StateInline, silent: bool) -> bool:
    found = match_wikilink(state.src, state.pos, state.posMax)
    if found is None:
        return False
    end, target, text = found
    if not silent:
        token = state.push("wikilink", "", 0)
        token.meta = {"link": parse_link_target(target, text)}
    state.pos = end
    return True


def _card_token(target: str) -> int | None:
    """``card:123`` → 123 (ASCII digits, at most ``_MAX_CARD_DIGITS``), else None."""
    if not target.startswith("card:"):
        return None
    digits = target[5:].lstrip()
    if digits.isascii() and digits.isdigit() and len(digits) <= _MAX_CARD_DIGITS:
        return int(digits)
    return None


def parse_link_target(target: str, text: str | None = None) -> WikiLink:
    """``"slug#anchor"`` or ``"card:123"`` (and an optional text) as a ``WikiLink``.

    >>> parse_link_target(" Roles#Ties ", "the ties"), parse_link_target("card:7").card
    (WikiLink(slug='roles', anchor='Ties', text='the ties', card=None), 7)
    """
    target = target.strip()
    text = text.strip() if text and text.strip() else None
    card = _card_token(target)
    if card is not None:
        return WikiLink(slug="", text=text, card=card)
    slug, _sep, anchor = target.partition("#")
    return WikiLink(slug=slug.strip().lower(), anchor=anchor.strip() or None, text=text)


def _inline_text(token: Token) -> str:
    """The plain text of an inline token (text, code and link texts; no markup)."""
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline", "wiki_macro_inline"):
            parts.append(child.content)
        elif child.type == "wikilink":
            link: WikiLink = child.meta["link"]
            parts.append(link.text or link.slug.replace("-", " "))
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()


def _headings_rule(state: StateCore) -> None:
    """Give headings ids (``#`` becomes ``<h2>``: the page title is the only ``<h1>``)."""
    ctx: _Context = state.env.setdefault("wiki", _Context())
    used: set[str] = set()
    found: list[tuple[Token, Heading]] = []
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            if token.tag == "h1":
                token.tag = "h2"
                tokens[i + 2].tag = "h2"
            text = _inline_text(tokens[i + 1])
            base = slugify(text, allow_unicode=True) or "section"
            anchor, n = base, 2
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            token.attrSet("id", anchor)
            found.append((token, Heading(int(token.tag[1]), anchor, text)))
        elif token.type in ("th_open", "td_open"):
            style = token.attrGet("style")
            if style:
                token.attrs.pop("style", None)
                # markdown-it writes exactly "text-align:<left|center|right>".
                align = str(style).partition("text-align:")[2].strip().rstrip(";")
                if align in _ALIGNMENTS:
                    token.attrSet("class", f"align-{align}")
    # Aliases: the English heading ids at the same positions (see module docstring).
    source = ctx.alias_source
    if source:
        own_levels = [h.level for _t, h in found]
        if own_levels == [h.level for h in source]:
            pairs = list(zip(found, source, strict=True))
        else:
            own_h2 = [item for item in found if item[1].level == 2]
            src_h2 = [h for h in source if h.level == 2]
            pairs = list(zip(own_h2, src_h2, strict=True)) if len(own_h2) == len(src_h2) else []
        for (token, _heading), src in pairs:
            if src.id not in used:
                used.add(src.id)
                token.meta["alias"] = src.id
    ctx.headings = [h for _t, h in found]


def _build_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.block.ruler.before(
        "paragraph",
        "wiki_macro",
        _macro_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.inline.ruler.before("link", "wikilink", _wikilink_inline)
    md.inline.ruler.before("link", "wiki_macro_inline", _macro_inline)
    md.core.ruler.push("wiki_headings", _headings_rule)
    for name in CALLOUTS:
        container_plugin(md, name, render=_render_callout)
    md.add_render_rule("wiki_macro", _render_macro)
    md.add_render_rule("wiki_macro_inline", _render_macro_inline)
    md.add_render_rule("wikilink", _render_wikilink)
    md.add_render_rule("heading_open", _render_heading_open)
    md.add_render_rule("table_open", lambda *a: '<div class="table-wrap"><table>\n')
    md.add_render_rule("table_close", lambda *a: "</table></div>\n")
    return md


# ---------------------------------------------------------------------------
# Rendering rules


@dataclass
class _Context:
    """Per-render state, carried in markdown-it's ``env``."""

    lang: str = "en"
    resolver: LinkResolver | None = None
    alias_source: Sequence[Heading] = ()
    headings: list[Heading] = field(default_factory=list)
    missing: list[WikiLink] = field(default_factory=list)
    unknown_macros: list[str] = field(default_factory=list)
    live_macros: list[tuple[str, str | None]] = field(default_factory=list)
    macros_drawn: int = 0


def _ctx(env: Any) -> _Context:
    return env["wiki"]


def _render_heading_open(self, tokens: Sequence[Token], idx: int, options, env) -> str:
    html = self.renderToken(tokens, idx, options, env)
    alias = tokens[idx].meta.get("alias")
    if alias:
        html += format_html('<span id="{}" class="anchor-alias"></span>', alias)
    return html


def _render_callout(self, tokens: Sequence[Token], idx: int, options, env) -> str:
    token = tokens[idx]
    if token.nesting != 1:
        return "</div>\n"
    kind = token.info.strip().split(" ", 1)[0]
    title = _("Under the hood") if kind == "under-the-hood" else _("Note")
    return format_html(
        '<div class="callout callout-{}" role="note">\n<p class="callout-title">{}</p>\n',
        kind,
        title,
    )


def _render_macro(self, tokens: Sequence[Token], idx: int, options, env) -> str:
    ctx = _ctx(env)
    name, arg = tokens[idx].meta["name"], tokens[idx].meta["arg"]
    ctx.macros_drawn += 1
    if ctx.macros_drawn > MAX_MACROS:
        message = _("A page may show at most %(n)s tables; “%(name)s” is not drawn.")
        return macros.error_box(message % {"n": MAX_MACROS, "name": name}) + "\n"
    macro = macros.get_macro(name)
    if macro is None:
        ctx.unknown_macros.append(name)
        return macros.error_box(_("Unknown macro: %(name)s") % {"name": name}) + "\n"
    if macro.live:
        ctx.live_macros.append((name, arg))
        return f'<div class="live-macro" title="{len(ctx.live_macros) - 1}"></div>\n'
    return macros.render_macro(macro, arg) + "\n"


def _render_macro_inline(self, tokens: Sequence[Token], idx: int, options, env) -> str:
    """A known macro inside a paragraph stays text; an unknown one is a visible error."""
    token = tokens[idx]
    name = token.meta["name"]
    if macros.get_macro(name) is not None:
        return escape(token.content)
    _ctx(env).unknown_macros.append(name)
    return format_html(
        '<span class="macro-error">{}</span>', _("Unknown macro: %(name)s") % {"name": name}
    )


def _render_wikilink(self, tokens: Sequence[Token], idx: int, options, env) -> str:
    ctx = _ctx(env)
    link: WikiLink = tokens[idx].meta["link"]
    resolver = ctx.resolver
    assert resolver is not None
    if link.card is not None:
        text = link.text or _("Card #%(token)s") % {"token": link.card}
        return format_html(
            '<a href="{}" class="card-link">{}</a>', resolver.card_url(link.card), text
        )
    title = resolver.page_title(link.slug, ctx.lang)
    text = link.text or title or link.slug
    if title is None:
        ctx.missing.append(link)
        return format_html(
            '<span class="wikilink-missing" title="{}">{}'
            '<span class="visually-hidden"> ({})</span></span>',
            _("This page has not been written yet"),
            text,
            _("page not written yet"),
        )
    return format_html(
        '<a href="{}" class="wikilink">{}</a>', resolver.page_url(link.slug, link.anchor), text
    )


_MD = _build_parser()

# ---------------------------------------------------------------------------
# Sanitising

_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
ALLOWED_TAGS = {
    *_HEADINGS,
    *("p", "br", "hr", "strong", "em", "s", "del", "code", "pre", "blockquote"),
    *("ul", "ol", "li", "table", "caption", "thead", "tbody", "tr", "th", "td"),
    *("a", "img", "div", "span", "sup", "sub", "abbr"),
}
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    **{tag: {"id"} for tag in _HEADINGS},
    "a": {"href", "title", "hreflang"},
    "img": {"src", "alt", "title"},
    "span": {"id", "title", "lang"},
    "div": {"role", "title"},
    "th": {"scope", "colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
    "ol": {"start"},
    "abbr": {"title"},
}
ALLOWED_CLASSES: dict[str, set[str]] = {
    "a": {"wikilink", "card-link"},
    "span": {"wikilink-missing", "visually-hidden", "anchor-alias", "rarity", "macro-error"}
    | {f"rarity-{r}" for r in ("free", "common", "rare", "epic", "legendary")},
    "div": {"callout", "callout-note", "callout-under-the-hood", "table-wrap", "macro"}
    | {"macro-error", "live-macro"},
    "p": {"callout-title", "macro-caption"},
    "table": {"macro-table"},
    "th": {"num", "align-left", "align-center", "align-right"},
    "td": {"num", "align-left", "align-center", "align-right"},
}
ALLOWED_SCHEMES = {"http", "https", "mailto"}


def sanitize(html: str) -> str:
    """Keep only what the renderer produces; drop scripts, styles, frames, handlers, bad URLs."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
        attributes=ALLOWED_ATTRIBUTES,
        allowed_classes=ALLOWED_CLASSES,
        url_schemes=ALLOWED_SCHEMES,
        link_rel=None,
        strip_comments=True,
    )


# ---------------------------------------------------------------------------
# Public API


def render_markdown(
    text: str,
    *,
    lang: str,
    resolver: LinkResolver,
    alias_source: Sequence[Heading] = (),
) -> Rendered:
    """Render ``text`` written in ``lang``; ``alias_source`` = the English page's headings."""
    ctx = _Context(lang=lang, resolver=resolver, alias_source=alias_source)
    with translation.override(lang):
        html = _MD.render(text or "", {"wiki": ctx})
    return Rendered(
        html=sanitize(html),
        headings=tuple(ctx.headings),
        missing_links=tuple(ctx.missing),
        unknown_macros=tuple(ctx.unknown_macros),
        live_macros=tuple(ctx.live_macros),
    )


_PLACEHOLDER = re.compile(r'<div class="live-macro" title="([0-9]+)"></div>')


#: What live macros read: their tables are kept until one of these versions changes.
LIVE_DEPENDS_ON = ("cards", "balance", "packs", "arena")
LIVE_CACHE_SECONDS = 60 * 60


def fill_live_macros(html: str, live: Sequence[tuple[str, str | None]], lang: str) -> str:
    """Replace live macro placeholders with their rendered (and sanitised) tables, each
    kept in the cache per (macro, argument, language) until the data it reads changes."""
    if not live:
        return html
    from core.memo import shared

    def replace(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if index >= len(live):
            return ""
        name, arg = live[index]
        return shared(
            "wiki:live",
            LIVE_DEPENDS_ON,
            ("1", name, arg or "", lang),
            lambda: _render_live(name, arg, lang),
            LIVE_CACHE_SECONDS,
        )

    return _PLACEHOLDER.sub(replace, html)


def _render_live(name: str, arg: str | None, lang: str) -> str:
    macro = macros.get_macro(name)
    with translation.override(lang):
        if macro is None:
            return sanitize(macros.error_box(_("Unknown macro: %(name)s") % {"name": name}))
        return sanitize(macros.render_macro(macro, arg))


def _parse(text: str, alias_source: Sequence[Heading] = ()) -> tuple[list[Token], _Context]:
    ctx = _Context(alias_source=alias_source)
    tokens = _MD.parse(text or "", {"wiki": ctx})
    return tokens, ctx


def extract_headings(text: str) -> tuple[Heading, ...]:
    """The headings of a Markdown text with the ids the renderer gives them."""
    _tokens, ctx = _parse(text)
    return tuple(ctx.headings)


def anchor_ids(text: str, alias_source: Sequence[Heading] = ()) -> set[str]:
    """Every id a link may point at on a page: heading ids and their aliases."""
    tokens, ctx = _parse(text, alias_source)
    ids = {h.id for h in ctx.headings}
    ids.update(t.meta["alias"] for t in tokens if t.type == "heading_open" and t.meta.get("alias"))
    return ids


def extract_links(text: str) -> tuple[WikiLink, ...]:
    """Every ``[[…]]`` link in a Markdown text, in order."""
    tokens, _unused = _parse(text)
    return tuple(
        child.meta["link"]
        for token in tokens
        if token.type == "inline"
        for child in token.children or ()
        if child.type == "wikilink"
    )


@dataclass(frozen=True, slots=True)
class MacroCall:
    """A macro of a text: its line number (from 1), the macro's name and argument, and
    whether it stands inside a paragraph (``inline``) rather than on a line of its own."""

    line: int
    name: str
    arg: str | None
    inline: bool = False


def macro_calls(text: str) -> tuple[MacroCall, ...]:
    """Every macro of a Markdown text outside code, on its own line or inside a paragraph,
    in order, with its line number."""
    tokens, _unused = _parse(text)
    calls: list[MacroCall] = []
    line = 0
    for t in tokens:
        if t.map:
            line = t.map[0] + 1
        if t.type == "wiki_macro":
            calls.append(MacroCall(line, t.meta["name"], t.meta["arg"]))
        elif t.type == "inline":
            calls.extend(
                MacroCall(line + c.meta["line"], c.meta["name"], c.meta["arg"], inline=True)
                for c in t.children or ()
                if c.type == "wiki_macro_inline"
            )
    return tuple(calls)


def extract_macros(text: str) -> tuple[tuple[str, str | None], ...]:
    """Every macro of a Markdown text (outside code) as ``(name, arg)``, in order."""
    return tuple((call.name, call.arg) for call in macro_calls(text))


@dataclass(frozen=True, slots=True)
class MarkdownLink:
    """A Markdown link ``[text](href)`` as written, with the line it starts on (from 1)."""

    line: int
    href: str
    text: str


def extract_markdown_links(text: str) -> tuple[MarkdownLink, ...]:
    """Every ``[text](href)`` link of a Markdown text (wiki links and images left out)."""
    tokens, _unused = _parse(text)
    found: list[MarkdownLink] = []
    for token in tokens:
        if token.type != "inline":
            continue
        line = token.map[0] + 1 if token.map else 0
        children = token.children or []
        for i, child in enumerate(children):
            if child.type != "link_open":
                continue
            words = []
            for inner in children[i + 1 :]:
                if inner.type == "link_close":
                    break
                if inner.type in ("text", "code_inline"):
                    words.append(inner.content)
            found.append(MarkdownLink(line, str(child.attrGet("href") or ""), "".join(words)))
    return tuple(found)


def plain_text(text: str) -> str:
    """The readable words of a Markdown text, one block per line (search and snippets)."""
    tokens, _unused = _parse(text)
    return "\n".join(
        line for token in tokens if token.type == "inline" if (line := _inline_text(token))
    )
