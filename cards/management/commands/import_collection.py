"""Read a collection file (export_collection's format); all or nothing, idempotent.

Bad input exits with status 2 and one located line per problem on stderr (never a
traceback); a busy database or a collection changing underneath exits with status 1.
"""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError
from django.utils.translation import gettext as _

from cards.management import refused
from cards.transfer import ImportBusy, ImportFailed, import_collection
from core.middleware import database_busy


class Command(BaseCommand):
    help = _(
        "Import attributes, cards and combos from a JSON file (export_collection's format). "
        "Everything is checked first and every problem is listed with where it is; nothing "
        "is written unless the whole file is right. Importing the same file again changes "
        "nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help=_("The JSON file; - for standard input."))
        parser.add_argument(
            "--update-attributes",
            action="store_true",
            help=_(
                "Let the file change the supply or kind of attributes already in the "
                "database (every card owning them is derived again)."
            ),
        )

    def handle(self, *args, file: str, update_attributes: bool, **options):
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    data = handle.read()
        except OSError as error:
            raise CommandError(
                _("Cannot read %(file)s: %(reason)s") % {"file": file, "reason": error.strerror}
            ) from error
        try:
            result = import_collection(data, update_attributes=update_attributes)
        except ImportFailed as failure:
            raise refused(self.stderr, failure.problems) from None
        except ImportBusy as busy:
            raise CommandError(_("%(reason)s. Try again.") % {"reason": busy}) from None
        except OperationalError as error:
            if not database_busy(error):
                raise
            raise CommandError(
                _(
                    "The database stayed busy with other writes past its timeout; nothing "
                    "was imported. Try again."
                )
            ) from None
        for label, counts in (
            (_("Attributes"), result.attributes),
            (_("Cards"), result.cards),
            (_("Combos"), result.combos),
        ):
            self.stdout.write(
                _("%(label)s: %(created)d created, %(updated)d updated, %(unchanged)d unchanged.")
                % {"label": label, **counts}
            )
        if result.changed:
            self.stdout.write(
                _("%(count)d cards have new derived values.") % {"count": result.recomputed}
            )
            self.stdout.write(
                _("Written in one transaction of %(seconds).1f s.")
                % {"seconds": result.write_seconds}
            )
        else:
            self.stdout.write(_("Nothing changed."))
