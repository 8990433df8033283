"""One way to read a translated model field (django-modeltranslation's ``<field>_<lang>``
columns) for a page: the text in the visitor's language, or the English one, flagged.

>>> from types import SimpleNamespace
>>> pool = SimpleNamespace(name_en="Starter pool", name_ru="")
>>> localized(pool, "name", "ru")
LocalizedText(value='Starter pool', lang='en', fallback=True)
>>> localized(SimpleNamespace(name_en="x", name_ru="икс"), "name", "ru").value
'икс'
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import get_language

DEFAULT_LANGUAGE: str = settings.MODELTRANSLATION_DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class LocalizedText:
    """A translated field's value as shown, the language it is in, and whether it fell back."""

    value: str
    lang: str
    fallback: bool


def localized(obj: object, field: str, lang: str | None = None) -> LocalizedText:
    """``obj.<field>_<lang>`` (``lang`` defaults to the active language), or the English
    text, flagged as a fallback, when that one is empty."""
    if lang is None:
        lang = (get_language() or DEFAULT_LANGUAGE).split("-")[0]
    value = getattr(obj, f"{field}_{lang}", None) or ""
    if value.strip() or lang == DEFAULT_LANGUAGE:
        return LocalizedText(value, lang, False)
    english = getattr(obj, f"{field}_{DEFAULT_LANGUAGE}", None) or ""
    return LocalizedText(english, DEFAULT_LANGUAGE, bool(english.strip()))
