"""Small builders for card tests: a catalogue of attributes and cards over it."""

from __future__ import annotations

import pytest

from cards.models import Attribute, Card


def attr(slot: str, name: str, supply: int = 100, kind: str = "normal") -> Attribute:
    return Attribute.objects.create(slot=slot, name=name, supply=supply, kind=kind)


def make_card(token: int, *, head=None, body=None, paw=None, background=None, **fields) -> Card:
    """A card with plain base attributes unless some are given (created as needed)."""
    defaults = {
        "head": head or _plain("head", "Cap"),
        "body": body or _plain("body", "Vest"),
        "paw": paw or _plain("paw", "Ring"),
        "background": background or _plain("background", "Meadow"),
    }
    return Card.objects.create(
        token=token, name=fields.pop("name", f"Pup #{token}"), **defaults, **fields
    )


def _plain(slot: str, name: str) -> Attribute:
    found = Attribute.objects.filter(slot=slot, name=name).first()
    return found or attr(slot, name, 900)


@pytest.fixture
def catalogue(db):
    """A handful of attributes per slot with keyword names and every tier."""
    return {
        "crown": attr("head", "Iron Crown", 3),
        "hood": attr("head", "Hexed Hood", 12),
        "cap": attr("head", "Cap", 900),
        "armor": attr("body", "Chain Armor", 2),
        "cloak": attr("body", "Velvet Cloak", 40),
        "vest": attr("body", "Vest", 900),
        "axe": attr("paw", "Axe", 3),
        "mitten": attr("paw", "Qx Mitten", 12),
        "dagger": attr("paw", "Dagger", 30),
        "ring": attr("paw", "Ring", 900),
        "sky": attr("background", "Sky", 800),
        "nebula": attr("background", "Oracle Nebula", 1, "god"),
        "meadow": attr("background", "Meadow", 900),
    }


@pytest.fixture
def legend(catalogue):
    """Three equipped slots at supply ≤ 3: Legendary by the supply count rule."""
    return make_card(
        42,
        head=catalogue["crown"],
        body=catalogue["armor"],
        paw=catalogue["axe"],
        background=catalogue["sky"],
        getgems_rank=300,
    )
