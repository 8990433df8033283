"""Write the whole collection as JSON (the import format)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.utils.translation import gettext as _

from cards.tasks import export_task
from cards.transfer import export_collection


class _Raw:
    """The command's stdout without OutputWrapper's line endings (the JSON comes in pieces)."""

    def __init__(self, wrapper: OutputWrapper) -> None:
        self.wrapper = wrapper

    def write(self, text: str) -> None:
        self.wrapper.write(text, ending="")


class Command(BaseCommand):
    help = _(
        "Write every attribute, card and combo as JSON (the engine's card schema, wrapped "
        'as {"attributes", "cards", "combos"}), to FILE or to standard output.'
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", default="-", help=_("Where to write; - (the default) for stdout.")
        )
        parser.add_argument(
            "--background",
            action="store_true",
            help=_("Enqueue it for a worker, which writes FILE on its host."),
        )

    def handle(self, *args, file: str, **options):
        if options.get("background"):
            if file == "-":
                raise CommandError(_("--background needs a FILE to write."))
            queued = export_task.enqueue(str(Path(file).resolve()))
            self.stdout.write(_("Enqueued the export as task %(id)s.") % {"id": queued.id})
            return
        if file == "-":
            export_collection(_Raw(self.stdout))
            return
        with open(file, "w", encoding="utf-8", newline="\n") as out:
            counts = export_collection(out)
        self.stderr.write(
            _(
                "Exported %(cards)d cards, %(attributes)d attributes and %(combos)d combos to %(file)s."
            )
            % {**counts, "file": file}
        )
