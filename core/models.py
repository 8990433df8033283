"""Site-wide bookkeeping."""

import uuid
from typing import Any, ClassVar

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


class BotMatch(models.Model):
    """What a match against a bot keeps in every game (play's demo, the arena): its public
    id, the session that owns it, its seed, the actions so far and when it ended how.
    Each game adds its own status choices, sides and clock."""

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    owner_session_key = models.CharField(_("owner session"), max_length=40, db_index=True)
    seed = models.PositiveBigIntegerField(_("seed"))
    actions = models.JSONField(_("actions"), default=list, blank=True)
    end_reason = models.CharField(_("end reason"), max_length=20, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    status: models.CharField  # each game's own choices,
    Status: ClassVar[Any]  # with their TextChoices: ACTIVE, WON, LOST, DRAW at least

    class Meta:
        abstract = True
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.get_status_display()})"

    @property
    def over(self) -> bool:
        """Finished (or, in the demo, set aside unfinished): no more moves."""
        return self.status != self.Status.ACTIVE

    @classmethod
    def status_of(cls, state: Any) -> str:
        """The stored status of an engine state (either game's ``result``: ``"a"`` the
        player's side, ``"b"`` the bot, ``"draw"``, None while it runs)."""
        return {"a": cls.Status.WON, "b": cls.Status.LOST, "draw": cls.Status.DRAW}.get(
            state.result, cls.Status.ACTIVE
        )


class BalanceRun(models.Model):
    """What every stored balance or power measurement keeps: when, its seed and how long it
    took; the latest is the one shown."""

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    seed = models.BigIntegerField(_("seed"))
    seconds = models.FloatField(_("seconds"))

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]
        get_latest_by = ["created_at", "id"]
