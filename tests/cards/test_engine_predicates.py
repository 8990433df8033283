"""The predicates over the engine's answers on a generated demo collection: decided:
counts equal the counts over the derivations, near: equals a brute force over every
single swap of every card's wardrobe, effect: and template: what the derivation says."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from hypothesis import given, settings

from cards.explain import checks, stored_facts
from cards.models import Card
from cards.query import QueryError, parse
from cards.search import count_searches, search_cards
from cards.specs import card_specs, near_rarity
from engine.card.derive import derive
from engine.card.rarity import decide_rarity
from engine.data import RULE_KEYS
from engine.types import Rarity

from .test_explain import QUERIES, combine


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("generate_collection", seed=2026, size=200, replace=True, verbosity=0)
        specs = card_specs(Card.objects.all())
    yield specs
    with django_db_blocker.unblock():
        from cards.services import clear_collection

        clear_collection()


@pytest.mark.django_db
def test_decided_counts_equal_the_counts_over_the_derivations(demo):
    counts = count_searches({key: f"decided:{key}" for key in (*RULE_KEYS, "starter")})
    for key in (*RULE_KEYS, "starter"):
        expected = sum(
            1
            for spec in demo
            if key in derive(spec).decided_by and (not spec.starter or key == "starter")
        )
        assert counts[key] == expected, key
    assert counts["starter"] > 0 and counts["supply_count"] > 0


@pytest.mark.django_db
def test_near_equals_a_brute_force_over_every_single_swap(demo):
    """Every owned attribute not worn, put on in its slot (the card page's what-if), each
    decided again: near:X finds the cards below X that one of them lifts to X or higher."""
    from explorer.whatif import Catalogue, WhatIf, apply

    catalogue = Catalogue(a for spec in demo for a in spec.owned)
    reached: dict[int, int] = {}
    for spec in demo:
        if spec.starter:
            continue
        own = decide_rarity(spec).rarity.rank
        best = own
        worn = set(spec.equipped)
        for attribute in spec.owned:
            if attribute in worn:
                continue
            swapped = apply(spec, WhatIf({attribute.slot.value: attribute.name}), catalogue)
            best = max(best, decide_rarity(swapped).rarity.rank)
        reached[spec.token] = best
        assert near_rarity(spec).rank == best
    for rarity in (Rarity.COMMON, Rarity.RARE, Rarity.EPIC, Rarity.LEGENDARY):
        found = set(search_cards(f"near:{rarity.value}").values_list("token", flat=True))
        expected = {
            spec.token
            for spec in demo
            if not spec.starter
            and decide_rarity(spec).rarity.rank < rarity.rank <= reached[spec.token]
        }
        assert found == expected, rarity
    assert any(
        reached[t] > decide_rarity(s).rarity.rank for s in demo for t in [s.token] if t in reached
    )


@pytest.mark.django_db
def test_effect_and_template_find_what_the_derivation_says(demo):
    by_token = {spec.token: derive(spec) for spec in demo if not spec.starter}
    for kind in ("burn", "shield", "heal_hero"):
        found = set(search_cards(f"effect:{kind}").values_list("token", flat=True))
        assert found == {
            t for t, b in by_token.items() if any(e.kind.value == kind for e in b.effects)
        }
    found = set(search_cards("template:iron_pup").values_list("token", flat=True))
    assert found == {t for t, b in by_token.items() if b.template == "iron_pup"}


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(text=QUERIES)
@pytest.mark.django_db
def test_the_clause_flags_combine_into_the_results_on_the_demo_too(demo_facts, text):
    try:
        query = parse(text)
    except QueryError:
        return
    found = set(search_cards(query).values_list("token", flat=True))
    for token, facts in demo_facts.items():
        flags = [c.ok for c in checks(query, facts, text)]
        left_out = facts.starter and not query.wants_free_cards
        assert (combine(query.root, flags) and not left_out) == (token in found), (text, token)


@pytest.fixture(scope="module")
def demo_facts(demo, django_db_blocker):
    with django_db_blocker.unblock():
        return stored_facts(demo)
