"""Keyword matching, role (docs/rules.md §3) and skill affinity / active skill (§4).

>>> keyword_skills("Hexed Hood")
(<Skill.ARCANE: 'arcane'>, <Skill.STEAL: 'steal'>)
>>> keyword_skills("Daggers"), keyword_skills("Cabbage")
((<Skill.SPEED: 'speed'>,), ())
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from types import MappingProxyType

from engine.caches import memo
from engine.card.rarity import tier_of
from engine.data import (
    ACTIVE_SKILL_RARITY,
    KEYWORDS,
    ROLE_DEFAULT_SKILL,
    ROLE_HASH_ORDER,
    SKILL_PRIORITY,
    SKILL_ROLE,
    SLOT_SCAN_ORDER,
    SLOT_WEIGHT,
    TEMPORARY_SKILL_CHANCE,
    TEMPORARY_SKILL_HASH_BYTES,
    TIER_WEIGHT,
)
from engine.types import (
    AttributeSpec,
    CardSpec,
    Rarity,
    Role,
    RoleVote,
    Skill,
    SkillRow,
    Slot,
    TieBreakEntry,
    Tier,
    TraceStep,
    fast_init,
)

__all__ = [
    "RoleDecision",
    "SkillDecision",
    "active_skill",
    "decide_role",
    "decide_skill",
    "keyword_hits",
    "keyword_skills",
    "name_words",
    "role_hash_lines",
    "roll_temporary_skill",
]

_PRIORITY_FRAGMENTS: tuple[tuple[Skill, tuple[str, ...]], ...] = tuple(
    (skill, tuple(KEYWORDS[skill])) for skill in SKILL_PRIORITY
)


def name_words(name: str) -> tuple[str, ...]:
    """Lowercase words of a name, split on every non-letter (Unicode letters, after NFC).

    >>> name_words("Qx-Mitten 2000 (Gold)")
    ('qx', 'mitten', 'gold')
    >>> name_words("Кот_Hexагон")
    ('кот', 'hexагон')
    """
    words: list[str] = []
    current: list[str] = []
    for ch in unicodedata.normalize("NFC", name):
        if ch.isalpha():
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return tuple(w.lower() for w in words)


@memo
def keyword_hits(name: str) -> tuple[tuple[Skill, tuple[tuple[str, str], ...]], ...]:
    """Skills a name hits, in priority order, each with its (word, fragment) matches.

    >>> keyword_hits("Hexed Hood")
    ((<Skill.ARCANE: 'arcane'>, (('hexed', 'hex'),)), (<Skill.STEAL: 'steal'>, (('hood', 'hood'),)))
    """
    words = name_words(name)
    hits = []
    for skill, fragments in _PRIORITY_FRAGMENTS:
        matches = tuple(
            (word, fragment)
            for word in words
            if word.startswith(fragments)
            for fragment in fragments
            if word.startswith(fragment)
        )
        if matches:
            hits.append((skill, matches))
    return tuple(hits)


def keyword_skills(name: str) -> tuple[Skill, ...]:
    """Skills a name hits, in priority order (first = primary, second = secondary).

    >>> keyword_skills("Candy Crown"), keyword_skills("Oracle Dagger")
    ((<Skill.STEAL: 'steal'>, <Skill.PIERCE: 'pierce'>), (<Skill.ARCANE: 'arcane'>, <Skill.SPEED: 'speed'>))
    """
    return tuple(skill for skill, _ in keyword_hits(name))


@fast_init
@dataclass(frozen=True, slots=True)
class _Info:
    """Everything about one attribute the role and skill steps need (memoised, shared)."""

    tier: Tier
    primary: Skill | None
    secondary: Skill | None
    row: SkillRow
    hits_step: TraceStep
    vote: RoleVote | None
    vote_step: TraceStep | None


@memo
def _info(slot: Slot, name: str, supply: int) -> _Info:
    hits = keyword_hits(name)
    skills = keyword_skills(name)
    primary = skills[0] if skills else None
    secondary = skills[1] if len(skills) > 1 else None
    tier = tier_of(supply)
    row = SkillRow(slot, name, tier, hits, primary, secondary, 1 if primary else 0)
    hits_step = TraceStep(
        "skill.hits",
        MappingProxyType(
            {
                "slot": slot,
                "name": name,
                "fragments": tuple(f for _, matches in hits for _, f in matches),
                "secondary": secondary,
            }
        ),
        primary,
    )
    vote = vote_step = None
    if primary is not None:
        role = SKILL_ROLE[primary]
        slot_w = SLOT_WEIGHT[slot]
        tier_w = TIER_WEIGHT[tier]
        vote = RoleVote(slot, name, primary, role, slot_w, tier, tier_w, slot_w * tier_w)
        vote_step = TraceStep(
            "role.vote",
            MappingProxyType(
                {
                    "slot": slot,
                    "name": name,
                    "skill": primary,
                    "slot_weight": slot_w,
                    "tier": tier,
                    "tier_weight": tier_w,
                    "weight": vote.weight,
                }
            ),
            role,
        )
    return _Info(tier, primary, secondary, row, hits_step, vote, vote_step)


def _shared(code: str, value: object, **params: object) -> TraceStep:
    return TraceStep(code, MappingProxyType(params), value)


# Steps that depend on a few small values are memoised and shared (read-only params).
@memo
def _role_decided(source: str, role: Role) -> TraceStep:
    return _shared("role.decided", role, source=source)


@memo
def _skill_affinity(source: str, skill: Skill) -> TraceStep:
    return _shared("skill.affinity", skill, source=source)


@memo
def _role_totals(totals: tuple[tuple[Role, int], ...], tied: tuple[Role, ...]) -> TraceStep:
    return TraceStep("role.totals", MappingProxyType(dict(totals)), tied)


@memo
def _skill_scores(scores: tuple[tuple[Skill, int], ...], tied: tuple[Skill, ...]) -> TraceStep:
    return TraceStep("skill.scores", MappingProxyType(dict(scores)), tied)


@memo
def _active_step(rarity: Rarity, affinity: Skill, skill: Skill | None) -> TraceStep:
    return _shared("skill.active", skill, rarity=rarity, affinity=affinity)


def _attr_info(attr: AttributeSpec) -> _Info:
    return _info(attr.slot, attr.name, attr.supply)


def attribute_infos(card: CardSpec) -> tuple[_Info, ...]:
    """Memoised per-attribute facts of the equipped four, in slot order (for derive)."""
    return tuple([_info(a.slot, a.name, a.supply) for a in card.equipped])


_SCAN_INDEX = tuple(tuple(Slot).index(s) for s in SLOT_SCAN_ORDER)
_ROLES = tuple(Role)

# ---------------------------------------------------------------------------
# Role


@fast_init
@dataclass(frozen=True, slots=True)
class RoleDecision:
    """Result of ``decide_role``; ``source`` is "votes", "tie_break" or "hash"."""

    role: Role
    source: str
    votes: tuple[RoleVote, ...]
    totals: tuple[tuple[Role, int], ...]


def role_hash_lines(card: CardSpec) -> tuple[str, ...]:
    """The sorted ``slot:tier:name`` lines the role hash fallback digests.

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(1, "Pup", tuple(AttributeSpec(s, "Plain", 9) for s in Slot))
    >>> role_hash_lines(card)
    ('background:rare:Plain', 'body:rare:Plain', 'head:rare:Plain', 'paw:rare:Plain')
    """
    return tuple(sorted(f"{a.slot}:{tier_of(a.supply)}:{a.name}" for a in card.equipped))


def decide_role(card: CardSpec, trace: list[TraceStep] | None = None) -> RoleDecision:
    """The card's role from the weighted votes of its equipped attributes (§3).

    >>> from engine.types import AttributeSpec, CardSpec, Slot
    >>> card = CardSpec(1, "Pup", (AttributeSpec(Slot.PAW, "Dagger", 40),
    ...     AttributeSpec(Slot.HEAD, "Iron Helm", 3), AttributeSpec(Slot.BODY, "Vest", 90),
    ...     AttributeSpec(Slot.BACKGROUND, "Sky", 90)))
    >>> decide_role(card).role  # helm: 3 × 3 = 9 for Tank beats dagger: 4 × 1 for Striker
    <Role.TANK: 'tank'>
    """
    return role_from_infos(card, attribute_infos(card), [] if trace is None else trace)


def role_from_infos(
    card: CardSpec, infos: tuple[_Info, ...], trace: list[TraceStep]
) -> RoleDecision:
    """``decide_role`` on precomputed ``attribute_infos(card)``."""
    votes: list[RoleVote] = []
    totals: dict[Role, int] = {}
    for i in _SCAN_INDEX:
        info = infos[i]
        vote = info.vote
        if vote is not None:
            votes.append(vote)
            assert info.vote_step is not None  # set together with the vote
            trace.append(info.vote_step)
            totals[vote.role] = totals.get(vote.role, 0) + vote.weight
    if not votes:
        lines = role_hash_lines(card)
        byte = hashlib.sha256("\n".join(lines).encode("utf-8")).digest()[0]
        index = byte % len(ROLE_HASH_ORDER)
        role = ROLE_HASH_ORDER[index]
        trace.append(
            TraceStep("role.hash_fallback", {"lines": lines, "byte": byte, "index": index}, role)
        )
        trace.append(_role_decided("hash", role))
        return RoleDecision(role, "hash", (), ())
    totals_t = tuple([(r, totals[r]) for r in _ROLES if r in totals])
    best = max(totals.values())
    tied = tuple([r for r, n in totals_t if n == best])
    trace.append(_role_totals(totals_t, tied))
    if len(tied) == 1:
        role, source = tied[0], "votes"
    else:
        # Votes are in scan order (paw → head → body → background).
        first = next(v for v in votes if v.role in tied)
        role, source = first.role, "tie_break"
        trace.append(
            TraceStep(
                "role.tie_break", {"tied": tied, "slot": first.slot, "name": first.name}, role
            )
        )
    trace.append(_role_decided(source, role))
    return RoleDecision(role, source, tuple(votes), totals_t)


# ---------------------------------------------------------------------------
# Skill affinity


@fast_init
@dataclass(frozen=True, slots=True)
class SkillDecision:
    """Result of ``decide_skill``; ``source`` is "score", "tie_break" or "role_default"."""

    affinity: Skill
    source: str
    table: tuple[SkillRow, ...]
    scores: tuple[tuple[Skill, int], ...]
    tie_break: tuple[TieBreakEntry, ...]


def _scan_key(item: tuple[AttributeSpec, bool]) -> tuple[int, bool, str]:
    attr, is_equipped = item
    return (-TIER_WEIGHT[tier_of(attr.supply)], not is_equipped, attr.name)


def _scan(card: CardSpec) -> Iterator[tuple[AttributeSpec, bool]]:
    """Owned attributes in tie-break scan order, one slot at a time (lazily)."""
    for slot in SLOT_SCAN_ORDER:
        group = [(card.attribute(slot), True)]
        group += [(a, False) for a in card.wardrobe if a.slot is slot]
        if len(group) > 1:
            group.sort(key=_scan_key)
        yield from group


def decide_skill(card: CardSpec, role: Role, trace: list[TraceStep] | None = None) -> SkillDecision:
    """The card's skill affinity from keyword points of its equipped attributes (§4).

    ``role`` is the card's role (used only when no attribute scores).

    >>> from engine.types import AttributeSpec, CardSpec, Role, Slot
    >>> card = CardSpec(1, "Pup", (AttributeSpec(Slot.PAW, "Hexed Hood", 40),
    ...     AttributeSpec(Slot.HEAD, "Candy Crown", 90), AttributeSpec(Slot.BODY, "Vest", 90),
    ...     AttributeSpec(Slot.BACKGROUND, "Sky", 90)))
    >>> decision = decide_skill(card, Role.CONTROL)
    >>> decision.affinity, decision.source  # arcane 1, steal 1: the paw's primary wins
    (<Skill.ARCANE: 'arcane'>, 'tie_break')
    """
    return skill_from_infos(card, attribute_infos(card), role, [] if trace is None else trace)


def skill_from_infos(
    card: CardSpec, infos: tuple[_Info, ...], role: Role, trace: list[TraceStep]
) -> SkillDecision:
    """``decide_skill`` on precomputed ``attribute_infos(card)``."""
    scores: dict[Skill, int] = {}
    for info in infos:
        trace.append(info.hits_step)
        if info.primary is not None:
            scores[info.primary] = scores.get(info.primary, 0) + 1
    rows_t = tuple([info.row for info in infos])
    if not scores:
        skill = ROLE_DEFAULT_SKILL[role]
        trace.append(TraceStep("skill.role_default", {"role": role}, skill))
        trace.append(_skill_affinity("role_default", skill))
        return SkillDecision(skill, "role_default", rows_t, (), ())
    scores_t = tuple([(s, scores[s]) for s in SKILL_PRIORITY if s in scores])
    best = max(scores.values())
    tied = tuple([s for s, n in scores_t if n == best])
    trace.append(_skill_scores(scores_t, tied))
    if len(tied) == 1:
        skill = tied[0]
        trace.append(_skill_affinity("score", skill))
        return SkillDecision(skill, "score", rows_t, scores_t, ())
    scan: list[TieBreakEntry] = []
    picked: Skill | None = None
    for attr, is_equipped in _scan(card):
        info = _attr_info(attr)
        if info.primary is not None and info.primary in tied:
            picked = info.primary
        elif info.secondary is not None and info.secondary in tied:
            picked = info.secondary
        scan.append(
            TieBreakEntry(
                attr.slot, attr.name, info.tier, is_equipped, info.primary, info.secondary, picked
            )
        )
        trace.append(
            TraceStep(
                "skill.tie_break.scan",
                {
                    "slot": attr.slot,
                    "name": attr.name,
                    "tier": info.tier,
                    "equipped": is_equipped,
                    "primary": info.primary,
                    "secondary": info.secondary,
                },
                picked,
            )
        )
        if picked is not None:
            break
    # An equipped attribute gave each tied skill its points, so the scan always picks.
    assert picked is not None
    last = scan[-1]
    trace.append(
        TraceStep("skill.tie_break", {"tied": tied, "slot": last.slot, "name": last.name}, picked)
    )
    trace.append(_skill_affinity("tie_break", picked))
    return SkillDecision(picked, "tie_break", rows_t, scores_t, tuple(scan))


def active_skill(
    rarity: Rarity, affinity: Skill, trace: list[TraceStep] | None = None
) -> Skill | None:
    """A collection card's active skill: its affinity at Legendary, else None (§4).

    >>> active_skill(Rarity.LEGENDARY, Skill.STEAL), active_skill(Rarity.EPIC, Skill.STEAL)
    (<Skill.STEAL: 'steal'>, None)
    """
    skill = affinity if rarity is ACTIVE_SKILL_RARITY else None
    if trace is not None:
        trace.append(_active_step(rarity, affinity, skill))
    return skill


def roll_temporary_skill(
    card_id: str | int,
    rarity: Rarity,
    affinity: Skill,
    trace: list[TraceStep] | None = None,
) -> Skill | None:
    """Active skill of a temporary (non-NFT) card: a hash-gated roll (§4).

    The first 8 bytes of SHA-256(``skill:<card id>``), big-endian, over 2^64,
    must be below the rarity's chance (compared exactly). Collection cards
    never use this path.

    >>> roll_temporary_skill("bot-1", Rarity.COMMON, Skill.SPEED) is None
    True
    >>> [roll_temporary_skill(f"bot-{i}", Rarity.LEGENDARY, Skill.SPEED) for i in range(4)]
    [None, <Skill.SPEED: 'speed'>, <Skill.SPEED: 'speed'>, <Skill.SPEED: 'speed'>]
    """
    digest = hashlib.sha256(f"skill:{card_id}".encode()).digest()
    bits = 8 * TEMPORARY_SKILL_HASH_BYTES
    roll = int.from_bytes(digest[:TEMPORARY_SKILL_HASH_BYTES], "big")
    chance = TEMPORARY_SKILL_CHANCE[rarity]
    hit = roll * chance.denominator < chance.numerator << bits
    skill = affinity if hit else None
    if trace is not None:
        trace.append(
            TraceStep(
                "skill.temporary_roll",
                {
                    "card_id": str(card_id),
                    "rarity": rarity,
                    "roll": f"{roll / (1 << bits):.6f}",
                    "chance": f"{float(chance):g}",
                    "affinity": affinity,
                },
                skill,
            )
        )
    return skill
