"""Booster pools, openings and the power promise in the database (docs/rules.md §7).

* ``Pool`` — a named list of cards (name and description translated,
  ``packs/translation.py``) and its pack size. A card's tier is not stored here:
  it is the card's derived rarity at the moment a pack is opened. Free cards are
  refused when a pool is saved through the admin (``packs.forms.PoolAdminForm``)
  or ``packs.services``, and left out of any draw if one became Free later.
* ``Opening`` — one pack opened by one visitor's session: its draw seed (made at the
  POST from the day's server seed, the client seed and its nonce), the pool's candidate
  list as it was (token
  and tier of each card, in draw order: a ``CandidateList``, stored once per
  version of the list and shared by its openings), the pack size and the picks. Its
  permalink replays the draw from these alone, so a later change to the pool or
  to the collection never changes what an opening shows, and a replay that gives
  other picks is shown as not verified.
* ``DaySeed`` — a UTC day's server seed (32 bytes from ``secrets``, hex) and its
  commitment (their SHA-256), shown from the day's start; the seed is revealed once the
  day has ended (``engine.ledger``).
* ``OddsVersion`` — a pool's odds as they were: its candidate list, pack size and tier
  weights, numbered and dated, with what changed from the version before. Each opening
  records the version it was drawn under, and its place in the day's ledger (nonce,
  client seed, ``prev`` and ``hash``).
* ``PowerRun`` / ``CardPower`` — the power promise (seed 003): every card's win
  rate against a fixed gauntlet, measured by ``manage.py compute_power``.
"""

from __future__ import annotations

import hashlib
import json
import uuid

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards.models import Card
from core.models import BalanceRun
from engine.packs import PACK_SIZE_DEFAULT, PACK_SIZE_MAX, PACK_SIZE_MIN

# Addresses the booster pages use for themselves (/packs/binder/, /packs/openings/…):
# no pool may take them.
RESERVED_SLUGS = ("binder", "openings", "ledger", "verify")


