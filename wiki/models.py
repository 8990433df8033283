"""The wiki's tables: pages (translated with modeltranslation) and their revisions.

Models stay thin: saving a page with a revision, reverting and conflict checks live in
``wiki.services``; queries in ``wiki.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: The edit summary of a revision created by ``load_wiki``.
IMPORT_SUMMARY = "Imported from wiki/content"


class Section(models.TextChoices):
    """Where a page sits on the wiki index (display order = definition order)."""

    BASICS = "basics", _("Basics")
    CARDS = "cards", _("Cards")
    MATCH = "match", _("Match")
    COLLECTORS = "collectors", _("For collectors")
    ARENA = "arena", _("Slab arena")


class Page(models.Model):
    """A rules page. ``title``, ``summary`` and ``body`` (Markdown) exist per language."""

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    title = models.CharField(_("title"), max_length=200)
    summary = models.TextField(_("summary"), blank=True)
    body = models.TextField(_("body (Markdown)"), blank=True)
    section = models.CharField(
        _("section"), max_length=20, choices=Section.choices, default=Section.BASICS
    )
    order = models.PositiveIntegerField(_("order"), default=0)
    related = models.ManyToManyField(
        "self", verbose_name=_("related pages"), blank=True, symmetrical=False
    )
    published = models.BooleanField(_("published"), default=True)
    # The number of the latest revision (0 before the first). Denormalised so the page view,
    # the render cache key and the edit-conflict check need no extra query.
    revision_number = models.PositiveIntegerField(_("revision"), default=0, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last edited"), auto_now=True)

    class Meta:
        ordering = ["section", "order", "slug"]
        verbose_name = _("wiki page")
        verbose_name_plural = _("wiki pages")

    def __str__(self) -> str:
        # modeltranslation's ``title``: the active language's, else the English one.
        return self.title or self.slug

    def get_absolute_url(self) -> str:
        return reverse("wiki:page", kwargs={"slug": self.slug})


class PageRevision(models.Model):
    """A full snapshot of a page (both languages) taken by every save. Never edited."""

    page = models.ForeignKey(
        Page, verbose_name=_("page"), on_delete=models.CASCADE, related_name="revisions"
    )
    number = models.PositiveIntegerField(_("number"))
    snapshot = models.JSONField(_("snapshot"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("saved at"), default=timezone.now)
    summary = models.CharField(_("edit summary"), max_length=300, blank=True)
    # Set when this revision restored an older one.
    reverted_from = models.PositiveIntegerField(_("restored revision"), null=True, blank=True)

    class Meta:
        ordering = ["page", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["page", "number"], name="wiki_revision_unique_number")
        ]
        verbose_name = _("page revision")
        verbose_name_plural = _("page revisions")

    def __str__(self) -> str:
        return f"{self.page_id}#{self.number}"

    @property
    def display_summary(self) -> str:
        """The edit summary, with the summaries the wiki writes itself translated."""
        if self.reverted_from is not None:
            return gettext("Reverted to revision %(number)s") % {"number": self.reverted_from}
        if self.summary == IMPORT_SUMMARY:
            return gettext("Imported from wiki/content")
        return self.summary
