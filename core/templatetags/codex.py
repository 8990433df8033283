"""Template helpers shared by the site's apps."""

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.template.loader_tags import BlockNode
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe

from core.forms import shorten
from core.labels import enum_label

register = template.Library()


@register.filter
def echo(value: object) -> str:
    """What a visitor typed, as a heading or a sentence repeats it: shortened with "…"."""
    return shorten(value)


@register.filter
def label(value: object, kind: str) -> str:
    """The translated name of an engine enum value: ``{{ card.rarity|label:"rarity" }}``."""
    return enum_label(kind, str(getattr(value, "value", value)) if value is not None else None)


@register.simple_tag
def card_art(art: object) -> str:
    """A card's picture (``explorer.art.CardArt``) as inline SVG: the one Jinja2 template
    ``explorer/partials/card_art.svg``, which the card page and the picture file use too."""
    return mark_safe(
        render_to_string("explorer/partials/card_art.svg", {"art": art}, using="jinja2")
    )


@register.simple_tag
def card_tiles(cards: object) -> str:
    """Cards (``explorer.presenters.CardRow``) as the small tiles of the home page and the
    site search: the Jinja2 ``explorer/partials/card_tiles.html``, whose tile is the card
    list's too."""
    return mark_safe(
        render_to_string("explorer/partials/card_tiles.html", {"cards": cards}, using="jinja2")
    )


@register.filter
def card_title(name: str, token: int) -> str:
    """A card's name with its token, once: "Sprocket #23" (demo names already carry it)."""
    suffix = f"#{token}"
    return name if str(name).endswith(suffix) else f"{name} {suffix}"


# ---------------------------------------------------------------------------
# {% fragment_once %}: the layout's parts that depend only on their arguments


_FRAGMENTS: dict[tuple, str] = {}
_MAX_FRAGMENTS = 256  # (fragment, language, section…) combinations: a few dozen in fact


class FragmentOnceNode(template.Node):
    # Not searched for nodes (a child template's {% extends %} walks its layout's whole
    # tree for {% block %}s on every render): the markup inside holds no block (checked
    # when it is parsed), and it is frozen anyway.
    child_nodelists = ()

    def __init__(self, name: str, nodelist: template.NodeList, vary_on: list) -> None:
        self.name = name
        self.nodelist = nodelist
        self.vary_on = vary_on

    def render(self, context: template.Context) -> str:
        if settings.DEBUG:  # the development server: templates change under it
            return self.nodelist.render(context)
        key = (self.name, get_script_prefix(), *(str(v.resolve(context)) for v in self.vary_on))
        html = _FRAGMENTS.get(key)
        if html is None:
            html = self.nodelist.render(context)
            if len(_FRAGMENTS) >= _MAX_FRAGMENTS:
                _FRAGMENTS.clear()
            _FRAGMENTS[key] = html
        return html


@register.tag
def fragment_once(parser: template.base.Parser, token: template.base.Token) -> FragmentOnceNode:
    """``{% fragment_once "header" LANGUAGE_CODE nav_section %}…{% endfragment_once %}``:
    the enclosed markup rendered once per process for each value of its arguments — for the
    layout's header and footer, which read nothing but the language, the section and the
    URLs (no data, no request). Unlike ``{% cache %}`` it never asks the cache backend (a
    Redis round trip would cost more than rendering them); a process starts afresh with
    each deploy, which is when the markup or the translations change.

    Only for markup that depends on nothing else: a variable read inside that is not an
    argument is frozen at its first value. (Off with DEBUG, where templates change under
    the running server.)
    """
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"{bits[0]} needs a quoted name first")
    nodelist = parser.parse(("endfragment_once",))
    parser.delete_first_token()
    if nodelist.get_nodes_by_type(BlockNode):
        raise template.TemplateSyntaxError(f"{bits[0]} cannot hold a {{% block %}}")
    vary_on = [parser.compile_filter(bit) for bit in bits[2:]]
    return FragmentOnceNode(bits[1][1:-1], nodelist, vary_on)
