"""``manage.py import_slab_values FILE``: the daily insured values, from CSV or JSON.

Every row is checked before anything is written; any problem (each one located: "line 4
(value): …") stops the import with nothing stored. Importing the same file again changes
nothing. See ``arena.importing`` for the format.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from arena import importing, services

MAX_SHOWN = 50


class Command(BaseCommand):
    help = (
        "Import daily slab values (asset_id, date, value) from a CSV or JSON file: all rows "
        "or none, every problem located, idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a .csv (header: asset_id,date,value) or .json file")

    def handle(self, *args, file: str, **options):
        try:
            rows = importing.read_rows(Path(file))
        except importing.FeedError as exc:
            raise CommandError("\n".join(map(str, exc.problems))) from None
        try:
            result = services.import_feed(rows)
        except importing.FeedError as exc:
            problems = exc.problems
            shown = [str(p) for p in problems[:MAX_SHOWN]]
            lines = [f"{len(problems)} problem(s); nothing was imported:", *shown]
            if len(problems) > MAX_SHOWN:
                lines.append(f"… and {len(problems) - MAX_SHOWN} more.")
            raise CommandError("\n".join(lines)) from None
        self.stdout.write(
            f"{result.rows} rows: {result.created} created, {result.updated} updated, "
            f"{result.unchanged} unchanged."
        )
