"""The collection in the database: attributes, cards and combos.

Models stay thin: reads live in ``cards.selectors``, writes that do more than one
thing in ``cards.services``, and ``cards.specs`` is the only place that turns rows
into engine inputs.

Two decisions shape the tables:

* **An equipped attribute's slot is enforced by the database.** An attribute's
  primary key encodes its slot: ``id % 4`` is the slot's index (head 0, body 1,
  paw 2, background 3), held by a check constraint on ``Attribute``; each
  equipped foreign key on ``Card`` carries a check constraint on the same
  residue (``head_id % 4 = 0`` …). A card can therefore only point at an
  attribute of the right slot, and an equipped attribute can never change slot
  (that would change its key). Plain check constraints and foreign keys, so it
  holds on SQLite and PostgreSQL alike and survives SQLite's table rebuilds.
  Ids are allocated by ``Attribute.save()`` and ``Attribute.objects.bulk_create``.
* **The wardrobe holds every owned attribute, the equipped four included**
  (as docs/rules.md §1 defines it). ``cards.services.own_equipped`` keeps that true
  after any save; signals call it.

Derived fields (``rarity`` … ``wardrobe_score``) are written only by
``cards.services.recompute_cards`` from a live engine derivation; they exist so
lists can filter and sort 100,000 cards on indexes. Card pages derive live.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.labels import card_title, choices
from engine.types import AttributeKind, Rarity, Role, Skill, Slot

# ---------------------------------------------------------------------------
# Choices: the engine's enums, named by the one vocabulary (core.labels).

# An attribute's id modulo SLOT_MODULUS is its slot's index (see the module docstring).
SLOT_MODULUS = 4
SLOT_INDEX: dict[str, int] = {slot.value: i for i, slot in enumerate(Slot)}
EQUIPPED_FIELDS: tuple[str, ...] = tuple(slot.value for slot in Slot)

# Sortable rank of each rarity (free 0 … legendary 4), from the engine's order.
RARITY_RANK: dict[str, int] = {r.value: r.rank for r in Rarity}

# The stored stats a search compares most, in the order of the covering indexes' columns.
STAT_COLUMNS: tuple[str, ...] = ("atk", "hp", "defense", "energy_cost", "ability")

# A combo gives a rarity of the main catalogue: never Free, the starter tier.
COMBO_RARITIES: tuple[Rarity, ...] = tuple(r for r in Rarity if r is not Rarity.FREE)


def _values(enum_cls: type[enum.Enum]) -> list[str]:
    return [member.value for member in enum_cls]


def _slot_residue(column: str, slot: str) -> Q:
    """``column % 4`` equals the slot's index (a check-constraint condition)."""
    return Q(
        models.lookups.Exact(
            models.ExpressionWrapper(
                F(column) % SLOT_MODULUS, output_field=models.BigIntegerField()
            ),
            SLOT_INDEX[slot],
        )
    )


# ---------------------------------------------------------------------------
# Attribute


class AttributeQuerySet(models.QuerySet):
    def bulk_create(self, objs: Iterable[Attribute], *args, **kwargs) -> list[Attribute]:
        """Allocate slot-encoded ids for new attributes, then insert them."""
        objs = list(objs)
        allocate_attribute_ids([o for o in objs if o.pk is None], using=self.db)
        return super().bulk_create(objs, *args, **kwargs)


def allocate_attribute_ids(attributes: Sequence[Attribute], using: str | None = None) -> None:
    """Give each attribute without an id the next free id whose residue is its slot.

    Ids grow with the table: the next block of four after the largest id so far.
    Call inside the transaction that inserts them (SQLite's IMMEDIATE transactions
    serialise writers; a concurrent writer on PostgreSQL gets an IntegrityError
    on the primary key, never a wrong slot).
    """
    if not attributes:
        return
    manager = Attribute.objects.db_manager(using) if using else Attribute.objects
    largest = manager.aggregate(m=models.Max("id"))["m"] or 0
    block = largest // SLOT_MODULUS + 1
    for attribute in attributes:
        attribute.id = block * SLOT_MODULUS + SLOT_INDEX[attribute.slot]
        block += 1


