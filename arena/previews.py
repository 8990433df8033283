"""A slab's link preview: its tags' text and its 1200×630 picture (``core.previews``)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from core.labels import label
from core.previews import LinkPreview, preview_svg

from . import presenters
from .art import TIER_COLOURS
from .selectors import SlabDay


def slab_kind(d: SlabDay) -> str:
    """ "Grade 9.5 · Sun · Rare"."""
    tier = label(d.stats.tier) if d.stats else _("no value")
    return _("Grade %(grade)s · %(element)s · %(tier)s") % {
        "grade": presenters.grade_text(d.row.grade),
        "element": label(d.element),
        "tier": tier,
    }


def slab_description(d: SlabDay) -> str:
    if d.stats is None:
        return _("No insured value yet, so no arena stats.")
    s = d.stats
    return _("%(hp)s HP, attack %(attack)s, armor %(armor)s on an insured value of $%(value)s.") % {
        "hp": s.hp,
        "attack": s.attack,
        "armor": s.armor,
        "value": s.value,
    }


def slab_title(d: SlabDay) -> str:
    return f"{d.row.name} ({d.asset_id})"


def slab_preview(d: SlabDay) -> LinkPreview:
    """The slab page's preview (today's stats: the page's own address shows today)."""
    return LinkPreview(
        title=slab_title(d),
        description=f"{slab_kind(d)} — {slab_description(d)}",
        image=presenters.slab_url(d.asset_id) + "preview.png",
        image_alt=presenters.art_of(d).title,
        kind="article",
        oembed=True,
    )


def slab_preview_svg(d: SlabDay) -> str:
    picture = render_to_string("arena/partials/slab_case.svg.html", {"art": presenters.art_of(d)})
    colours = TIER_COLOURS.get(d.stats.tier) if d.stats else None
    return preview_svg(
        picture,
        slab_title(d),
        slab_kind(d),
        slab_description(d),
        accent=colours[0] if colours else "#5b6670",
        site=_("Card Codex · Slab arena"),
        picture_ratio=200 / 280,
    )
