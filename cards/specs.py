"""The one bridge from database rows to engine inputs (and from results back to rows).

Nothing else in the project turns ``Attribute``/``Card``/``Combo`` rows into
``engine`` values: views, commands, the admin and the explorer call these.

* ``card_spec(card_or_token)`` → one ``CardSpec`` (3 queries).
* ``card_specs(cards)`` → ``CardSpec`` list in token order, for a queryset or an
  iterable of tokens: 3 queries whatever the wardrobe sizes (cards with their
  equipped attributes joined; every owned attribute; every combo with its
  attributes). Pass ``combos=`` (from ``combo_specs()``) to save the third.
* ``iter_card_specs(cards, batch_size)`` → batches of ``(card id, CardSpec)`` for
  whole-collection work (``recompute``, ``export_collection``).
* ``derived_fields(breakdown, spec)`` → the stored columns of ``Card`` (``DERIVED_FIELDS``).

Combos are named in ``ComboSpec.name``: ``combo_specs()`` gives their English names (the
stable key the collection file and the recompute use: stored derived fields never depend
on the visitor's language); ``combo_specs(localized=True)`` their names in the active
language, falling back to English where a translation is blank. ``card_spec`` and
``card_specs`` (what pages and the API show) use the localized names, so a Russian page
names a combo in Russian; the engine just carries the string it is given. The combos keep
their English-name order either way.
A combo the engine refuses (two attributes of one slot, no attributes) is left
out and logged; the admin form prevents both.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import router
from django.db.models import QuerySet
from django.utils.translation import get_language
from modeltranslation.utils import build_localized_fieldname

from core.memo import cached
from core.prepared import Prepared
from engine.card.derive import derive
from engine.card.fragility import is_fragile
from engine.card.rarity import decide_rarity, format_score
from engine.types import (
    AttributeKind,
    AttributeSpec,
    Breakdown,
    CardSpec,
    ComboSpec,
    InvalidCardError,
    Rarity,
    Slot,
)

from .models import EQUIPPED_FIELDS, Card, Combo

__all__ = [
    "DERIVED_FIELDS",
    "attribute_spec",
    "card_spec",
    "card_specs",
    "combo_specs",
    "derive_card",
    "derived_fields",
    "iter_card_specs",
    "near_rarity",
    "stored_fields",
]

logger = logging.getLogger(__name__)

# Stored columns of Card written from a Breakdown, in a fixed order.
DERIVED_FIELDS: tuple[str, ...] = (
    "rarity",
    "rarity_rank",
    "role",
    "skill_affinity",
    "active_skill",
    "template",
    "energy_cost",
    "atk",
    "hp",
    "defense",
    "ability",
    "wardrobe_score",
    "decided_by",
    "near_rank",
    "tier_fragile",
)

# Cards per query when a token list is long (keeps under every backend's parameter limit).
_TOKEN_CHUNK = 5000

_CARD_COLUMNS: tuple[str, ...] = (
    "id",
    "token",
    "name",
    "starter",
    "getgems_rank",
    "burned_stickers",
    *(f"{slot}__{col}" for slot in EQUIPPED_FIELDS for col in ("name", "supply", "kind")),
)
_SLOTS: tuple[Slot, ...] = tuple(Slot(s) for s in EQUIPPED_FIELDS)
_WARDROBE_COLUMNS = (
    "card_id",
    "attribute__slot",
    "attribute__name",
    "attribute__supply",
    "attribute__kind",
)


@cached(maxsize=65536)
def attribute_spec(slot: str, name: str, supply: int, kind: str) -> AttributeSpec:
    """The engine value of an attribute (memoised: equal attributes share one object).

    >>> attribute_spec("paw", "Qx Mitten", 12, "normal")
    AttributeSpec(slot=<Slot.PAW: 'paw'>, name='Qx Mitten', supply=12, kind=<AttributeKind.NORMAL: 'normal'>)
    """
    return AttributeSpec(Slot(slot), name, supply, AttributeKind(kind))


def _name_column(localized: bool) -> str:
    """The ``Combo`` name column to read: English, or the active language's."""
    language = (get_language() or "en").split("-")[0] if localized else "en"
    codes = {code for code, _name in settings.LANGUAGES}
    return build_localized_fieldname("name", language if language in codes else "en")


