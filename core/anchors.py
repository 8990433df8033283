"""Where the rules are explained: stable (page slug, section anchor) pairs for other apps.

The explorer links a breakdown's lines to the wiki section that explains them. Anchors
are the English heading ids; Russian pages carry them as aliases, so one anchor works
in both languages: ``/ru/wiki/rarities/#wardrobe-score``. A test checks that every
section named here exists in the shipped pages, in both languages.

>>> RULE_SECTIONS["wardrobe_score"]
('rarities', 'wardrobe-score')
"""

from __future__ import annotations

from django.urls import reverse

#: Rarity rule keys (engine.data.RULE_KEYS and "starter") → their section.
RULE_SECTIONS: dict[str, tuple[str, str]] = {
    "supply_count": ("rarities", "supply-count"),
    "wardrobe_score": ("rarities", "wardrobe-score"),
    "tier_badge": ("rarities", "tier-badge"),
    "burned_stickers": ("rarities", "burned-stickers"),
    "god_premium": ("rarities", "god-and-premium-attributes"),
    "combo": ("rarities", "special-combos"),
    "getgems_rank": ("rarities", "getgems-rank-floor"),
    "starter": ("rarities", "starter-cards"),
}

#: The other parts of a card breakdown → their section.
TOPIC_SECTIONS: dict[str, tuple[str, str]] = {
    "rarity": ("rarities", "how-rarity-is-decided"),
    "role": ("roles", "role-votes"),
    "role_tie_break": ("roles", "ties"),
    "role_hash": ("roles", "hash-fallback"),
    "skill": ("skills", "scoring"),
    "skill_keywords": ("skills", "keyword-affinity"),
    "skill_tie_break": ("skills", "tie-breaks"),
    "skill_role_default": ("skills", "no-keyword-the-role-default"),
    "active_skill": ("skills", "active-skill"),
    "temporary_skill": ("skills", "temporary-cards"),
    "template": ("roles", "templates"),
    "stats": ("stats", "stat-layers"),
    "effects": ("effects", "signature-effects"),
    "fill_order": ("effects", "fill-order"),
    "energy": ("energy", "deploy-costs"),
    "undercharge": ("energy", "undercharge"),
    "tiers": ("attribute-tiers", "where-tiers-matter"),
    "stickers": ("stickers", "rarity-from-stickers"),
    "hero_hp": ("hero-lives", "starting-hero-hp"),
    "shield": ("shield-def", "how-def-works"),
}


def section_url(slug: str, anchor: str | None = None) -> str:
    """The wiki URL of a page (and section) in the active language."""
    url = reverse("wiki:page", kwargs={"slug": slug})
    return f"{url}#{anchor}" if anchor else url


def rule_url(key: str) -> str:
    """Where a rarity rule (``"wardrobe_score"``) or a topic (``"undercharge"``) is explained."""
    slug, anchor = RULE_SECTIONS.get(key) or TOPIC_SECTIONS[key]
    return section_url(slug, anchor)
