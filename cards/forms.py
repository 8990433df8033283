"""Form fields for the collection's own values, shared by the admin and the explorer.

A card token is typed by people as ``42`` or ``#42``; this is the one place that reads it.
``core.forms.AsciiIntegerField`` does the reading, so a character that ``str.isdigit``
calls a digit (``²``, ``①``) or that ``int`` reads in another script (``٤``, ``４``) is a
form error like any other, never a crash nor a card.

>>> TokenField().clean("#42"), TokenField(required=False).clean("")
(42, None)
>>> TokenField().clean("²")
Traceback (most recent call last):
...
django.core.exceptions.ValidationError: ['“²” is not a card token (a whole number).']
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.forms import AsciiIntegerField

__all__ = ["MAX_TOKEN", "TokenField", "parse_token"]

# The largest token a PositiveIntegerField holds on every database backend.
MAX_TOKEN = 2**31 - 1


class TokenField(AsciiIntegerField):
    """A card token from 1 to ``MAX_TOKEN``, with or without a leading ``#``.

    Every refusal (not a number, out of range, missing) is the same sentence, naming
    what was typed.
    """

    default_error_messages = {
        "invalid": _("“%(value)s” is not a card token (a whole number)."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_TOKEN)
        super().__init__(signed=False, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = value.strip().lstrip("#")
        return super().to_python(value)

    def clean(self, value: Any) -> int | None:
        try:
            return super().clean(value)
        except ValidationError:
            shown = str(value if value is not None else "").strip().lstrip("#")[:20]
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": shown}
            ) from None


def parse_token(text: str) -> int | None:
    """``text`` as a card token, or None when it is not one (for search boxes).

    >>> parse_token(" #7 "), parse_token("Sprocket"), parse_token("²")
    (7, None, None)
    """
    try:
        return TokenField().clean(text)
    except ValidationError:
        return None