def combo_specs(*, localized: bool = False) -> tuple[ComboSpec, ...]:
    """Every combo the rules know, in English-name order (one query).

    Named in English, or with ``localized=True`` in the active language (English where
    that name is blank).
    """
    column = _name_column(localized)
    rows = (
        Combo.attributes.through.objects.order_by(
            "combo__name_en", "combo_id", "attribute__slot", "attribute_id"
        )
        .values_list(
            "combo_id",
            "combo__name_en",
            f"combo__{column}",
            "combo__rarity",
            "attribute__slot",
            "attribute__name",
        )
        .iterator(chunk_size=2000)
    )
    grouped: dict[int, tuple[str, str, list[tuple[Slot, str]]]] = {}
    for combo_id, name_en, name, rarity, slot, attr_name in rows:
        entry = grouped.setdefault(combo_id, ((name or "").strip() or name_en, rarity, []))
        entry[2].append((Slot(slot), attr_name))
    specs: list[ComboSpec] = []
    for name, rarity, attributes in grouped.values():
        try:
            specs.append(ComboSpec(name, tuple(attributes), Rarity(rarity)))
        except InvalidCardError as error:
            logger.warning("Combo %r left out of derivations: %s", name, error)
    return tuple(specs)


def _queryset(cards: QuerySet[Card] | Iterable[int]) -> list[QuerySet[Card]]:
    if isinstance(cards, QuerySet):
        return [cards]
    tokens = sorted(set(cards))
    return [
        Card.objects.filter(token__in=tokens[i : i + _TOKEN_CHUNK])
        for i in range(0, len(tokens), _TOKEN_CHUNK)
    ] or [Card.objects.none()]


def _load(queryset: QuerySet[Card], combos: tuple[ComboSpec, ...]) -> list[tuple[int, CardSpec]]:
    """(card id, CardSpec) for the cards of ``queryset`` in token order: two queries."""
    rows = list(queryset.order_by("token").values_list(*_CARD_COLUMNS))
    if not rows:
        return []
    owned: dict[int, list[AttributeSpec]] = defaultdict(list)
    through = Card.wardrobe.through.objects
    if len(rows) <= _TOKEN_CHUNK:
        through = through.filter(card_id__in=[row[0] for row in rows])
    else:
        through = through.filter(card_id__in=queryset.values("id"))
    for card_id, *attr in through.values_list(*_WARDROBE_COLUMNS).iterator(chunk_size=10000):
        owned[card_id].append(attribute_spec(*attr))
    return _built(rows, owned, combos)


def _built(
    rows: Iterable[tuple], owned: dict[int, list[AttributeSpec]], combos: tuple[ComboSpec, ...]
) -> list[tuple[int, CardSpec]]:
    result = []
    for card_id, token, name, starter, rank, burned, *equipped in rows:
        attrs = tuple(
            attribute_spec(slot.value, *equipped[i * 3 : i * 3 + 3])
            for i, slot in enumerate(_SLOTS)
        )
        spec = CardSpec(
            token=token,
            name=name,
            equipped=attrs,
            wardrobe=tuple(owned.get(card_id, ())),
            getgems_rank=rank,
            burned_stickers=burned,
            starter=starter,
            combos=combos,
        )
        result.append((card_id, spec))
    return result


def card_specs(
    cards: QuerySet[Card] | Iterable[int], *, combos: tuple[ComboSpec, ...] | None = None
) -> list[CardSpec]:
    """Engine inputs of many cards (a queryset, or tokens), in token order.

    Three queries (two with ``combos=``) however large the wardrobes; a token
    list longer than 5,000 takes two more per further 5,000.
    """
    if combos is None:
        combos = combo_specs(localized=True)
    return [spec for qs in _queryset(cards) for _, spec in _load(qs, combos)]


def card_spec(card: Card | int, *, combos: tuple[ComboSpec, ...] | None = None) -> CardSpec:
    """Engine input of one card (an instance or a token). ``Card.DoesNotExist`` if none.

    One query — the card, its equipped attributes and one row per wardrobe attribute —
    compiled once per database (``core.prepared``): for one card, compiling the ORM's
    joins cost ≈ 25× running them, and every card page, what-if and API call reads one.
    """
    token = card.token if isinstance(card, Card) else card
    if combos is None:
        combos = combo_specs(localized=True)
    rows = _ONE_CARD.rows(token, using=router.db_for_read(Card))
    if not rows:
        raise Card.DoesNotExist(f"No card with token {token}.")
    card_id = rows[0][0]
    # A card without a wardrobe is one row of nulls there.
    owned = {card_id: [attribute_spec(*row[-4:]) for row in rows if row[-4] is not None]}
    return _built([rows[0][:-4]], owned, combos)[0][1]


