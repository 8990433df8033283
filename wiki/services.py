"""Writing wiki pages: every save stores a revision; reverts; edit-conflict checks.

Whoever saves a page (the admin, the ``load_wiki`` command, a shell) goes through
``save_page`` / ``record_revision`` so that the history is complete and the search index
follows the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from core import versions

from . import search
from .models import Page, PageRevision, Section
from .selectors import LANGUAGE_CODES, TRANSLATED_FIELDS

#: Snapshot keys of the translated fields, e.g. ``title_en``, ``body_ru``.
TRANSLATED_KEYS = tuple(f"{f}_{code}" for f in TRANSLATED_FIELDS for code in LANGUAGE_CODES)


class EditConflict(Exception):
    """The page was saved by someone else after the editor opened it."""

    def __init__(self, page: Page, expected: int, current: int) -> None:
        self.page = page
        self.expected = expected
        self.current = current
        super().__init__(
            f"Page {page.pk} is at revision {current}; the edit was based on {expected}."
        )


def snapshot(page: Page, related: Iterable[str] | None = None) -> dict[str, Any]:
    """Every field of a page that a revision keeps (``related`` as sorted slugs)."""
    data: dict[str, Any] = {key: getattr(page, key, None) or "" for key in TRANSLATED_KEYS}
    if related is None:
        related = page.related.values_list("slug", flat=True) if page.pk else ()
    data.update(
        slug=page.slug,
        section=page.section,
        order=page.order,
        published=page.published,
        related=sorted(set(related)),
    )
    return data


def _author(user: Any) -> AbstractBaseUser | None:
    if user is None or isinstance(user, AnonymousUser) or not getattr(user, "pk", None):
        return None
    return user


def current_revision_number(page_pk: int) -> int:
    """The page's latest revision number, read under a row lock where the database has one."""
    return (
        Page.objects.select_for_update()
        .filter(pk=page_pk)
        .values_list("revision_number", flat=True)
        .get()
    )


def check_conflict(page: Page, expected: int) -> None:
    """Raise ``EditConflict`` when the page has moved past revision ``expected``.

    Call it inside the transaction that saves: with SQLite's IMMEDIATE transactions (and
    the row lock on PostgreSQL) nobody can save in between.
    """
    current = current_revision_number(page.pk)
    if current != expected:
        raise EditConflict(page, expected, current)


@transaction.atomic
def record_revision(
    page: Page,
    *,
    author: Any = None,
    summary: str = "",
    reverted_from: int | None = None,
) -> PageRevision:
    """Store the page as it is now as its next revision, and re-index it for search."""
    number = current_revision_number(page.pk) + 1
    revision = PageRevision.objects.create(
        page=page,
        number=number,
        snapshot=snapshot(page),
        author=_author(author),
        summary=(summary or "").strip()[:300],
        reverted_from=reverted_from,
    )
    Page.objects.filter(pk=page.pk).update(revision_number=number)
    page.revision_number = number
    search.index_page(page)
    versions.bump("wiki")
    return revision


@transaction.atomic
def save_page(
    page: Page,
    *,
    related: Iterable[Page] | None = None,
    author: Any = None,
    summary: str = "",
    expected_revision: int | None = None,
    reverted_from: int | None = None,
) -> PageRevision:
    """Save ``page`` (and its related pages when given) and record a revision.

    With ``expected_revision``, refuse with ``EditConflict`` (saving nothing) when
    someone saved the page after that revision.
    """
    if page.pk is not None and expected_revision is not None:
        check_conflict(page, expected_revision)
    page.save()
    if related is not None:
        page.related.set(related)
    return record_revision(page, author=author, summary=summary, reverted_from=reverted_from)


def apply_snapshot(page: Page, data: dict[str, Any]) -> list[Page]:
    """Set the page's fields from a snapshot; returns the related pages that still exist.

    The slug is kept (URLs stay stable and another page may have taken the old slug).
    """
    for key in TRANSLATED_KEYS:
        setattr(page, key, data.get(key) or "")
    if data.get("section") in Section.values:
        page.section = data["section"]
    if isinstance(data.get("order"), int) and data["order"] >= 0:
        page.order = data["order"]
    if isinstance(data.get("published"), bool):
        page.published = data["published"]
    slugs = [s for s in data.get("related") or () if s != page.slug]
    return list(Page.objects.filter(slug__in=slugs))


@transaction.atomic
def revert_page(
    page: Page, revision: PageRevision, *, author: Any = None, expected_revision: int | None = None
) -> PageRevision:
    """Restore ``revision``'s content as a new revision (history is never rewritten)."""
    if revision.page_id != page.pk:
        raise ValueError("The revision belongs to another page.")
    if expected_revision is not None:
        check_conflict(page, expected_revision)
    related = apply_snapshot(page, revision.snapshot)
    return save_page(
        page,
        related=related,
        author=author,
        summary=f"Reverted to revision {revision.number}",
        reverted_from=revision.number,
    )


def delete_page(page: Page) -> None:
    """Delete a page, its revisions and its search entries."""
    with transaction.atomic():
        search.remove_page(page.pk)
        page.delete()
        versions.bump("wiki")
