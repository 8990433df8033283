"""Combo names in the visitor's language (issue 18): pages name a combo as the visitor
reads it, the collection file and the recompute keep the stable English name."""

from __future__ import annotations

import pytest
from django.utils import translation

from cards.models import Combo
from cards.specs import card_spec, combo_specs
from engine.card.derive import derive

from .conftest import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def seer(catalogue):
    combo = Combo.objects.create(name_en="Seer", name_ru="Провидец", rarity="epic")
    combo.attributes.set([catalogue["crown"], catalogue["nebula"]])
    untranslated = Combo.objects.create(name_en="Wanderer", name_ru="", rarity="rare")
    untranslated.attributes.set([catalogue["hood"]])
    return make_card(5, head=catalogue["crown"], background=catalogue["nebula"])


def test_combo_specs_are_english_unless_asked(seer):
    with translation.override("ru"):
        assert [c.name for c in combo_specs()] == ["Seer", "Wanderer"]
        # English-name order in both languages; a blank translation falls back to English.
        assert [c.name for c in combo_specs(localized=True)] == ["Провидец", "Wanderer"]
    with translation.override("en"):
        assert [c.name for c in combo_specs(localized=True)] == ["Seer", "Wanderer"]


def test_a_russian_card_page_gets_the_russian_combo_name(seer):
    with translation.override("ru"):
        breakdown = derive(card_spec(seer))
    combo = next(step for step in breakdown.trace if step.code == "rarity.combo")
    assert list(combo.params["matched"]) == ["Провидец"]


def test_the_derived_rarity_does_not_depend_on_the_language(seer):
    rarities = set()
    for language in ("en", "ru"):
        with translation.override(language):
            rarities.add(derive(card_spec(seer)).rarity)
    assert len(rarities) == 1


def test_the_card_page_and_its_json_name_the_combo_in_the_visitors_language(client, seer):
    # Through the explorer's per-process memo of the combos, which is kept per language.
    assert "Seer" in client.get(f"/en/cards/{seer.token}/").content.decode()
    russian = client.get(f"/ru/cards/{seer.token}/").content.decode()
    assert "Провидец" in russian and "Seer" not in russian
    api = client.get(f"/api/cards/{seer.token}", headers={"Accept-Language": "ru"})
    assert "Провидец" in api.content.decode()


def test_the_json_is_cached_apart_for_each_language(client, seer, settings):
    settings.PAGE_CACHE_SECONDS = 60
    english = client.get(f"/api/cards/{seer.token}", headers={"Accept-Language": "en"})
    russian = client.get(f"/api/cards/{seer.token}", headers={"Accept-Language": "ru"})
    assert "Seer" in english.content.decode() and "Провидец" in russian.content.decode()
