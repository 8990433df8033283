"""Every refusal the engine's card reader can give reaches an importer in their language."""

from __future__ import annotations

import pytest
from django.utils import translation

from cards.messages import invalid_card_message
from engine.serialize import parse_card
from engine.types import InvalidCardError

CARD = '{"token": 1, "name": %s, "equipped": {}, "wardrobe": []}'

HOSTILE = {
    "max_int": '{"token": 99999999999999999999}',
    "too_long": CARD % ('"' + "x" * 500 + '"'),
    "nul": CARD % '"a\\u0000b"',
    "surrogate": CARD % '"\\ud800"',
    "max_int_digits": '{"token": ' + "9" * 5000 + "}",
    "json": '{"token": ',
}


def refusal(text: str) -> InvalidCardError:
    with pytest.raises(InvalidCardError) as caught:
        parse_card(text)
    return caught.value


@pytest.mark.parametrize("code", HOSTILE)
def test_each_refusal_is_worded_in_russian(code: str) -> None:
    error = refusal(HOSTILE[code])
    assert error.code == code.removesuffix("_digits")
    with translation.override("en"):
        english = invalid_card_message(error)
    with translation.override("ru"):
        russian = invalid_card_message(error)
    assert russian != english and not any("a" <= ch <= "z" for ch in russian.split("(")[0])
