"""The explorer's own bookkeeping: which bulk file holds which version of the collection."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class BulkFile(models.Model):
    """A written bulk file (``explorer.bulk``): the collection at one content version.

    The database says which file belongs to which version, so a file left on disk by an
    earlier database whose version numbers happened to match is never served.
    """

    version = models.CharField(_("content version"), max_length=40, unique=True)
    name = models.CharField(_("file name"), max_length=120)
    size = models.PositiveBigIntegerField(_("size in bytes"))
    created = models.DateTimeField(_("written at"), auto_now_add=True)

    class Meta:
        verbose_name = _("bulk file")
        verbose_name_plural = _("bulk files")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name
