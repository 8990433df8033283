"""Compile every .po catalogue to .mo with polib, so no GNU gettext is needed."""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Compile the project's .po translation catalogues (pure Python, no msgfmt)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="Recompile even when up to date.")

    def handle(self, *args: object, force: bool = False, **options: object) -> None:
        compiled = 0
        for locale_dir in map(Path, settings.LOCALE_PATHS):
            for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if (
                    not force
                    and mo_path.exists()
                    and mo_path.stat().st_mtime >= po_path.stat().st_mtime
                ):
                    continue
                catalogue = polib.pofile(str(po_path))
                # Fuzzy entries are not translations yet: leave them out, as msgfmt does.
                for entry in catalogue.fuzzy_entries():
                    catalogue.remove(entry)
                catalogue.save_as_mofile(str(mo_path))
                compiled += 1
        self.stdout.write(f"Compiled {compiled} catalogue(s).")
