"""Where the arena's rules are explained: sections of the Leagues wiki page.

Anchors are the English heading ids of wiki/content/leagues.en.md; the Russian page has
the same headings in the same order, so the wiki gives it the English ids as aliases and
one anchor works in both languages. A test checks every anchor here against the shipped
pages (tests/arena/test_narration.py).
"""

from __future__ import annotations

from core.anchors import section_url

LEAGUES = "leagues"

SECTIONS: dict[str, str] = {
    "overview": "the-arena-in-short",
    "brackets": "brackets",
    "stats": "a-slabs-stats",
    "daily_values": "daily-values",
    "hp": "hp-from-value",
    "tier": "tier-from-value",
    "attack": "attack-from-grade",
    "armor": "armor-from-year",
    "element": "elements",
    "damage": "damage",
    "teams": "teams",
    "match": "match-rules",
    "energy": "turns-and-energy",
    "swap": "swaps",
    "attacks": "attacks",
    "ko": "knockouts-and-the-bench",
    "winning": "winning",
    "clock": "the-turn-clock",
    "turn_limit": "after-30-turns",
    "decisions": "decisions-the-rules-leave-open",
    "balance": "balance",
}


def leagues_url(section: str | None = None) -> str:
    """The Leagues page (at ``section``, a key of ``SECTIONS``) in the active language."""
    return section_url(LEAGUES, SECTIONS[section] if section else None)
