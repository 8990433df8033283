"""The slab arena's data: slabs, their dated insured values, matches and balance reports.

A slab's lasting facts (asset ID, card name, grade, year) are a ``Slab``; its insured value
locks daily at 00:00 UTC and is a ``SlabValue`` per UTC day. The value of a day is the
latest one dated on or before it (``arena.selectors``). Money is ``Decimal`` everywhere.

A match stores what makes it reproducible — both teams as snapshots of the slabs and their
values on the match day (``arena.specs.team_to_json``), the seed and the action list — plus
the server's clock for the turn in progress (``turn_started_at``).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.labels import choices
from core.models import BalanceRun, BotMatch
from engine.arena.bots import ArenaBot
from engine.arena.slabs import GRADE_MAX, GRADE_MIN, GRADE_STEP, Bracket

from .formatting import money

ASSET_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$"
ASSET_ID_MAX = 100
VALUE_MAX_DIGITS = 12  # up to $9,999,999,999.99


def validate_grade(value: Decimal) -> None:
    """1 to 10 in half steps (docs/rules.md §8)."""
    if value is None:
        return
    if not GRADE_MIN <= value <= GRADE_MAX or value % GRADE_STEP != 0:
        raise ValidationError(
            _("A grade goes from %(min)s to %(max)s in steps of %(step)s."),
            code="grade",
            params={"min": GRADE_MIN, "max": GRADE_MAX, "step": GRADE_STEP},
        )


asset_id_validator = RegexValidator(
    ASSET_ID_PATTERN,
    _("An asset ID is 1 to 100 letters, digits, dots, colons, dashes or underscores."),
    code="asset_id",
)


class Slab(models.Model):
    """A graded, insured trading card that fights in the arena."""

    asset_id = models.CharField(
        _("asset ID"), max_length=ASSET_ID_MAX, unique=True, validators=[asset_id_validator]
    )
    name = models.CharField(_("card name"), max_length=200)
    grade = models.DecimalField(
        _("grade"), max_digits=3, decimal_places=1, validators=[validate_grade]
    )
    year = models.PositiveSmallIntegerField(
        _("year"), validators=[MinValueValidator(1), MaxValueValidator(9999)]
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("slab")
        verbose_name_plural = _("slabs")
        ordering = ["asset_id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.asset_id})"

    def get_absolute_url(self) -> str:
        """The slab's page, in the active language (the admin's "View on site")."""
        return reverse("arena:slab-detail", kwargs={"asset_id": self.asset_id})


class SlabValue(models.Model):
    """A slab's insured value in US dollars on one UTC day (locked at 00:00 UTC)."""

    slab = models.ForeignKey(
        Slab, on_delete=models.CASCADE, related_name="values", verbose_name=_("slab")
    )
    date = models.DateField(_("date (UTC)"))
    value = models.DecimalField(
        _("insured value (USD)"),
        max_digits=VALUE_MAX_DIGITS,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0))],
    )

    class Meta:
        verbose_name = _("slab value")
        verbose_name_plural = _("slab values")
        ordering = ["slab", "-date"]
        constraints = [
            models.UniqueConstraint(fields=["slab", "date"], name="arena_one_value_per_day"),
            models.CheckConstraint(
                condition=models.Q(value__gte=0), name="arena_value_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["date"], name="arena_value_date")]

    def __str__(self) -> str:
        return f"{self.slab_id} {self.date}: {money(self.value)}"


class MatchStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("match status", "In progress")
    WON = "won", pgettext_lazy("match status", "Won")
    LOST = "lost", pgettext_lazy("match status", "Lost")
    DRAW = "draw", pgettext_lazy("match status", "Draw")


class ArenaMatch(BotMatch):
    """A match against a bot: the player is side A, the bot side B."""

    Status = MatchStatus

    bracket = models.CharField(_("bracket"), max_length=10, choices=choices(Bracket))
    match_day = models.DateField(_("match day (UTC)"))
    bot = models.CharField(
        _("bot"), max_length=20, choices=choices(ArenaBot), default=ArenaBot.PLANNER.value
    )
    team_a = models.JSONField(_("player team"), help_text=_("Slabs and values on the match day."))
    team_b = models.JSONField(_("bot team"), help_text=_("Slabs and values on the match day."))
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.ACTIVE
    )
    turn = models.PositiveIntegerField(_("turn"), default=1)
    turn_started_at = models.DateTimeField(_("turn started at"))

    class Meta(BotMatch.Meta):
        verbose_name = _("arena match")
        verbose_name_plural = _("arena matches")
        indexes = [
            models.Index(fields=["owner_session_key", "-updated_at"], name="arena_match_owner")
        ]


class SessionTeam(models.Model):
    """A visitor's team being built: the asset IDs in team order, one row per session.

    Not in the session itself: a session is saved whole at the end of each request, so two
    edits sent at once would each save their own copy and one would be lost. A change
    locks this row (``arena.services.edit_team``) and is applied to what is stored."""

    session_key = models.CharField(_("session"), max_length=40, unique=True)
    slabs = models.JSONField(_("slabs"), default=list, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("session team")
        verbose_name_plural = _("session teams")

    def __str__(self) -> str:
        return ", ".join(map(str, self.slabs)) or "—"


class ArenaBalanceReport(BalanceRun):
    """One balance run (bot vs bot over the slabs); the Leagues page shows the latest."""

    match_day = models.DateField(_("match day (UTC)"))
    games = models.PositiveIntegerField(_("games"))
    slabs = models.PositiveIntegerField(_("slabs with a value"))
    data = models.JSONField(_("data"))

    class Meta(BalanceRun.Meta):
        verbose_name = _("arena balance report")
        verbose_name_plural = _("arena balance reports")

    def __str__(self) -> str:
        return f"{self.games} games, seed {self.seed} ({self.created_at:%Y-%m-%d %H:%M})"
