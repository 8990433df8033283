"""engine.data: the tables the rules (and the wiki) read, checked against docs/rules.md and the seeds."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine import data
from engine.card.skills import keyword_skills
from engine.types import EffectKind, EffectSlot, Rarity, Role, Skill, Slot, Tier

ROOT = Path(__file__).resolve().parents[2]


def _find_seeds() -> Path | None:
    """``shared/seeds`` beside the repository (the shared folder sits next to the checkout
    — /work/shared beside /work/main — or further up, beside a worktree's folder)."""
    for folder in (ROOT, *ROOT.parents):
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return None


SEEDS = _find_seeds()


def seeds() -> Path:
    """The seed folder; a test that reads it fails in CI when it is missing, else skips."""
    if SEEDS is not None:
        return SEEDS
    message = f"shared/seeds not found in {ROOT} or any folder above it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


# Every keyword example docs/rules.md §4 and seed 001 give, per skill.
EXAMPLES = {
    Skill.ARCANE: ("hex", "oracle", "scepter"),
    Skill.SPEED: ("hook", "dagger", "katana"),
    Skill.STEAL: ("bag", "candy", "mask"),
    Skill.PIERCE: ("armor", "axe", "blade", "crown"),
}


def test_keyword_sets_have_at_least_20_fragments_each() -> None:
    assert set(data.KEYWORDS) == set(Skill)
    for skill, fragments in data.KEYWORDS.items():
        assert len(fragments) >= 20, skill
        assert len(set(fragments)) == len(fragments), skill
        assert all(f == f.lower() and f.isalpha() for f in fragments), skill


def test_keyword_sets_hold_every_example() -> None:
    for skill, examples in EXAMPLES.items():
        for example in examples:
            assert example in data.KEYWORDS[skill]


def test_keyword_examples_of_seed_001_are_covered() -> None:
    text = next(seeds().glob("001_*.txt")).read_text(encoding="utf-8")
    rows = re.findall(r"^\| (Arcane|Speed|Steal|Pierce) \| [^|]+\| ([a-z, ]+), … \|$", text, re.M)
    assert len(rows) >= 4
    for skill_name, examples in rows:
        skill = Skill(skill_name.lower())
        for example in examples.split(", "):
            assert example in data.KEYWORDS[skill], (skill, example)


def test_no_fragment_is_shared_between_skills() -> None:
    seen: dict[str, Skill] = {}
    for skill, fragments in data.KEYWORDS.items():
        for fragment in fragments:
            assert fragment not in seen, (fragment, skill, seen.get(fragment))
            seen[fragment] = skill


def test_each_fragment_hits_only_its_own_skill_on_its_own() -> None:
    for skill, fragments in data.KEYWORDS.items():
        for fragment in fragments:
            assert keyword_skills(fragment.title()) == (skill,), fragment


def test_tier_bands_match_section_1() -> None:
    assert [(b.tier, b.max_supply, b.weight) for b in data.TIER_BANDS] == [
        (Tier.UNIQUE, 5, 3),
        (Tier.RARE, 25, 2),
        (Tier.BASE, None, 1),
    ]
    assert dict(data.TIER_WEIGHT) == {Tier.UNIQUE: 3, Tier.RARE: 2, Tier.BASE: 1}


def test_rarity_rule_tables_match_section_2() -> None:
    assert data.RULE_KEYS == (
        "supply_count",
        "wardrobe_score",
        "tier_badge",
        "burned_stickers",
        "god_premium",
        "combo",
        "getgems_rank",
    )
    assert [(t.rarity, t.min_slots, t.max_supply) for t in data.SUPPLY_COUNT_TIERS] == [
        (Rarity.LEGENDARY, 3, 3),
        (Rarity.EPIC, 2, 5),
    ]
    assert [(t.rarity, t.threshold) for t in data.WARDROBE_SCORE_TIERS] == [
        (Rarity.LEGENDARY, 3000),
        (Rarity.EPIC, 1500),
        (Rarity.RARE, 500),
    ]
    assert [(t.rarity, t.threshold) for t in data.BURNED_STICKER_TIERS] == [
        (Rarity.LEGENDARY, 6),
        (Rarity.EPIC, 3),
        (Rarity.RARE, 1),
    ]
    assert [(t.rarity, t.threshold) for t in data.GETGEMS_RANK_TIERS] == [
        (Rarity.LEGENDARY, 5),
        (Rarity.EPIC, 80),
        (Rarity.RARE, 200),
    ]
    assert data.WARDROBE_POINTS == 1000


def test_role_tables_match_section_3() -> None:
    assert dict(data.SLOT_WEIGHT) == {Slot.PAW: 4, Slot.HEAD: 3, Slot.BODY: 2, Slot.BACKGROUND: 1}
    assert data.SLOT_SCAN_ORDER == (Slot.PAW, Slot.HEAD, Slot.BODY, Slot.BACKGROUND)
    assert data.ROLE_HASH_ORDER == (Role.STRIKER, Role.CONTROL, Role.SUPPORT, Role.TANK)
    assert {s: data.SKILL_ROLE[s] for s in Skill} == {
        Skill.PIERCE: Role.TANK,
        Skill.SPEED: Role.STRIKER,
        Skill.STEAL: Role.SUPPORT,
        Skill.ARCANE: Role.CONTROL,
    }


def test_hash_default_skills_are_speed_arcane_steal_pierce() -> None:
    # §4: with no votes the role came from the hash, so the skill is the hash
    # mapped into [Speed, Arcane, Steal, Pierce] — derived, not a second table.
    mapped = [data.ROLE_DEFAULT_SKILL[role] for role in data.ROLE_HASH_ORDER]
    assert mapped == [Skill.SPEED, Skill.ARCANE, Skill.STEAL, Skill.PIERCE]
    for skill, role in data.SKILL_ROLE.items():
        assert data.ROLE_DEFAULT_SKILL[role] is skill


def test_temporary_skill_chances_match_section_4() -> None:
    assert {r: float(c) for r, c in data.TEMPORARY_SKILL_CHANCE.items()} == {
        Rarity.FREE: 0.0,
        Rarity.COMMON: 0.0,
        Rarity.RARE: 0.2,
        Rarity.EPIC: 0.35,
        Rarity.LEGENDARY: 0.5,
    }


def test_at_least_two_templates_per_role() -> None:
    for role in Role:
        templates = data.TEMPLATES_BY_ROLE[role]
        assert len(templates) >= 2, role
        assert [t.key for t in templates] == sorted(t.key for t in templates)
    assert len(data.TEMPLATES_BY_KEY) == len(data.TEMPLATES)


def test_iron_pup_is_exactly_as_the_rules_say() -> None:
    pup = data.TEMPLATES_BY_KEY["iron_pup"]
    assert pup.role is Role.TANK
    assert (pup.atk, pup.hp) == (8, 20)
    assert (pup.rare.atk, pup.rare.hp) == (0, 2)
    assert (pup.epic.atk, pup.epic.hp) == (1, 2)
    assert (pup.legendary.atk, pup.legendary.hp) == (2, 3)
    assert (pup.rare.ability, pup.epic.ability, pup.legendary.ability) == (0, 0, 1)
    assert pup.bonus(Rarity.COMMON) == pup.bonus(Rarity.FREE) == data.NO_BONUS


def test_templates_are_sane() -> None:
    deploy_kinds = {i.kind for i in data.EFFECT_KINDS if EffectSlot.DEPLOY in i.slots}
    for t in data.TEMPLATES:
        assert min(t.atk, t.hp, t.def_, t.ability) >= 0, t.key
        assert t.atk > 0 and t.hp > 0 and t.ability > 0, t.key
        for bonus in (t.rare, t.epic, t.legendary):
            assert min(bonus.atk, bonus.hp, bonus.ability) >= 0, t.key
        assert t.deploy in deploy_kinds, t.key
        # Bonuses never shrink with rarity.
        for a, b in ((t.rare, t.epic), (t.epic, t.legendary)):
            assert a.atk <= b.atk and a.hp <= b.hp and a.ability <= b.ability, t.key


def test_signature_catalogue_fits_effect_kinds() -> None:
    allowed = {i.kind: i.slots for i in data.EFFECT_KINDS}
    assert set(allowed) == set(EffectKind)
    for role in Role:
        sigs = data.SIGNATURES[role]
        assert sigs, role
        assert len({s.slot for s in sigs}) == len(sigs), role
        for sig in sigs:
            assert sig.slot in allowed[sig.kind], (role, sig)
            assert sig.value > 0


def test_fill_orders_match_section_5() -> None:
    d, p, lb = EffectSlot.DEPLOY, EffectSlot.PASSIVE, EffectSlot.LAST_BREATH
    assert dict(data.EFFECT_FILL_ORDER) == {
        Role.TANK: (d, p, lb),
        Role.STRIKER: (d, lb, p),
        Role.SUPPORT: (p, d, lb),
        Role.CONTROL: (p, lb, d),
    }
    assert dict(data.SIGNATURE_ALLOWANCE) == {
        Rarity.FREE: 0,
        Rarity.COMMON: 0,
        Rarity.RARE: 1,
        Rarity.EPIC: 2,
        Rarity.LEGENDARY: 3,
    }


def test_stat_layers_match_section_5() -> None:
    assert (data.STICKERS_PER_ATK, data.STICKER_ATK_CAP) == (2, 3)
    assert dict(data.PAW_ITEM_ATK) == {Tier.UNIQUE: 2, Tier.RARE: 1, Tier.BASE: 0}
    assert [(m.burned, m.hp) for m in data.BURN_MILESTONES] == [(6, 4), (3, 2)]


def test_energy_and_undercharge_match_sections_5_and_6() -> None:
    assert dict(data.ENERGY_COST) == {
        Rarity.FREE: 1,
        Rarity.COMMON: 1,
        Rarity.RARE: 2,
        Rarity.EPIC: 3,
        Rarity.LEGENDARY: 4,
    }
    assert [
        (u.deficit, u.stat_cut_percent, u.effect_minus, u.halve_effects) for u in data.UNDERCHARGE
    ] == [(1, 25, 1, False), (2, 40, 1, False), (3, 50, 0, True)]


def test_match_constants_match_section_6() -> None:
    assert data.HERO_HP == 30
    assert (data.DECK_MIN, data.DECK_MAX) == (1, 4)
    assert data.NRG_CAP == 4
    assert data.NRG_PER_ROUND == 1
    assert data.GOLD_INITIAL_PLAYER_ENERGY == 3
    assert data.MAX_HERO_HP_CEILING == 90
    assert data.WOUNDED_RAGE_THRESHOLD == 15
    assert dict(data.HERO_HP_BONUS_PER_ROLE) == {Role.TANK: 2, Role.SUPPORT: 1}
    assert data.ROUND_LIMIT == 200
    assert data.STEAL_HERO_HEAL == 2
    assert data.ARCANE_EFFECT_BONUS == 1
    assert data.BOOSTS_PER_ROUND == 2
    assert {(b.key, b.target, b.amount) for b in data.BOOSTS} == {
        ("charge", "nrg", 1),
        ("switch", "switch", 0),
        ("rage", "atk_this_round", 2),
        ("guard_up", "def", 2),
        ("hero_patch", "hero_hp", 3),
    }


def test_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        data.ENERGY_COST[Rarity.FREE] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        data.KEYWORDS[Skill.ARCANE] = ()  # type: ignore[index]
