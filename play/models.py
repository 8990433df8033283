"""Stored matches of the demo (one player against a bot) and balance reports.

A match stores what makes it reproducible — both decks as combat-profile
snapshots (``engine.serialize.match_card_to_json``), the seed and the action list —
and is rebuilt by replaying the actions (``play.services.load``, which calls
``engine.match.replay``). Later changes to the collection or to the derivation never
alter a stored match.

A session keeps at most ``ACTIVE_MATCHES_PER_SESSION`` matches in progress: starting
another sets the oldest aside (``MatchStatus.ABANDONED``: it ends without a result, and
its replay stays). ``manage.py cleanup`` deletes matches left unfinished for a day.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.labels import choices
from engine.types import BotKind


class MatchStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("match status", "In progress")
    WON = "won", pgettext_lazy("match status", "Won")
    LOST = "lost", pgettext_lazy("match status", "Lost")
    DRAW = "draw", pgettext_lazy("match status", "Draw")
    ABANDONED = "abandoned", pgettext_lazy("match status", "Set aside")


class Match(models.Model):
    """A demo match: the player is side A, the bot side B."""

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    owner_session_key = models.CharField(_("owner session"), max_length=40, db_index=True)
    seed = models.PositiveBigIntegerField(_("seed"))
    bot = models.CharField(
        _("bot"), max_length=20, choices=choices(BotKind), default=BotKind.GREEDY.value
    )
    deck_a = models.JSONField(_("player deck"), help_text=_("Combat profiles at the start."))
    deck_b = models.JSONField(_("bot deck"), help_text=_("Combat profiles at the start."))
    actions = models.JSONField(_("actions"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.ACTIVE
    )
    end_reason = models.CharField(_("end reason"), max_length=20, blank=True)
    rounds = models.PositiveIntegerField(_("round"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner_session_key", "-updated_at"]),
            models.Index(fields=["status", "updated_at"], name="play_match_status_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.get_status_display()})"

    @property
    def over(self) -> bool:
        """Finished, or set aside unfinished: no more moves."""
        return self.status != MatchStatus.ACTIVE

    @property
    def abandoned(self) -> bool:
        return self.status == MatchStatus.ABANDONED


class BalanceReport(models.Model):
    """The result of one ``balance_report`` run; the wiki macro shows the latest."""

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    matches = models.PositiveIntegerField(_("matches"))
    seed = models.BigIntegerField(_("seed"))
    deck_size = models.PositiveSmallIntegerField(_("deck size"))
    bots = models.CharField(_("bots"), max_length=40)
    cards = models.PositiveIntegerField(_("cards in the pool"))
    seconds = models.FloatField(_("seconds"))
    data = models.JSONField(_("data"))

    class Meta:
        verbose_name = _("balance report")
        verbose_name_plural = _("balance reports")
        ordering = ["-created_at", "-id"]
        get_latest_by = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.matches} matches, seed {self.seed} ({self.created_at:%Y-%m-%d %H:%M})"
