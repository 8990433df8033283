"""Every write to a pool bumps the "packs" content version, whatever made it (the admin,
a command, a shell), so cached pool pages and the wiki's pool tables show it at once."""

from __future__ import annotations

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from core import versions

from .models import Pool, PowerRun

VERSION = "packs"


@receiver(post_save, sender=Pool, dispatch_uid="packs.pool_saved")
@receiver(post_delete, sender=Pool, dispatch_uid="packs.pool_deleted")
@receiver(post_delete, sender=PowerRun, dispatch_uid="packs.power_deleted")
def pool_changed(sender, raw: bool = False, **kwargs) -> None:
    if not raw:
        versions.bump(VERSION)


@receiver(m2m_changed, sender=Pool.cards.through, dispatch_uid="packs.pool_cards_changed")
def pool_cards_changed(sender, action: str, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        versions.bump(VERSION)
