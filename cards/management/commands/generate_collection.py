"""Generate the deterministic demo collection (see cards.generator)."""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from cards.generator import DEFAULT_SEED, DEFAULT_SIZE, GenerationError, generate
from cards.models import Card
from cards.selectors import collection_stats
from cards.services import clear_collection, store_collection


class Command(BaseCommand):
    help = _(
        "Generate a deterministic demo collection: attribute catalogues, cards, wardrobes, "
        "ranks, stickers and combos. The same seed and size always give the same collection. "
        "With the default seed (%(seed)d) and size (%(size)d) it has exactly 146 Legendary "
        "cards (active skills Arcane 78, Steal 33, Pierce 27, Speed 8)."
    ) % {"seed": DEFAULT_SEED, "size": DEFAULT_SIZE}

    def add_arguments(self, parser):
        parser.add_argument(
            "--seed",
            type=int,
            default=DEFAULT_SEED,
            help=_("Random seed (default %(default)s).").replace("%(default)s", str(DEFAULT_SEED)),
        )
        parser.add_argument(
            "--size",
            type=int,
            default=DEFAULT_SIZE,
            help=_("Number of cards (default %(default)s).").replace(
                "%(default)s", str(DEFAULT_SIZE)
            ),
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help=_("Delete the existing cards, attributes and combos first."),
        )

    def handle(self, *args, seed: int, size: int, replace: bool, **options):
        if size < 1:
            raise CommandError(_("The size must be at least 1."))
        existing = Card.objects.count()
        if existing and not replace:
            raise CommandError(
                _(
                    "The database already holds %(count)d cards. Nothing was changed; run "
                    "again with --replace to delete them and generate a new collection."
                )
                % {"count": existing}
            )
        started = time.perf_counter()
        try:
            collection = generate(seed, size)
        except GenerationError as error:
            raise CommandError(_("The generator failed: %(error)s") % {"error": error}) from error
        generated = time.perf_counter()
        with transaction.atomic():
            if replace:
                clear_collection()
            counts = store_collection(
                collection.attributes,
                collection.cards,
                [(c.spec, {"en": c.spec.name, "ru": c.name_ru}) for c in collection.combos],
                collection.derived,
            )
        stored = time.perf_counter()
        stats = collection_stats()
        self.stdout.write(
            _(
                "Generated %(cards)d cards (seed %(seed)d), %(attributes)d attributes, "
                "%(combos)d combos, %(owned)d owned attributes: built and derived in "
                "%(build).1f s, stored in %(store).1f s."
            )
            % {
                **counts,
                "seed": seed,
                "build": generated - started,
                "store": stored - generated,
            }
        )
        self.stdout.write(
            _("Rarity: %(rarities)s; Free (starter cards): %(free)d.")
            % {
                "rarities": ", ".join(f"{k} {v}" for k, v in stats["by_rarity"].items()),
                "free": stats["free"],
            }
        )
        self.stdout.write(
            _("Active skills: %(skills)s; none: %(none)d.")
            % {
                "skills": ", ".join(f"{k} {v}" for k, v in stats["by_active_skill"].items()),
                "none": stats["without_active_skill"],
            }
        )