_ONE_CARD = Prepared(
    lambda token: Card.objects.filter(token=token).values_list(
        *_CARD_COLUMNS, *(f"wardrobe__{column}" for column in ("slot", "name", "supply", "kind"))
    )
)


def iter_card_specs(
    cards: QuerySet[Card] | None = None,
    *,
    batch_size: int = 2000,
    combos: tuple[ComboSpec, ...] | None = None,
) -> Iterator[list[tuple[int, CardSpec]]]:
    """Batches of ``(card id, CardSpec)`` in token order (all cards by default).

    One query for the card ids, one for the combos, then two per batch.
    """
    if combos is None:
        combos = combo_specs()
    queryset = Card.objects.all() if cards is None else cards
    ids = list(queryset.order_by("token").values_list("id", flat=True))
    for start in range(0, len(ids), batch_size):
        yield _load(Card.objects.filter(id__in=ids[start : start + batch_size]), combos)


def derived_fields(breakdown: Breakdown, card: CardSpec) -> dict[str, Any]:
    """The stored ``Card`` columns of ``card``'s derivation ``breakdown``, keyed by field
    name (``DERIVED_FIELDS``).

    ``wardrobe_score`` is the engine's one-decimal display, rounded down, as a Decimal;
    ``decided_by`` the rules that gave the rarity, each between commas (``,combo,``: what
    ``decided:`` finds); ``near_rank`` the rank of the rarest rarity one swap from the
    card's own wardrobe reaches (``near_rarity``; what ``near:`` finds).
    ``tier_fragile`` whether one step of market data lowers the rarity
    (``engine.card.fragility``).
    """
    score = breakdown.wardrobe_score
    return {
        "decided_by": "".join(f",{key}" for key in breakdown.decided_by) + ",",
        "near_rank": near_rarity(card, breakdown.rarity).rank,
        "rarity": breakdown.rarity.value,
        "rarity_rank": breakdown.rarity.rank,
        "role": breakdown.role.value,
        "skill_affinity": breakdown.skill_affinity.value,
        "active_skill": breakdown.active_skill.value if breakdown.active_skill else None,
        "template": breakdown.template,
        "energy_cost": breakdown.energy_cost,
        "atk": breakdown.stats.atk,
        "hp": breakdown.stats.hp,
        "defense": breakdown.stats.def_,
        "ability": breakdown.stats.ability,
        "wardrobe_score": None if score is None else Decimal(format_score(score)),
        "tier_fragile": is_fragile(card, breakdown),
    }


def swaps(card: CardSpec) -> Iterator[CardSpec]:
    """``card`` with one owned attribute it does not wear put on in its slot — each such
    swap once, in wardrobe order (what the card page's what-if does for one slot)."""
    index = {slot: i for i, slot in enumerate(_SLOTS)}
    for attribute in card.wardrobe:
        equipped = list(card.equipped)
        replaced = equipped[index[attribute.slot]]
        equipped[index[attribute.slot]] = attribute
        wardrobe = (*tuple(a for a in card.wardrobe if a != attribute), replaced)
        yield dataclasses.replace(card, equipped=tuple(equipped), wardrobe=wardrobe)


def near_rarity(card: CardSpec, rarity: Rarity | None = None) -> Rarity:
    """The rarest rarity one swap from ``card``'s own wardrobe gives it (its own rarity
    ``rarity`` when no swap lifts it; a starter card stays Free): ``near:epic`` finds the
    cards below Epic whose this is Epic or Legendary."""
    best = rarity if rarity is not None else decide_rarity(card).rarity
    if card.starter or best is Rarity.LEGENDARY:
        return best  # nothing above
    for swapped in swaps(card):
        reached = decide_rarity(swapped).rarity
        if reached.rank > best.rank:
            best = reached
    return best


def derive_card(card: Card | int) -> Breakdown:
    """A live derivation of one stored card (what its pages show)."""
    return derive(card_spec(card))


def stored_fields(card: Card) -> dict[str, Any]:
    """The derived values a card row holds now (to compare with ``derived_fields``)."""
    return {field: getattr(card, field) for field in DERIVED_FIELDS}
