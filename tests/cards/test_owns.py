"""owns: finds an attribute in the wardrobe, worn or not (the statistics page's "Cards
owning it" links to it)."""

from cards.search import search_cards
from cards.services import own_equipped, recompute_cards

from .conftest import attr, make_card


def test_owns_finds_what_a_card_owns_but_does_not_wear(db):
    crown = attr("head", "Ruby Crown", 3)
    plain = make_card(1)
    plain.wardrobe.add(crown)
    make_card(2)
    own_equipped()
    recompute_cards()
    assert list(search_cards("head:ruby").values_list("token", flat=True)) == []
    assert list(search_cards("owns:ruby").values_list("token", flat=True)) == [1]
    assert list(search_cards('owns="Ruby Crown"').values_list("token", flat=True)) == [1]
    assert sorted(search_cards("owns:cap").values_list("token", flat=True)) == [1, 2]
