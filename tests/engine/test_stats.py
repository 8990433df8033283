"""engine.card.stats units: template pick, effects per role and rarity, undercharge."""

from __future__ import annotations

import hashlib

import pytest

from engine.card.stats import (
    apply_undercharge,
    compute_effects,
    pick_template,
    undercharge_table,
    undercharge_tier,
)
from engine.data import (
    EFFECT_FILL_ORDER,
    SIGNATURE_ALLOWANCE,
    TEMPLATES,
    TEMPLATES_BY_ROLE,
)
from engine.types import EffectSlot, EffectSource, Rarity, Role, Stats


@pytest.mark.parametrize("role", list(Role))
def test_template_pick_is_the_hash_rule(role: Role) -> None:
    keys = sorted(t.key for t in TEMPLATES_BY_ROLE[role])
    for token in range(1, 200):
        byte = hashlib.sha256(f"template:{token}".encode()).digest()[0]
        assert pick_template(token, role).key == keys[byte % len(keys)]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.key)
@pytest.mark.parametrize("rarity", list(Rarity))
def test_effects_fill_by_role_order(template, rarity: Rarity) -> None:  # type: ignore[no-untyped-def]
    effects = compute_effects(template, rarity)
    slots = [e.slot for e in effects]
    assert slots == sorted(slots, key=list(EffectSlot).index)
    deploy = effects[0]
    assert deploy.slot is EffectSlot.DEPLOY and deploy.source is EffectSource.TEMPLATE
    assert deploy.kind is template.deploy
    signatures = [e for e in effects if e.source is EffectSource.SIGNATURE]
    order = [s for s in EFFECT_FILL_ORDER[template.role] if s is not EffectSlot.DEPLOY]
    expected = order[: SIGNATURE_ALLOWANCE[rarity]]
    assert sorted(e.slot for e in signatures) == sorted(expected)
    bonus = template.bonus(rarity).ability
    assert all(e.value == e.base + bonus and e.bonus == bonus for e in effects)


def test_undercharge_tiers() -> None:
    assert [undercharge_tier(d).stat_cut_percent for d in (1, 2, 3, 4, 9)] == [25, 40, 50, 50, 50]
    with pytest.raises(ValueError):
        undercharge_tier(0)


def test_undercharge_rounds_down_and_stays_at_or_above_zero() -> None:
    row = apply_undercharge(Stats(3, 5, 1, 0), (), nrg=0, cost=1)
    assert (row.atk, row.def_) == (2, 0)
    row = apply_undercharge(Stats(0, 5, 0, 0), (), nrg=0, cost=4)
    assert (row.atk, row.def_, row.skill_active) == (0, 0, False)
    with pytest.raises(ValueError):
        apply_undercharge(Stats(3, 5, 1, 0), (), nrg=2, cost=2)


def test_undercharge_table_has_a_row_per_missing_nrg() -> None:
    rows = undercharge_table(Stats(10, 20, 4, 2), (), 3)
    assert [(r.nrg, r.deficit) for r in rows] == [(2, 1), (1, 2), (0, 3)]
