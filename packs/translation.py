"""Translated fields (modeltranslation): one column per language, added by migrations."""

from modeltranslation.translator import TranslationOptions, register

from .models import Pool


@register(Pool)
class PoolTranslationOptions(TranslationOptions):
    fields = ("name", "description")
    # English is the source text; a Russian name or description may lag (the page then
    # shows the English one, marked as such, instead of falling back silently).
    required_languages = {"en": ("name",), "default": ()}
