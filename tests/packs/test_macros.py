"""The live wiki tables of the booster pools, and every engine code worded."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.labels import label
from engine.packs import CheckSkip, PowerFlag, PromiseStep
from packs.models import Pool, PowerRun
from packs.narration import CHECK, LEDGER, REFUSALS, STEPS
from wiki.macros import get_macro, render_macro

pytestmark = pytest.mark.django_db


def render(name: str, arg: str | None = None, lang: str = "en") -> str:
    macro = get_macro(name)
    assert macro is not None and macro.live, name
    with translation.override(lang):
        return render_macro(macro, arg)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pool_table_links_every_pool(site, lang) -> None:
    html = render("booster_pools", lang=lang)
    for pool in Pool.objects.all():
        assert f'href="/{lang}/packs/{pool.slug}/"' in html
    assert "macro-table" in html and "Legendary" in html


def test_one_pools_odds(site) -> None:
    html = render("booster_pool_odds", "night-sky")
    assert "Night sky" in html and "1 in" in html
    assert "There is no pool “no-such-pool” at the moment." in render(
        "booster_pool_odds", "no-such-pool"
    )
    assert "macro-error" in render("booster_pool_odds", None)


def test_the_power_promise_tables(site) -> None:
    html = render("power_promise")
    assert "Common → Rare" in html and "whole-collection" in html
    one = render("power_promise", "whole-collection")
    assert "Mean win rate" in one
    PowerRun.objects.all().delete()
    assert "not been measured" in render("power_promise")


def test_no_pool_yet(db) -> None:
    Pool.objects.all().delete()
    assert "no booster pool yet" in render("booster_pools")


def test_every_engine_code_has_its_words() -> None:
    assert STEPS.missing() == [] and STEPS.unknown() == []
    assert CHECK.missing() == [] and CHECK.unknown() == []
    assert REFUSALS.missing() == [] and REFUSALS.unknown() == []
    assert LEDGER.missing() == [] and LEDGER.unknown() == []


def test_every_refusal_and_ledger_fault_reads_in_both_languages() -> None:
    from django.utils import translation

    params = {"max": 64, "length": 65, "date": "2026-13-01", "n": 3, "detail": "x"}
    for registry in (REFUSALS, LEDGER):
        for code in registry.codes:
            with translation.override("en"):
                english = registry.say(code, params)
            with translation.override("ru"):
                russian = registry.say(code, params)
            assert english and russian and english != russian, code
    for lang in ("en", "ru"):
        with translation.override(lang):
            for step in PromiseStep:
                text = STEPS.say(step.value, {"lower": "A", "upper": "B", "points": "+1.0"})
                assert "A" in text and "B" in text and "+1.0" in text
            assert "7" in CHECK.say(CheckSkip.TOO_FEW_PACKS.value, {"packs": "7"})
            for member in (*PowerFlag, *PromiseStep, *CheckSkip):
                assert label(member)