class Attribute(models.Model):
    """A wearable item of one slot, with its print count (supply) and kind."""

    id = models.BigIntegerField(primary_key=True, editable=False)
    slot = models.CharField(_("slot"), max_length=10, choices=choices(Slot))
    name = models.CharField(_("name"), max_length=100)
    supply = models.PositiveIntegerField(
        _("supply"), help_text=_("How many copies exist (print count), at least 1.")
    )
    kind = models.CharField(
        _("kind"),
        max_length=10,
        choices=choices(AttributeKind),
        default=AttributeKind.NORMAL.value,
    )

    objects = AttributeQuerySet.as_manager()

    class Meta:
        verbose_name = _("attribute")
        verbose_name_plural = _("attributes")
        ordering = ["slot", "name"]
        constraints = [
            models.UniqueConstraint(fields=["slot", "name"], name="cards_attribute_slot_name_uniq"),
            models.CheckConstraint(condition=Q(supply__gte=1), name="cards_attribute_supply_gte_1"),
            models.CheckConstraint(
                condition=Q(slot__in=_values(Slot)), name="cards_attribute_slot_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=_values(AttributeKind)), name="cards_attribute_kind_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="cards_attribute_name_not_empty"),
            # The id encodes the slot: what lets Card's check constraints hold the slot.
            models.CheckConstraint(
                condition=Q(id__gte=1)
                & (
                    (Q(slot="head") & _slot_residue("id", "head"))
                    | (Q(slot="body") & _slot_residue("id", "body"))
                    | (Q(slot="paw") & _slot_residue("id", "paw"))
                    | (Q(slot="background") & _slot_residue("id", "background"))
                ),
                name="cards_attribute_id_encodes_slot",
            ),
        ]
        indexes = [
            models.Index(fields=["slot", "supply"], name="cards_attr_slot_supply_idx"),
            models.Index(fields=["supply"], name="cards_attr_supply_idx"),
            models.Index(fields=["kind", "slot"], name="cards_attr_kind_slot_idx"),
            # An exact name (``attr="Minty Parka"``, ``owns="…"``: ``name__iexact``, which
            # PostgreSQL compares as UPPER(name)): without it, a million cards' 280,000
            # attributes were read, and the cards with them, for each slot (630 ms → 2 ms).
            models.Index(Upper("name"), name="cards_attr_upper_name_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_slot_display()}, {self.supply})"

    def save(self, *args, **kwargs) -> None:
        if self.pk is None:
            allocate_attribute_ids([self], using=kwargs.get("using"))
            kwargs["force_insert"] = True
        super().save(*args, **kwargs)


# ---------------------------------------------------------------------------
# Card


def _equipped_fk(slot: Slot) -> models.ForeignKey:
    return models.ForeignKey(
        Attribute,
        on_delete=models.PROTECT,
        related_name="+",
        limit_choices_to={"slot": slot.value},
        verbose_name=dict(choices(Slot))[slot.value],
    )


class CardQuerySet(models.QuerySet):
    def collectible(self) -> CardQuerySet:
        """The cards outside the starter set (the Free tier every player is given): the ones
        packs, decks, balance reports and the statistics count."""
        return self.filter(starter=False)


# Sort columns (non-null) with a descending index: (column, its index's short name).
_DESCENDING_SORTS = (
    ("name", "name"),
    ("energy_cost", "energy"),
    ("atk", "atk"),
    ("hp", "hp"),
    ("defense", "def"),
    ("ability", "ability"),
    ("burned_stickers", "burned"),
)


class Card(models.Model):
    """A card (an NFT): four equipped attributes, a wardrobe, a rank and stickers.

    The fields after ``burned_stickers`` are derived by the engine and stored for
    listing; never write them by hand (``cards.services.recompute_cards`` does).
    """

    token = models.PositiveIntegerField(_("token"), unique=True)
    name = models.CharField(_("name"), max_length=100)
    starter = models.BooleanField(
        _("starter"), default=False, help_text=_("Starter cards are the Free tier.")
    )
    head = _equipped_fk(Slot.HEAD)
    body = _equipped_fk(Slot.BODY)
    paw = _equipped_fk(Slot.PAW)
    background = _equipped_fk(Slot.BACKGROUND)
    wardrobe = models.ManyToManyField(
        Attribute,
        related_name="owners",
        blank=True,
        verbose_name=_("wardrobe"),
        help_text=_("Every attribute the card owns; the equipped ones are added automatically."),
    )
    getgems_rank = models.PositiveIntegerField(_("GetGems rank"), null=True, blank=True)
    burned_stickers = models.PositiveIntegerField(_("burned stickers"), default=0)

    # Derived by the engine (cards.services.recompute_cards); indexed for listings.
    rarity = models.CharField(
        _("rarity"),
        max_length=10,
        choices=choices(Rarity),
        default=Rarity.COMMON.value,
        editable=False,
    )
    rarity_rank = models.PositiveSmallIntegerField(
        _("rarity rank"),
        default=RARITY_RANK[Rarity.COMMON.value],
        editable=False,
        help_text=_("Free 0, Common 1, Rare 2, Epic 3, Legendary 4: for sorting."),
    )
    role = models.CharField(
        _("role"),
        max_length=10,
        choices=choices(Role),
        default=Role.TANK.value,
        editable=False,
    )
    skill_affinity = models.CharField(
        _("skill affinity"),
        max_length=10,
        choices=choices(Skill),
        default=Skill.PIERCE.value,
        editable=False,
    )
    # NULL = no active skill, as the engine and the JSON API say it (not a second "" spelling).
    active_skill = models.CharField(  # noqa: DJ001
        _("active skill"), max_length=10, choices=choices(Skill), null=True, editable=False
    )
    template = models.CharField(_("template"), max_length=40, default="", editable=False)
    energy_cost = models.PositiveSmallIntegerField(_("energy cost"), default=1, editable=False)
    atk = models.PositiveSmallIntegerField(_("ATK"), default=0, editable=False)
    hp = models.PositiveSmallIntegerField(_("HP"), default=0, editable=False)
    defense = models.PositiveSmallIntegerField(_("DEF"), default=0, editable=False)
    ability = models.PositiveSmallIntegerField(_("ability value"), default=0, editable=False)
    wardrobe_score = models.DecimalField(
        _("wardrobe score"),
        max_digits=12,
        decimal_places=1,
        null=True,
        editable=False,
        help_text=_(
            "Rounded down to one decimal, so a filter like ≥ 3000 matches exactly the "
            "cards the rule counts. Empty for starter cards."
        ),
    )
    tier_fragile = models.BooleanField(
        _("fragile tier"),
        default=False,
        db_default=False,
        editable=False,
        help_text=_(
            "One more print of an attribute the card owns, or its GetGems rank one place "
            "worse, would lower its rarity (is:fragile)."
        ),
    )

    # Which rules gave the rarity (",supply_count,combo,") and the rank of the rarest
    # rarity one swap from the card's own wardrobe reaches: decided: and near: (issue 30).
    # (Defaults in the database too: raw inserts, as SQL-level tests write, need none.)
    decided_by = models.CharField(
        _("decided by"), max_length=200, default=",", db_default=",", editable=False
    )
    near_rank = models.PositiveSmallIntegerField(
        _("rarity one swap away"),
        default=RARITY_RANK[Rarity.COMMON.value],
        db_default=RARITY_RANK[Rarity.COMMON.value],
        editable=False,
    )

    objects = CardQuerySet.as_manager()

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["token"]
        constraints = [
            models.CheckConstraint(condition=Q(token__gte=1), name="cards_card_token_gte_1"),
            models.CheckConstraint(
                condition=Q(getgems_rank__isnull=True) | Q(getgems_rank__gte=1),
                name="cards_card_getgems_rank_gte_1",
            ),
            models.CheckConstraint(
                condition=Q(burned_stickers__gte=0), name="cards_card_burned_stickers_gte_0"
            ),
            # Each equipped attribute is of its slot (its id's residue; see the docstring).
            *(
                models.CheckConstraint(
                    condition=_slot_residue(f"{slot.value}_id", slot.value),
                    name=f"cards_card_{slot.value}_slot",
                )
                for slot in Slot
            ),
            models.CheckConstraint(
                condition=Q(
                    *(Q(rarity=value, rarity_rank=rank) for value, rank in RARITY_RANK.items()),
                    _connector=Q.OR,
                ),
                name="cards_card_rarity_rank_matches",
            ),
            models.CheckConstraint(
                condition=Q(role__in=_values(Role)), name="cards_card_role_valid"
            ),
            models.CheckConstraint(
                condition=Q(skill_affinity__in=_values(Skill)),
                name="cards_card_skill_affinity_valid",
            ),
            models.CheckConstraint(
                condition=Q(active_skill__isnull=True) | Q(active_skill__in=_values(Skill)),
                name="cards_card_active_skill_valid",
            ),
        ]
        indexes = [
            # Searches on the stored stats (``atk>=9 hp>=20``, ``r:rare nrg<=3``) counted and
            # paged from an index alone: both hold every column such a search compares
            # (``starter`` too, which the condition implies but SQLite only reads from the
            # columns), so neither the count nor the page of ids reads a table row. The
            # first is for a range on ATK or a full scan; the second is the card list's
            # default order (catalogue cards, rarest first, then by token) and holds the
            # skill and role too: ``(r:epic or r:legendary) -s:arcane nrg<=2 atk>=4`` read
            # 180,000 table rows for a page at a million cards through an index of the order
            # alone (82 ms; 10 ms through this one).
            models.Index(
                fields=[*STAT_COLUMNS, "rarity_rank", "token", "starter"],
                condition=Q(starter=False),
                name="cards_card_stats_cover_idx",
            ),
            models.Index(
                F("rarity_rank").desc(),
                "token",
                *STAT_COLUMNS,
                "skill_affinity",
                "role",
                "starter",
                condition=Q(starter=False),
                name="cards_card_list_cover_idx",
            ),
            # Filter by one derived value, then page through in token order.
            models.Index(fields=["rarity_rank", "token"], name="cards_card_rarity_token_idx"),
            models.Index(fields=["rarity", "token"], name="cards_card_rarityv_token_idx"),
            models.Index(fields=["role", "token"], name="cards_card_role_token_idx"),
            models.Index(fields=["skill_affinity", "token"], name="cards_card_skill_token_idx"),
            models.Index(fields=["active_skill", "token"], name="cards_card_active_token_idx"),
            models.Index(fields=["starter", "token"], name="cards_card_starter_token_idx"),
            models.Index(fields=["energy_cost", "token"], name="cards_card_energy_token_idx"),
            models.Index(fields=["getgems_rank", "token"], name="cards_card_rank_token_idx"),
            models.Index(fields=["burned_stickers", "token"], name="cards_card_burned_token_idx"),
            # Sorts by a derived number.
            models.Index(fields=["atk", "token"], name="cards_card_atk_token_idx"),
            models.Index(fields=["hp", "token"], name="cards_card_hp_token_idx"),
            models.Index(fields=["wardrobe_score", "token"], name="cards_card_score_token_idx"),
            models.Index(fields=["defense", "token"], name="cards_card_def_token_idx"),
            models.Index(fields=["ability", "token"], name="cards_card_ability_token_idx"),
            # The card list sorted by name (the explorer's sort:name).
            models.Index(fields=["name", "token"], name="cards_card_name_token_idx"),
            # The statistics page's combined filters.
            models.Index(
                fields=["rarity_rank", "role", "skill_affinity"], name="cards_card_rar_role_sk_idx"
            ),
            # Descending sorts (ties by token, ascending) of the catalogue walk an index in
            # its order instead of sorting every match: a page and its keyset cursor
            # (``cards.paging``) read one page of entries at any depth. The two nullable
            # columns' (NULLs last either way) are in migration 0008, per database.
            *(
                models.Index(
                    F(column).desc(),
                    "token",
                    name=f"cards_card_{short}_desc_idx",
                )
                for column, short in _DESCENDING_SORTS
            ),
        ]

    def __str__(self) -> str:
        return card_title(self.name, self.token)

    def get_absolute_url(self) -> str:
        """The card's page (its breakdown), in the active language; the admin's "View on
        site" link goes there."""
        return reverse("explorer:card-detail", kwargs={"token": self.token})

    def equipped_ids(self) -> dict[str, int]:
        """The equipped attribute id of each slot (no query)."""
        return {field: getattr(self, f"{field}_id") for field in EQUIPPED_FIELDS}


# ---------------------------------------------------------------------------
# Combo


class Combo(models.Model):
    """A named set of attributes (at most one per slot); equipping all gives its rarity."""

    name = models.CharField(_("name"), max_length=100)
    attributes = models.ManyToManyField(
        Attribute, related_name="combos", verbose_name=_("attributes")
    )
    rarity = models.CharField(
        _("rarity"),
        max_length=10,
        choices=[c for c in choices(Rarity) if c[0] != Rarity.FREE.value],
        default=Rarity.EPIC.value,
    )

    class Meta:
        verbose_name = _("combo")
        verbose_name_plural = _("combos")
        ordering = ["name_en"]
        constraints = [
            # name_en comes from modeltranslation (cards/translation.py): the combo's identity.
            models.UniqueConstraint(fields=["name_en"], name="cards_combo_name_en_uniq"),
            models.CheckConstraint(
                condition=Q(rarity__in=[r.value for r in COMBO_RARITIES]),
                name="cards_combo_rarity_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------------------
# Derivation stamp


class DerivationStamp(models.Model):
    """Which version of the engine derived the stored fields (a single row).

    ``manage.py recompute --if-stale`` (run by ``make install``) re-derives every card
    when the engine's code has changed since, so stored fields never lag the rules.
    """

    fingerprint = models.CharField(max_length=64)
    derived_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("derivation stamp")
        verbose_name_plural = _("derivation stamps")

    def __str__(self) -> str:
        return self.fingerprint[:12]


# ---------------------------------------------------------------------------
# Market data by day, rules versions and the changes they made (cards.market,
# cards.history). A dated value holds from its date until the next one.


class SupplyRecord(models.Model):
    """An attribute's supply (print count) from ``date`` on, until its next record."""

    attribute = models.ForeignKey(
        Attribute,
        on_delete=models.CASCADE,
        related_name="supply_records",
        verbose_name=_("attribute"),
    )
    date = models.DateField(_("date"))
    supply = models.PositiveIntegerField(_("supply"))

    class Meta:
        verbose_name = _("supply record")
        verbose_name_plural = _("supply records")
        ordering = ["attribute", "date"]
        constraints = [
            models.UniqueConstraint(
                fields=["attribute", "date"], name="cards_supplyrecord_attribute_date_uniq"
            ),
            models.CheckConstraint(
                condition=Q(supply__gte=1), name="cards_supplyrecord_supply_gte_1"
            ),
        ]
        indexes = [models.Index(fields=["date"], name="cards_supplyrec_date_idx")]

    def __str__(self) -> str:
        return f"{self.attribute_id} {self.date}: {self.supply}"


class RankRecord(models.Model):
    """A card's GetGems rank from ``date`` on (empty: no rank), until its next record."""

    card = models.ForeignKey(
        Card, on_delete=models.CASCADE, related_name="rank_records", verbose_name=_("card")
    )
    date = models.DateField(_("date"))
    getgems_rank = models.PositiveIntegerField(_("GetGems rank"), null=True, blank=True)

    class Meta:
        verbose_name = _("rank record")
        verbose_name_plural = _("rank records")
        ordering = ["card", "date"]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "date"], name="cards_rankrecord_card_date_uniq"
            ),
            models.CheckConstraint(
                condition=Q(getgems_rank__isnull=True) | Q(getgems_rank__gte=1),
                name="cards_rankrecord_rank_gte_1",
            ),
        ]
        indexes = [models.Index(fields=["date"], name="cards_rankrec_date_idx")]

    def __str__(self) -> str:
        return f"{self.card_id} {self.date}: {self.getgems_rank}"


class RulesVersion(models.Model):
    """A version of the rules (``engine.data.RULES_VERSION``) and when it was deployed."""

    version = models.CharField(_("version"), max_length=40, unique=True)
    deployed_at = models.DateTimeField(_("deployed at"), auto_now_add=True)
    changelog = models.JSONField(_("changelog"), default=list, blank=True)

    class Meta:
        verbose_name = _("rules version")
        verbose_name_plural = _("rules versions")
        ordering = ["-deployed_at", "-id"]

    def __str__(self) -> str:
        return self.version


class CardChange(models.Model):
    """One field of a card that changed on ``date``, from ``before`` to ``after``, and why.

    ``causes`` is a list of ``engine.card.causes`` cause objects (``{"kind": "market" | "card"
    | "rules", …}``). ``tier_change`` marks a change of rarity (the changes page lists
    those first).
    """

    card = models.ForeignKey(
        Card, on_delete=models.CASCADE, related_name="changes", verbose_name=_("card")
    )
    date = models.DateField(_("date"))
    field = models.CharField(_("field"), max_length=20)
    before = models.JSONField(_("before"), null=True)
    after = models.JSONField(_("after"), null=True)
    causes = models.JSONField(_("causes"), default=list)
    tier_change = models.BooleanField(_("tier change"), default=False)

    class Meta:
        verbose_name = _("card change")
        verbose_name_plural = _("card changes")
        ordering = ["card", "date", "id"]
        indexes = [
            models.Index(fields=["card", "date"], name="cards_change_card_date_idx"),
            models.Index(
                F("date").desc(), F("tier_change").desc(), "card", name="cards_change_day_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card_id} {self.date} {self.field}"
