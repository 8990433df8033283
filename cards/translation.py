"""Fields shown to players in their language (django-modeltranslation)."""

from modeltranslation.translator import TranslationOptions, register

from .models import Combo


@register(Combo)
class ComboTranslationOptions(TranslationOptions):
    fields = ("name",)
    required_languages = ("en",)
