"""Hypothesis strategies for engine inputs (shared by the property tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.data import KEYWORDS
from engine.types import AttributeKind, AttributeSpec, CardSpec, ComboSpec, Rarity, Slot

_FRAGMENTS = sorted(f for fragments in KEYWORDS.values() for f in fragments)
_WORDS = ["Plain", "Old", "Royal", "Tiny", "Blue", "Кот", "Ёж", "Cabbage", "Straw", "Gold"]

words = st.one_of(
    st.sampled_from(_FRAGMENTS).map(str.title),
    st.sampled_from(_FRAGMENTS).map(lambda f: f + "s"),
    st.sampled_from(_WORDS),
)
names = st.one_of(
    st.lists(words, min_size=1, max_size=3).map(" ".join),
    # Any text a card name may be (engine.serialize refuses NUL and lone surrogates).
    st.text(
        st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=12
    ).filter(str.strip),
)
supplies = st.one_of(st.integers(1, 30), st.integers(1, 3000))
kinds = st.sampled_from([AttributeKind.NORMAL] * 8 + [AttributeKind.GOD, AttributeKind.PREMIUM])


def attributes(slot: Slot | None = None) -> st.SearchStrategy[AttributeSpec]:
    slot_st = st.just(slot) if slot is not None else st.sampled_from(list(Slot))
    return st.builds(AttributeSpec, slot_st, names, supplies, kinds)


@st.composite
def cards(draw: st.DrawFn, starter: bool | None = None) -> CardSpec:
    equipped = tuple(draw(attributes(slot)) for slot in Slot)
    owned = {a.key for a in equipped}
    wardrobe = []
    for attr in draw(st.lists(attributes(), max_size=8)):
        if attr.key not in owned:
            owned.add(attr.key)
            wardrobe.append(attr)
    combos = []
    for i in range(draw(st.integers(0, 2))):
        slots = draw(st.lists(st.sampled_from(list(Slot)), min_size=1, max_size=4, unique=True))
        pairs = tuple(
            (s, equipped[list(Slot).index(s)].name if draw(st.booleans()) else f"Combo {i}")
            for s in slots
        )
        rarity = draw(st.sampled_from([r for r in Rarity if r is not Rarity.FREE]))
        combos.append(ComboSpec(f"combo {i}", pairs, rarity))
    return CardSpec(
        token=draw(st.integers(1, 10_000)),
        name=draw(names),
        equipped=equipped,
        wardrobe=tuple(wardrobe),
        getgems_rank=draw(st.one_of(st.none(), st.integers(1, 400))),
        burned_stickers=draw(st.integers(0, 12)),
        starter=draw(st.booleans()) if starter is None else starter,
        combos=tuple(combos),
    )
