"""How safe a tier is, on the demo collection (issue 29): the stored ``is:fragile`` flag
checked by brute force over every single step of market data, the search, and the card
page's sentence in both languages."""

from __future__ import annotations

import re
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command

from cards.generator import DEFAULT_SEED, DEFAULT_SIZE, generate
from cards.models import Card
from cards.query import parse
from cards.search import search_cards
from cards.specs import card_spec
from engine.card.fragility import weakest_change
from engine.card.rarity import decide_rarity
from engine.types import CardSpec


def _supply_step(card: CardSpec, attr, supply: int) -> CardSpec:
    changed = replace(attr, supply=supply)
    return replace(
        card,
        equipped=tuple(changed if a == attr else a for a in card.equipped),
        wardrobe=tuple(changed if a == attr else a for a in card.wardrobe),
    )


def single_steps(card: CardSpec):
    """Every single step of market data: one more print of each attribute the card owns,
    its rank one place better or worse."""
    for attr in card.owned:
        yield f"+1 {attr.name}", _supply_step(card, attr, attr.supply + 1)
    if card.getgems_rank is not None:
        yield "rank +1", replace(card, getgems_rank=card.getgems_rank + 1)
        if card.getgems_rank > 1:
            yield "rank -1", replace(card, getgems_rank=card.getgems_rank - 1)


def applied(card: CardSpec, drop) -> CardSpec:
    if drop.kind == "rank":
        return replace(card, getgems_rank=drop.rank)
    attr = next(a for a in card.owned if (a.slot, a.name) == (drop.slot, drop.name))
    return _supply_step(card, attr, drop.supply)


@pytest.fixture(scope="module")
def demo():
    return generate(DEFAULT_SEED, DEFAULT_SIZE)


def test_every_flag_of_the_demo_collection_holds_by_brute_force(demo):
    flagged = 0
    for card, derived in zip(demo.cards, demo.derived, strict=True):
        rarity = decide_rarity(card).rarity
        lowering = [
            name for name, changed in single_steps(card) if decide_rarity(changed).rarity < rarity
        ]
        drop = weakest_change(card)
        if derived["tier_fragile"]:
            flagged += 1
            # The stated change is one step, and it does lower the tier, to what it says.
            assert lowering and drop is not None and drop.fragile, card.token
            assert decide_rarity(applied(card, drop)).rarity is drop.lowered_to < rarity
        else:
            assert not lowering, (card.token, lowering)
            if drop is not None:  # a bigger change: it lowers, one step less does not
                assert not drop.fragile
                assert decide_rarity(applied(card, drop)).rarity is drop.lowered_to < rarity
                less = replace(
                    drop, supply=drop.supply and drop.supply - 1, rank=drop.rank and drop.rank - 1
                )
                assert decide_rarity(applied(card, less)).rarity is rarity
    assert 0 < flagged < len(demo.cards)


@pytest.fixture
def collection(db):
    call_command("generate_collection", size=200, seed=2026, replace=True, stdout=StringIO())


def test_is_fragile_finds_the_stored_flags_and_they_match_the_engine(collection):
    found = set(search_cards(parse("is:fragile")).values_list("token", flat=True))
    fragile = {
        card.token
        for card in Card.objects.all()
        if weakest_change(card_spec(card)) is not None and weakest_change(card_spec(card)).fragile
    }
    assert found == fragile and found
    others = set(search_cards(parse("-is:fragile")).values_list("token", flat=True))
    assert not found & others


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "How safe is this tier:"), ("ru", "Насколько надёжна эта редкость:")],
)
def test_the_card_page_says_what_would_lower_the_tier(client, collection, lang, words):
    token = search_cards(parse("is:fragile")).values_list("token", flat=True)[0]
    drop = weakest_change(card_spec(token))
    html = client.get(f"/{lang}/cards/{token}/").content.decode()
    said = re.search(r'<p class="tier-safety">(.*?)</p>', html, re.S)
    assert said and words in said.group(1)
    named = drop.name if drop.kind == "supply" else str(drop.rank)
    assert named in said.group(1)
