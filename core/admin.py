"""Admin building blocks the apps' admins share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_noop, ngettext_lazy

__all__ = [
    "DJANGO_ADMIN_PLURAL_TEXTS",
    "DJANGO_ADMIN_TEXTS",
    "TranslationTabsMedia",
    "UniqueRaceAdmin",
]


class UniqueRaceAdmin:
    """A save that loses a race on a unique field shows the form error, not a 500.

    The form checks unique fields (a page's address, a pool's) before the save, but two
    staff adding the same one at once both pass the check, and the second insert breaks
    the constraint (on PostgreSQL an ``IntegrityError``; SQLite's one writer at a time
    mostly hides it). The whole change form then runs in a savepoint; after such an error
    it runs once more, and its unique check, now seeing the other row, says "already
    exists" on the field. Put it first: ``class PoolAdmin(UniqueRaceAdmin, ...)``.
    """

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        parent: Any = super()
        try:
            with transaction.atomic():
                return parent.changeform_view(request, object_id, form_url, extra_context)
        except IntegrityError:
            return parent.changeform_view(request, object_id, form_url, extra_context)


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
        # A mixin: the media of the admin class after it in the MRO.
        base: forms.Media = getattr(super(), "media")  # noqa: B009
        js = [j for j in base._js if "jquery-ui" not in str(j) and "googleapis" not in str(j)]
        if self.TABS_SCRIPT in js:
            js.insert(js.index(self.TABS_SCRIPT), self.LOCAL_TABS)
        css = {medium: list(files) for medium, files in base._css.items()}
        if self.extra_css:
            css.setdefault("all", []).extend(self.extra_css)
        return forms.Media(js=[*js, *self.extra_js], css=css)


# ---------------------------------------------------------------------------
# Django's admin names a model by its verbose name inside sentences of its own: "Change %s",
# "The {name} “{obj}” was added successfully." Its Russian catalogue fills them with the
# nominative and masculine endings («Изменить %s», «{name} … был успешно добавлен»), so
# "Изменить страница вики" and "карта … был добавлен": no single form of a feminine or
# neuter name reads right in all of them. Django's Russian translators already word their
# related-object buttons around the name («объект типа …»); the project's catalogue, which
# takes precedence over Django's, words the rest the same way, so every model's natural
# nominative name reads correctly. Listed here so that `make messages` extracts them; a test
# checks that Django still uses each of these texts.
DJANGO_ADMIN_TEXTS = (
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Cannot delete %(name)s"),
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Changed {fields} for {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related "
        "objects, but your account doesn't have permission to delete the following types of "
        "objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would require deleting the "
        "following protected related objects:"
    ),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? All of '
        "the following related items will be deleted:"
    ),
)
#: The plural one: "%(count)s %(name)s was changed successfully." (the change list's edits).
DJANGO_ADMIN_PLURAL_TEXTS = (
    ngettext_lazy(
        "%(count)s %(name)s was changed successfully.",
        "%(count)s %(name)s were changed successfully.",
    ),
)
