"""Give the collection a market history: N days of supply and GetGems rank changes, each
day imported in turn (``cards.market``), so the timelines and the changes page show real
changes with their causes. Deterministic for a seed; the demo (load_demo) runs it."""

import datetime
import json
import random

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from cards.history import today
from cards.market import import_market
from cards.models import Attribute, Card

# The supplies and ranks where one more print or one place changes a tier (docs/rules.md
# §1, §2.7): the demo moves values across them, so some cards change rarity.
_EDGES = (3, 5, 25)
_RANK_EDGES = (5, 80, 200)


def market_rows(days: int, seed: int, end: datetime.date) -> list[dict]:
    """The rows of ``days`` days of market data ending the day before ``end``."""
    rng = random.Random(seed)
    supply = dict(Attribute.objects.values_list("id", "supply"))
    names = {
        pk: (slot, name) for pk, slot, name in Attribute.objects.values_list("id", "slot", "name")
    }
    ranks = dict(Card.objects.filter(starter=False).values_list("token", "getgems_rank"))
    attribute_ids, tokens = sorted(supply), sorted(ranks)
    near = [pk for pk in attribute_ids if any(abs(supply[pk] - e) <= 1 for e in _EDGES)]
    rows: list[dict] = []
    for offset in range(days, 0, -1):
        day = (end - datetime.timedelta(days=offset)).isoformat()
        moved = set(rng.sample(attribute_ids, max(1, len(attribute_ids) // 50)))
        moved |= set(rng.sample(near, min(len(near), 2)))
        for pk in sorted(moved):
            step = rng.choice((1, 1, 1, 2, -1))
            supply[pk] = max(1, supply[pk] + step)
            slot, name = names[pk]
            rows.append({"date": day, "slot": slot, "attribute": name, "supply": supply[pk]})
        for token in sorted(rng.sample(tokens, max(1, len(tokens) // 100))):
            rank = ranks[token]
            if rank is None:
                rank = rng.choice(_RANK_EDGES) + rng.randint(-2, 2)
            elif rng.random() < 0.1:
                rank = None
            else:
                rank = max(1, rank + rng.randint(-15, 15))
            ranks[token] = rank
            rows.append({"date": day, "card": token, "getgems_rank": rank})
    return rows


class Command(BaseCommand):
    help = _(
        "Import a generated market history: supply and GetGems rank changes, one day at a time."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help=_("How many days (default 30)."))
        parser.add_argument("--seed", type=int, default=2026, help=_("The random seed."))

    def handle(self, *args, days: int, seed: int, **options):
        rows = market_rows(max(1, min(days, 3650)), seed, today())
        result = import_market(json.dumps(rows))
        self.stdout.write(
            _("%(days)d days of market data; %(changes)d card changes recorded.")
            % {"days": result.days, "changes": result.changes}
        )
