"""Site-wide bookkeeping."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DataVersion(models.Model):
    """A counter per kind of content ("cards", "wiki", "balance"), bumped on every change.

    Cached pages carry the versions of what they show in their cache key, so a change in
    one process invalidates the pages every process serves (see ``core.versions``).
    """

    name = models.CharField(_("name"), max_length=40, unique=True)
    number = models.PositiveBigIntegerField(_("number"), default=0)
    # When it last changed: the sitemaps' lastmod and the link previews' Last-Modified.
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("data version")
        verbose_name_plural = _("data versions")

    def __str__(self) -> str:
        return f"{self.name} {self.number}"
