"""Where the arena's rules are explained: sections of the Leagues wiki page.

Anchors are the English heading ids of wiki/content/leagues.en.md; the Russian page has
the same headings in the same order, so the wiki gives it the English ids as aliases and
one anchor works in both languages. A test checks every anchor here against the shipped
pages (tests/arena/test_narration.py).
"""

from __future__ import annotations

from enum import StrEnum

from core.anchors import section_url

LEAGUES = "leagues"


class Section(StrEnum):
    """A section of the Leagues page that the site links to (registered codes name one)."""

    OVERVIEW = "overview"
    BRACKETS = "brackets"
    STATS = "stats"
    DAILY_VALUES = "daily_values"
    HP = "hp"
    TIER = "tier"
    ATTACK = "attack"
    ARMOR = "armor"
    ELEMENT = "element"
    DAMAGE = "damage"
    TEAMS = "teams"
    MATCH = "match"
    ENERGY = "energy"
    SWAP = "swap"
    ATTACKS = "attacks"
    KO = "ko"
    WINNING = "winning"
    CLOCK = "clock"
    TURN_LIMIT = "turn_limit"
    DECISIONS = "decisions"
    BALANCE = "balance"


SECTIONS: dict[Section, str] = {
    Section.OVERVIEW: "the-arena-in-short",
    Section.BRACKETS: "brackets",
    Section.STATS: "a-slabs-stats",
    Section.DAILY_VALUES: "daily-values",
    Section.HP: "hp-from-value",
    Section.TIER: "tier-from-value",
    Section.ATTACK: "attack-from-grade",
    Section.ARMOR: "armor-from-year",
    Section.ELEMENT: "elements",
    Section.DAMAGE: "damage",
    Section.TEAMS: "teams",
    Section.MATCH: "match-rules",
    Section.ENERGY: "turns-and-energy",
    Section.SWAP: "swaps",
    Section.ATTACKS: "attacks",
    Section.KO: "knockouts-and-the-bench",
    Section.WINNING: "winning",
    Section.CLOCK: "the-turn-clock",
    Section.TURN_LIMIT: "after-30-turns",
    Section.DECISIONS: "decisions-the-rules-leave-open",
    Section.BALANCE: "balance",
}


def leagues_url(section: Section | str | None = None) -> str:
    """The Leagues page (at ``section``, a ``Section`` or its value) in the active language."""
    return section_url(LEAGUES, SECTIONS[section] if section else None)
