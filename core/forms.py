"""Form fields every app reads request parameters with."""

from __future__ import annotations

import re
from typing import Any

from django import forms

__all__ = ["AsciiIntegerField"]

# At most 12 digits: more is no number a page of this site counts to.
_SIGNED = re.compile(r"[+-]?[0-9]{1,12}")
_UNSIGNED = re.compile(r"[0-9]{1,12}")


class AsciiIntegerField(forms.IntegerField):
    """An integer of at most 12 ASCII digits (with an optional sign unless ``signed=False``).

    Django's own field also reads "٣" or "１" as 3, and ``"²".isdigit()`` is True while
    ``int("²")`` raises: neither is a number a visitor typed into an address here.
    Blank is no value; anything else is the field's "invalid" error.
    """

    def __init__(self, *, signed: bool = True, **kwargs: Any) -> None:
        self.pattern = _SIGNED if signed else _UNSIGNED
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        text = "" if value is None else str(value).strip()
        if text and not self.pattern.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)