class Pool(models.Model):
    """A booster pool: the cards a pack draws from, and how many it draws."""

    slug = models.SlugField(
        _("address"),
        max_length=60,
        unique=True,
        help_text=_("The pool's address on the site: lowercase letters, digits and hyphens."),
    )
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    pack_size = models.PositiveSmallIntegerField(
        _("pack size"),
        default=PACK_SIZE_DEFAULT,
        validators=[MinValueValidator(PACK_SIZE_MIN), MaxValueValidator(PACK_SIZE_MAX)],
        help_text=lazy(
            lambda: (
                gettext("Cards in one pack, from %(low)s to %(high)s.")
                % {"low": PACK_SIZE_MIN, "high": PACK_SIZE_MAX}
            ),
            str,
        )(),
    )
    cards = models.ManyToManyField(
        Card,
        related_name="pools",
        blank=True,
        verbose_name=_("cards"),
        # The admin's card picker offers no Free (starter) card; saving one is refused.
        limit_choices_to={"starter": False},
    )
    position = models.PositiveSmallIntegerField(
        _("position"), default=0, help_text=_("Pools are listed by this number, lowest first.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("booster pool")
        verbose_name_plural = _("booster pools")
        ordering = ["position", "slug"]
        constraints = [
            models.CheckConstraint(
                condition=Q(pack_size__gte=PACK_SIZE_MIN) & Q(pack_size__lte=PACK_SIZE_MAX),
                name="packs_pool_pack_size_range",
            ),
            models.CheckConstraint(condition=~Q(slug=""), name="packs_pool_slug_not_empty"),
            models.CheckConstraint(
                condition=~Q(slug__in=RESERVED_SLUGS), name="packs_pool_slug_not_reserved"
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.slug

    def get_absolute_url(self) -> str:
        return reverse("packs:pool-detail", kwargs={"slug": self.slug})


class CandidateList(models.Model):
    """A pool's candidate list as it was at some openings — [token, tier] of each card, in
    draw order — stored once and shared by every opening drawn from it (the list changes
    only when the pool or a card's tier does). ``digest`` is ``candidate_digest`` of it."""

    digest = models.CharField(_("digest"), max_length=64, unique=True)
    candidates = models.JSONField(
        _("candidates"), help_text=_("The pool as it was: [token, tier] of each card, in order.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("candidate list")
        verbose_name_plural = _("candidate lists")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{len(self.candidates)} cards ({self.digest[:12]})"


def candidate_digest(candidates: list[list]) -> str:
    """The digest a candidate list is stored under (its compact JSON's SHA-256)."""
    text = json.dumps(candidates, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class DaySeed(models.Model):
    """A UTC day's server seed and its commitment (docs/rules.md §7)."""

    day = models.DateField(_("day"), unique=True)
    seed = models.CharField(_("server seed"), max_length=64, help_text=_("32 bytes, as hex."))
    commitment = models.CharField(
        _("commitment"), max_length=64, help_text=_("The SHA-256 of the seed, as hex.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("day's seed")
        verbose_name_plural = _("days' seeds")
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{self.day:%Y-%m-%d} {self.commitment[:12]}"


class OddsVersion(models.Model):
    """A pool's odds as they were from ``created_at``: its candidate list, pack size and
    tier weights. ``key`` ("slug:number") names it in the ledger; ``changes`` says what
    changed from the version before (``added``, ``removed``, ``retiered`` card counts,
    ``pack_size`` [before, after] or null, ``weights`` true when the tier weights did)."""

    pool = models.ForeignKey(
        Pool, on_delete=models.SET_NULL, null=True, blank=True, related_name="odds_versions"
    )
    key = models.CharField(_("odds version"), max_length=80, unique=True)
    number = models.PositiveIntegerField(_("number"))
    candidate_list = models.ForeignKey(
        CandidateList, on_delete=models.PROTECT, related_name="+", verbose_name=_("candidates")
    )
    pack_size = models.PositiveSmallIntegerField(_("pack size"))
    weights = models.JSONField(_("tier weights"))
    changes = models.JSONField(_("what changed"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("odds version")
        verbose_name_plural = _("odds versions")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.key


class Opening(models.Model):
    """One opened pack: everything needed to show it and to replay its draw."""

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    pool = models.ForeignKey(
        Pool,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="openings",
        verbose_name=_("pool"),
    )
    pool_slug = models.SlugField(_("pool address"), max_length=60)
    session_key = models.CharField(_("session"), max_length=40)
    request_key = models.CharField(
        _("request key"),
        max_length=64,
        help_text=_(
            "A digest of the session and its form token: a form sent twice opens one pack."
        ),
    )
    seed = models.PositiveBigIntegerField(_("seed"))
    pack_size = models.PositiveSmallIntegerField(_("pack size"))
    candidate_list = models.ForeignKey(
        CandidateList,
        on_delete=models.PROTECT,
        related_name="openings",
        verbose_name=_("candidates"),
        help_text=_("The pool as it was: [token, tier] of each card, in order."),
    )
    picks = models.JSONField(_("picks"), help_text=_("The tokens drawn, in pick order."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Its place in the day's ledger (null for the openings made before the ledger).
    day = models.DateField(_("ledger day"), null=True, blank=True)
    nonce = models.PositiveIntegerField(_("nonce"), null=True, blank=True)
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True)
    odds_version = models.ForeignKey(
        OddsVersion,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="openings",
        verbose_name=_("odds version"),
    )
    prev = models.CharField(_("previous hash"), max_length=64, blank=True)
    hash = models.CharField(_("hash"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("opening")
        verbose_name_plural = _("openings")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One render of the open form opens one pack (its token is random per render).
            models.UniqueConstraint(fields=["request_key"], name="packs_opening_once_per_form"),
            # One place per number in a day's ledger.
            models.UniqueConstraint(fields=["day", "nonce"], name="packs_opening_ledger_place"),
        ]
        indexes = [
            models.Index(fields=["session_key", "created_at"], name="packs_open_session_idx")
        ]

    def __str__(self) -> str:
        return f"{self.pool_slug} {self.public_id}"

    def get_absolute_url(self) -> str:
        return reverse("packs:opening-detail", kwargs={"public_id": self.public_id})

    @property
    def candidates(self) -> list[list]:
        """The pool as it was at this opening: [token, tier] of each card, in order."""
        return self.candidate_list.candidates


class PowerRun(BalanceRun):
    """One measurement of the power promise over the whole catalogue."""

    per_tier = models.PositiveSmallIntegerField(_("gauntlet decks per tier"))
    games_per_side = models.PositiveSmallIntegerField(_("games per side"))
    bots = models.CharField(_("bots"), max_length=40)
    gauntlet = models.JSONField(_("gauntlet"), help_text=_("Tokens of the gauntlet's cards."))
    matches = models.PositiveIntegerField(_("matches"))
    collection_version = models.CharField(_("collection version"), max_length=40)

    class Meta(BalanceRun.Meta):
        verbose_name = _("power measurement")
        verbose_name_plural = _("power measurements")

    def __str__(self) -> str:
        return f"{self.matches} matches ({self.created_at:%Y-%m-%d %H:%M})"


class CardPower(models.Model):
    """A card's results against the gauntlet of one run (draws count half)."""

    run = models.ForeignKey(PowerRun, on_delete=models.CASCADE, related_name="powers")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    rarity = models.CharField(_("rarity when measured"), max_length=10)
    wins = models.PositiveIntegerField(_("wins"))
    draws = models.PositiveIntegerField(_("draws"))
    games = models.PositiveIntegerField(_("games"))
    # The card as the match saw it when measured (``packs.selectors.card_fingerprint``):
    # a pool's figures are out of date only when one of its cards' differs now.
    fingerprint = models.CharField(_("fingerprint"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("card power")
        verbose_name_plural = _("card powers")
        constraints = [
            models.UniqueConstraint(fields=["run", "card"], name="packs_cardpower_once_per_run"),
        ]

    def __str__(self) -> str:
        return f"{self.card_id}: {self.wins}/{self.games}"
