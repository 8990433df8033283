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

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.labels import choices
from core.models import BalanceRun, BotMatch
from engine.types import BotKind


class MatchStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("match status", "In progress")
    WON = "won", pgettext_lazy("match status", "Won")
    LOST = "lost", pgettext_lazy("match status", "Lost")
    DRAW = "draw", pgettext_lazy("match status", "Draw")
    ABANDONED = "abandoned", pgettext_lazy("match status", "Set aside")


class Match(BotMatch):
    """A demo match: the player is side A, the bot side B."""

    Status = MatchStatus

    bot = models.CharField(
        _("bot"), max_length=20, choices=choices(BotKind), default=BotKind.GREEDY.value
    )
    deck_a = models.JSONField(_("player deck"), help_text=_("Combat profiles at the start."))
    deck_b = models.JSONField(_("bot deck"), help_text=_("Combat profiles at the start."))
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.ACTIVE
    )
    rounds = models.PositiveIntegerField(_("round"), default=1)

    class Meta(BotMatch.Meta):
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["owner_session_key", "-updated_at"]),
            models.Index(fields=["status", "updated_at"], name="play_match_status_updated"),
        ]

    @property
    def abandoned(self) -> bool:
        return self.status == MatchStatus.ABANDONED


class BalanceReport(BalanceRun):
    """The result of one ``balance_report`` run; the wiki macro shows the latest."""

    matches = models.PositiveIntegerField(_("matches"))
    deck_size = models.PositiveSmallIntegerField(_("deck size"))
    bots = models.CharField(_("bots"), max_length=40)
    cards = models.PositiveIntegerField(_("cards in the pool"))
    data = models.JSONField(_("data"))

    class Meta(BalanceRun.Meta):
        verbose_name = _("balance report")
        verbose_name_plural = _("balance reports")

    def __str__(self) -> str:
        return f"{self.matches} matches, seed {self.seed} ({self.created_at:%Y-%m-%d %H:%M})"
