"""Read dated market data (supply per attribute, GetGems rank per card); all or nothing.

Bad input exits with status 2 and one located line per problem on stderr (row, column,
why); nothing is written then. Importing the same file again changes nothing.

The rows are checked here; then the import job (``cards.tasks.market_import_task``) runs
in this process, or with ``--background`` is enqueued for a worker (``manage.py
db_worker``) and the task result's id is printed.
"""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cards.management import refused
from cards.market import CSV_COLUMNS, MarketImportError, apply_market, check, rows_as_data
from cards.tasks import market_import_task
from core.jobs import run_job


class Command(BaseCommand):
    help = _(
        "Import dated market data: a JSON list of rows or a CSV file with the columns "
        "%(columns)s. Every row is checked first; nothing is written unless the whole file "
        "is right. The cards the new values touch are derived again and their changes "
        "recorded with the causes."
    ) % {"columns": ",".join(CSV_COLUMNS)}

    def add_arguments(self, parser):
        parser.add_argument("file", help=_("The JSON or CSV file; - for standard input."))
        parser.add_argument(
            "--background",
            action="store_true",
            help=_(
                "Check the file here, then enqueue the import for a worker "
                "(manage.py db_worker) instead of running it here."
            ),
        )

    def handle(self, *args, file: str, background: bool = False, **options):
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
            supplies, ranks = check(data)
        except MarketImportError as failure:
            raise refused(self.stderr, failure.problems) from None
        if background:
            queued = market_import_task.enqueue(rows=rows_as_data(supplies, ranks))
            self.stdout.write(_("Enqueued the market import as task %(id)s.") % {"id": queued.id})
            return
        result = run_job(None, lambda progress: apply_market(supplies, ranks, progress=progress))
        self.stdout.write(
            _(
                "%(supply)d supply rows and %(rank)d rank rows over %(days)d days; "
                "%(cards)d cards derived again, %(changes)d changes recorded."
            )
            % {
                "supply": result.supply_rows,
                "rank": result.rank_rows,
                "days": result.days,
                "cards": result.cards_derived,
                "changes": result.changes,
            }
        )
