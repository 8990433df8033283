"""Compare names the deciding rule (issue 30): one sentence says why the first card's
rarity is above the second's (or that they are level), which rule decides each, and what
the lower one would need — the card page's own ways up, with a what-if checked to get
there."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from cards.models import Card
from cards.specs import card_spec
from core.labels import rule_label
from engine.card.derive import derive
from engine.card.rarity import decide_rarity, paths_to
from engine.types import Rarity

pytestmark = pytest.mark.django_db


def verdict(client, a, b, lang: str = "en") -> tuple[str, str]:
    """The sentence, and its "Try it" link ("" when none)."""
    page = client.get(f"/{lang}/cards/compare/", {"a": a, "b": b}).content.decode()
    found = re.search(r'<p class="compare-verdict">(.*?)</p>', page, re.S)
    assert found, "no verdict"
    link = re.search(r'href="([^"]+)"', found.group(1))
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    return text, htmllib.unescape(link.group(1)) if link else ""


def pair(higher: str, lower: str) -> tuple[Card, Card]:
    """A card of rarity ``higher`` and one of ``lower`` that can reach it by a way up of
    its own (a what-if the card page would offer)."""
    top = Card.objects.filter(rarity=higher, starter=False).order_by("token").first()
    for card in Card.objects.filter(rarity=lower, starter=False).order_by("token"):
        if paths_to(card_spec(card), Rarity(higher)) is not None:
            return top, card
    pytest.skip(f"no {lower} card with a way to {higher}")


def test_the_higher_card_is_named_with_its_deciding_rule_and_the_lower_ones_need(client, demo):
    top, low = pair("legendary", "epic")
    text, link = verdict(client, top.token, low.token)
    deciding = derive(card_spec(top)).decided_by
    assert text.startswith(f"{top.name} is above {low.name}: Legendary (decided by ")
    assert all(rule_label(key) in text for key in deciding)
    assert f"beats Epic (decided by {rule_label(derive(card_spec(low)).decided_by[0])}" in text
    assert f"to reach Legendary, {low.name} would need: " in text
    # The way up is the card page's own, and its what-if really reaches Legendary.
    assert link.startswith(f"/en/cards/{low.token}/?")
    tried = client.get(link).content.decode()
    assert 'class="rarity-badge rarity-bg-legendary"' in tried
    # Either order says the same: the higher card first.
    assert verdict(client, low.token, top.token) == (text, link)


def test_level_cards_say_so_and_what_the_second_needs_to_rise(client, demo):
    a, b = Card.objects.filter(rarity="epic", starter=False).order_by("token")[:2]
    text, _link = verdict(client, a.token, b.token)
    assert text.startswith(f"{a.name} and {b.name} are both Epic ({a.name}: ")
    assert f"to rise to Legendary, {b.name} would need: " in text or (
        f"nothing of its own would lift {b.name} to Legendary" in text
    )
    top = Card.objects.filter(rarity="legendary").order_by("token")[:2]
    text, link = verdict(client, top[0].token, top[1].token)
    assert text.endswith("and neither can rise higher.") and not link


def test_a_starter_card_cannot_lift_itself(client, demo):
    starter = Card.objects.filter(starter=True).order_by("token").first()
    common = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    text, link = verdict(client, common.token, starter.token)
    assert "beats Free (a starter card)" in text
    assert f"nothing of its own would lift {starter.name} to Common" in text and not link


def test_the_verdict_is_russian_on_the_russian_page(client, demo):
    top, low = pair("legendary", "epic")
    text, link = verdict(client, top.token, low.token, "ru")
    assert f"{top.name} выше, чем {low.name}" in text
    assert "is above" not in text and "decided by" not in text
    assert link.startswith(f"/ru/cards/{low.token}/?")


def test_the_need_is_the_first_way_up_the_card_page_checks(client, demo):
    top, low = pair("legendary", "rare")
    _text, link = verdict(client, top.token, low.token)
    spec = card_spec(low)
    assert decide_rarity(spec).rarity is Rarity.RARE
    if link:  # a checked what-if of the lower card, as the ways-up list links it
        paths = client.get(f"/en/cards/{low.token}/paths/").content.decode()
        assert htmllib.unescape(link).split("?")[1] in htmllib.unescape(paths)
