"""Admin building blocks the apps' admins share."""

from __future__ import annotations

from django import forms

__all__ = ["TranslationTabsMedia"]


class TranslationTabsMedia:
    """Media for django-modeltranslation's tabbed admin under our Content Security Policy.

    modeltranslation's ``TabbedTranslationAdmin`` loads jQuery UI from a CDN, which the
    CSP blocks (only our own scripts run), so the language tabs never appear. This mixin
    drops the CDN files and puts a small local tabs widget (``wiki/admin/tabs.js``, the
    subset of jQuery UI's tabs that modeltranslation uses) in front of modeltranslation's
    own script. ``extra_js`` and ``extra_css`` add an admin's own scripts and stylesheets.
    Put it first::

        class ComboAdmin(TranslationTabsMedia, TabbedTranslationAdmin): ...
    """

    TABS_SCRIPT = "modeltranslation/js/tabbed_translation_fields.js"
    LOCAL_TABS = "wiki/admin/tabs.js"
    extra_js: tuple[str, ...] = ()
    extra_css: tuple[str, ...] = ()

    class Media:
        """Empty on purpose. Django's media metaclass gives every admin class that does not
        define ``media`` itself a property that adds the nearest ``Media`` definition on
        top; without this one that would be TabbedTranslationAdmin's, CDN files and all."""

    @property
    def media(self) -> forms.Media:
        base = super().media  # type: ignore[misc]
        js = [j for j in base._js if "jquery-ui" not in str(j) and "googleapis" not in str(j)]
        if self.TABS_SCRIPT in js:
            js.insert(js.index(self.TABS_SCRIPT), self.LOCAL_TABS)
        css = {medium: list(files) for medium, files in base._css.items()}
        if self.extra_css:
            css.setdefault("all", []).extend(self.extra_css)
        return forms.Media(js=[*js, *self.extra_js], css=css)
