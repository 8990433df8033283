"""Load wiki/content/*.md into wiki pages (both languages), each change with a revision."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from wiki import search, services
from wiki.importing import CONTENT_DIR, ContentError, PageSource, read_sources
from wiki.models import IMPORT_SUMMARY, Page, Section
from wiki.selectors import LANGUAGE_CODES


def _fill(page: Page, source: PageSource) -> None:
    for code in LANGUAGE_CODES:
        setattr(page, f"title_{code}", source.titles.get(code, ""))
        setattr(page, f"summary_{code}", source.summaries.get(code, ""))
        setattr(page, f"body_{code}", source.bodies.get(code, ""))
    page.section = source.section
    page.order = source.order
    page.published = True


class Command(BaseCommand):
    help = (
        "Load the wiki pages from wiki/content/<slug>.<lang>.md. Idempotent: unchanged pages "
        "are left alone, and a page an editor changed since its last import is kept unless "
        "--force is given (the import is a new revision either way, so nothing is lost)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Overwrite editors' changes too.")
        parser.add_argument("--dir", default=str(CONTENT_DIR), help="The content directory.")

    def handle(self, *args, force: bool = False, dir: str = "", **options):
        try:
            sources = read_sources(Path(dir or CONTENT_DIR))
        except ContentError as exc:
            raise CommandError(str(exc)) from exc
        for source in sources:
            if source.section not in Section.values:
                raise CommandError(f"{source.slug}: unknown section {source.section!r}")

        counts = dict.fromkeys(("created", "updated", "unchanged", "kept"), 0)
        with transaction.atomic():
            pages = {p.slug: p for p in Page.objects.all()}
            # First every page exists (so related pages can point at each other)…
            work: list[tuple[Page, PageSource, str]] = []
            for source in sources:
                page = pages.get(source.slug)
                if page is None:
                    page = Page(slug=source.slug)
                    _fill(page, source)
                    page.save()
                    pages[source.slug] = page
                    work.append((page, source, "created"))
                    continue
                latest = page.revisions.order_by("-number").first()
                if latest is not None and latest.summary != IMPORT_SUMMARY and not force:
                    counts["kept"] += 1
                    self.stdout.write(f"  {source.slug}: edited in the admin, kept (--force)")
                    continue
                _fill(page, source)
                work.append((page, source, "updated"))
            # …then each gets its related pages and a revision when something changed.
            for page, source, status in work:
                missing = [s for s in source.related if s not in pages]
                if missing:
                    self.stdout.write(f"  {source.slug}: no page yet for {', '.join(missing)}")
                related = [pages[s] for s in source.related if s in pages and s != page.slug]
                if status == "updated":
                    latest = page.revisions.order_by("-number").first()
                    fresh = services.snapshot(page, related=[p.slug for p in related])
                    if latest is not None and latest.snapshot == fresh:
                        counts["unchanged"] += 1
                        search.index_page(page)  # in case the index was rebuilt empty
                        continue
                services.save_page(page, related=related, summary=IMPORT_SUMMARY)
                counts[status] += 1
        self.stdout.write(
            "Wiki pages: {created} created, {updated} updated, {unchanged} unchanged, "
            "{kept} kept.".format(**counts)
        )
