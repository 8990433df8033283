"""Keep ownership, the stored derived fields and cached pages right after every ORM change.

Every save, delete and relation change of an attribute, card or combo reports the change
(``services.collection_changed``: cached pages showing the collection are rendered afresh),
paused or not (a paused bulk job's changes make one report when it ends). Bulk writes (``bulk_create``/``bulk_update``/
``QuerySet.update``) send no signals: the code that uses them (``cards.services``,
``cards.transfer``) recomputes and reports the change itself.
"""

from __future__ import annotations

import functools

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver

from . import services
from .models import Attribute, Card, Combo
from .services import signals_are_paused

# Attribute columns the engine reads; changing any other column changes no card.
_ATTRIBUTE_INPUTS = ("slot", "name", "supply", "kind")


def _unless_paused(receiver):
    """Skip the receiver inside ``services.signals_paused()`` (bulk jobs recompute themselves)."""

    @functools.wraps(receiver)
    def wrapper(*args, **kwargs):
        if not signals_are_paused():
            receiver(*args, **kwargs)

    return wrapper


@receiver(post_save, sender=Card, dispatch_uid="cards.card_saved")
@_unless_paused
def card_saved(sender, instance: Card, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    services.own_equipped([instance.pk])
    services.request_recompute([instance.pk])


@receiver(m2m_changed, sender=Card.wardrobe.through, dispatch_uid="cards.wardrobe_changed")
@_unless_paused
def wardrobe_changed(
    sender, instance, action: str, reverse: bool, pk_set: set[int] | None, **kwargs
) -> None:
    if reverse:  # attribute.owners.add/remove/clear(...): pk_set holds card ids
        if action == "pre_clear":
            instance._cards_owners_before_clear = set(instance.owners.values_list("id", flat=True))
            return
        if action not in ("post_add", "post_remove", "post_clear"):
            return
        card_ids = set(pk_set or ()) | getattr(instance, "_cards_owners_before_clear", set())
    else:
        if action not in ("post_add", "post_remove", "post_clear"):
            return
        card_ids = {instance.pk}
    if action != "post_add":
        # An equipped attribute stays owned: put back what a removal took away.
        services.own_equipped(card_ids)
    services.request_recompute(card_ids)


@receiver(pre_save, sender=Attribute, dispatch_uid="cards.attribute_before_save")
@_unless_paused
def attribute_before_save(sender, instance: Attribute, raw: bool = False, **kwargs) -> None:
    instance._cards_inputs_changed = False
    if raw or instance._state.adding:
        return
    old = Attribute.objects.filter(pk=instance.pk).values_list(*_ATTRIBUTE_INPUTS).first()
    new = tuple(getattr(instance, f) for f in _ATTRIBUTE_INPUTS)
    instance._cards_inputs_changed = old is not None and tuple(old) != new


@receiver(post_save, sender=Attribute, dispatch_uid="cards.attribute_saved")
@_unless_paused
def attribute_saved(sender, instance: Attribute, **kwargs) -> None:
    if getattr(instance, "_cards_inputs_changed", False):
        services.request_recompute(services.cards_affected_by_attributes([instance.pk]))


@receiver(pre_delete, sender=Attribute, dispatch_uid="cards.attribute_before_delete")
@_unless_paused
def attribute_before_delete(sender, instance: Attribute, **kwargs) -> None:
    # Its ownership and combo rows go with it (no m2m_changed for cascades): note who cares.
    combo_attrs = set(
        Combo.attributes.through.objects.filter(
            combo_id__in=instance.combos.values("id")
        ).values_list("attribute_id", flat=True)
    )
    instance._cards_affected = services.cards_affected_by_attributes(
        [instance.pk]
    ) | services.cards_affected_by_combo(combo_attrs)


@receiver(post_delete, sender=Attribute, dispatch_uid="cards.attribute_deleted")
@_unless_paused
def attribute_deleted(sender, instance: Attribute, **kwargs) -> None:
    services.request_recompute(getattr(instance, "_cards_affected", set()))


def _combo_attribute_ids(combo_ids) -> set[int]:
    return set(
        Combo.attributes.through.objects.filter(combo_id__in=list(combo_ids)).values_list(
            "attribute_id", flat=True
        )
    )


@receiver(pre_save, sender=Combo, dispatch_uid="cards.combo_before_save")
@_unless_paused
def combo_before_save(sender, instance: Combo, raw: bool = False, **kwargs) -> None:
    old = None
    if not raw and not instance._state.adding:
        old = Combo.objects.filter(pk=instance.pk).values_list("rarity", flat=True).first()
    instance._cards_rarity_changed = old is not None and old != instance.rarity


@receiver(post_save, sender=Combo, dispatch_uid="cards.combo_saved")
@_unless_paused
def combo_saved(sender, instance: Combo, **kwargs) -> None:
    # A new combo has no attributes yet (they arrive through m2m_changed).
    if getattr(instance, "_cards_rarity_changed", False):
        services.request_recompute(
            services.cards_affected_by_combo(_combo_attribute_ids([instance.pk]))
        )


@receiver(pre_delete, sender=Combo, dispatch_uid="cards.combo_before_delete")
@_unless_paused
def combo_before_delete(sender, instance: Combo, **kwargs) -> None:
    instance._cards_affected = services.cards_affected_by_combo(_combo_attribute_ids([instance.pk]))


@receiver(post_delete, sender=Combo, dispatch_uid="cards.combo_deleted")
@_unless_paused
def combo_deleted(sender, instance: Combo, **kwargs) -> None:
    services.request_recompute(getattr(instance, "_cards_affected", set()))


@receiver(m2m_changed, sender=Combo.attributes.through, dispatch_uid="cards.combo_attrs_changed")
@_unless_paused
def combo_attributes_changed(
    sender, instance, action: str, reverse: bool, pk_set: set[int] | None, **kwargs
) -> None:
    if reverse:  # attribute.combos.add/remove/clear(...): pk_set holds combo ids
        combo_ids = set(pk_set or ())
        if action == "pre_clear":
            combo_ids = set(instance.combos.values_list("id", flat=True))
    else:
        combo_ids = {instance.pk}
    if action.startswith("pre_"):
        instance._cards_combo_ids = combo_ids
        instance._cards_combo_attrs_before = _combo_attribute_ids(combo_ids)
        return
    combo_ids |= getattr(instance, "_cards_combo_ids", set())
    attrs = getattr(instance, "_cards_combo_attrs_before", set()) | _combo_attribute_ids(combo_ids)
    services.request_recompute(services.cards_affected_by_combo(attrs))


# ---------------------------------------------------------------------------
# Cached pages: every write to the collection changes the "cards" version


@receiver(post_save, sender=Attribute, dispatch_uid="cards.version.attribute_saved")
@receiver(post_save, sender=Card, dispatch_uid="cards.version.card_saved")
@receiver(post_save, sender=Combo, dispatch_uid="cards.version.combo_saved")
@receiver(post_save, sender=Card.wardrobe.through, dispatch_uid="cards.version.owned_saved")
@receiver(post_save, sender=Combo.attributes.through, dispatch_uid="cards.version.member_saved")
@receiver(post_delete, sender=Attribute, dispatch_uid="cards.version.attribute_deleted")
@receiver(post_delete, sender=Card, dispatch_uid="cards.version.card_deleted")
@receiver(post_delete, sender=Combo, dispatch_uid="cards.version.combo_deleted")
def collection_row_written(sender, **kwargs) -> None:
    # No delete receiver on the two relation tables: they go with a row above (which reports)
    # or in bulk (whose code reports), and a receiver would stop Django's fast deletes.
    services.collection_changed()


@receiver(m2m_changed, sender=Card.wardrobe.through, dispatch_uid="cards.version.wardrobe")
@receiver(m2m_changed, sender=Combo.attributes.through, dispatch_uid="cards.version.members")
def collection_relation_changed(sender, action: str, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        services.collection_changed()
