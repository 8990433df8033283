"""The demo arena (``make install`` → ``load_demo`` → ``arena_demo``): every tier, element,
armor and attack band and HP band appears, values cross band edges over the days, every
bracket has legal teams; loading twice changes nothing."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command

from arena import demo, selectors, services
from arena.models import ArenaBalanceReport, Slab, SlabValue
from engine.arena.slabs import (
    ARMOR_BY_YEAR,
    ATTACK_BY_GRADE,
    BRACKETS,
    HP_BY_VALUE,
    Element,
    SlabTier,
    armor_for,
    attack_for,
    slab_stats,
)
from engine.arena.slabs import (
    Slab as EngineSlab,
)

TODAY = dt.date(2026, 3, 31)


@pytest.fixture(scope="module")
def generated() -> list[demo.DemoSlab]:
    return demo.generate(TODAY)


def _stats(s: demo.DemoSlab, value):
    return slab_stats(EngineSlab(s.asset_id, s.name, s.grade, s.year), value)


def test_the_demo_covers_every_band(generated) -> None:
    assert len(generated) == demo.DEMO_SLABS
    assert len({s.asset_id for s in generated}) == len(generated)
    last = [_stats(s, s.values[-1][1]) for s in generated]
    assert {s.tier for s in last} == set(SlabTier)
    assert {s.element for s in last} == set(Element)
    assert {s.hp for s in last} == {b.hp for b in HP_BY_VALUE}
    assert {armor_for(s.year) for s in generated} == {b.armor for b in ARMOR_BY_YEAR}
    assert {attack_for(s.grade) for s in generated} == {b.attack for b in ATTACK_BY_GRADE}
    assert all(d <= TODAY for s in generated for d, _v in s.values)
    assert max(len(s.values) for s in generated) == demo.DEMO_DAYS


def test_values_cross_band_edges_over_the_days(generated) -> None:
    crossing = 0
    for s in generated:
        bands = {(_stats(s, v).hp, _stats(s, v).tier) for _d, v in s.values}
        crossing += len(bands) > 1
    assert crossing >= demo.DEMO_SLABS // 10
    assert any(len(s.values) < demo.DEMO_DAYS for s in generated)  # a new listing


def test_every_bracket_has_legal_teams(generated) -> None:
    import random

    today = [_stats(s, s.values[-1][1]) for s in generated]
    for cap in BRACKETS:
        team = services.draw_team(today, cap.cap, random.Random(1))
        assert team is not None, cap.bracket
        assert cap.cap is None or sum(m.value for m in team) <= cap.cap


def test_the_generator_is_seeded(generated) -> None:
    assert demo.generate(TODAY) == generated
    assert demo.generate(TODAY, seed=1) != generated


@pytest.mark.django_db
def test_arena_demo_loads_once_and_stores_a_report() -> None:
    out = StringIO()
    call_command("arena_demo", games=30, stdout=out)
    assert Slab.objects.count() == demo.DEMO_SLABS
    values = SlabValue.objects.count()
    assert values > demo.DEMO_SLABS * (demo.DEMO_DAYS - 2)
    report = ArenaBalanceReport.objects.get()
    assert report.games > 0 and report.slabs == demo.DEMO_SLABS
    call_command("arena_demo", stdout=out)  # idempotent: nothing new
    assert Slab.objects.count() == demo.DEMO_SLABS
    assert SlabValue.objects.count() == values
    assert ArenaBalanceReport.objects.count() == 1
    assert "already loaded" in out.getvalue()
    days = selectors.slabs_on(selectors.match_day())
    assert sum(d.value is not None for d in days) >= demo.DEMO_SLABS * 0.9


@pytest.mark.django_db
def test_load_demo_runs_the_arena_step() -> None:
    from core.management.commands.load_demo import DEMO_STEPS

    assert any(step[2] == "arena_demo" for step in DEMO_STEPS)


def test_the_api_documentation_names_a_slab_of_the_demo(generated) -> None:
    from arena.api_docs import ENDPOINTS

    asset_id = ENDPOINTS[1].example.rsplit("/", 1)[1]
    assert asset_id in {s.asset_id for s in generated}
