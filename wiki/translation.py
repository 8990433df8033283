"""Translated fields (modeltranslation): one column per language, added by migrations."""

from modeltranslation.translator import TranslationOptions, register

from .models import Page


@register(Page)
class PageTranslationOptions(TranslationOptions):
    fields = ("title", "summary", "body")
    # English is the source text: a page needs an English title and body; Russian may lag
    # (the page then says "not yet translated" instead of falling back silently).
    required_languages = {"en": ("title", "body"), "default": ()}
