"""Revisions on every save, snapshots of both languages, revert, conflicts, the loader."""

import io

import pytest
from django.core.management import call_command

from wiki import services
from wiki.models import IMPORT_SUMMARY, Page, PageRevision

from .conftest import make_page

pytestmark = pytest.mark.django_db


def test_every_save_stores_a_full_snapshot_of_both_languages(django_user_model):
    author = django_user_model.objects.create_user("ed")
    other = make_page("energy")
    page = make_page(
        "rarities",
        title_en="Rarities",
        title_ru="Редкости",
        body_en="## One",
        body_ru="## Один",
        summary_en="Five levels",
        related=[other],
        author=author,
        summary="first",
    )
    rev = page.revisions.get()
    assert (rev.number, rev.author, rev.summary) == (1, author, "first")
    assert rev.snapshot == {
        "title_en": "Rarities",
        "title_ru": "Редкости",
        "summary_en": "Five levels",
        "summary_ru": "",
        "body_en": "## One",
        "body_ru": "## Один",
        "slug": "rarities",
        "section": "basics",
        "order": 0,
        "published": True,
        "related": ["energy"],
    }
    page.body_ru = "## Один и два"
    services.save_page(page, summary="second")
    page.refresh_from_db()
    assert page.revision_number == 2
    assert list(page.revisions.values_list("number", flat=True)) == [2, 1]
    assert page.revisions.get(number=2).snapshot["body_ru"] == "## Один и два"


def test_a_save_based_on_an_old_revision_is_refused_and_changes_nothing():
    page = make_page("energy", body_en="Original")
    services.save_page(Page.objects.get(pk=page.pk), summary="someone else")  # revision 2
    mine = Page.objects.get(pk=page.pk)
    mine.body_en = "My text"
    with pytest.raises(services.EditConflict) as info:
        services.save_page(mine, expected_revision=1)
    assert (info.value.expected, info.value.current) == (1, 2)
    fresh = Page.objects.get(pk=page.pk)
    assert fresh.body_en == "Original" and fresh.revision_number == 2
    assert PageRevision.objects.filter(page=page).count() == 2


def test_revert_restores_an_old_revision_as_a_new_one():
    other = make_page("energy")
    page = make_page("roles", body_en="v1", body_ru="в1", related=[other])
    page.body_en, page.title_ru = "v2", "Роли"
    services.save_page(page, related=[])
    first = page.revisions.get(number=1)
    new = services.revert_page(page, first)
    page.refresh_from_db()
    assert new.number == 3 and new.reverted_from == 1
    assert (page.body_en, page.body_ru, page.title_ru) == ("v1", "в1", "")
    assert list(page.related.values_list("slug", flat=True)) == ["energy"]
    assert page.revisions.count() == 3
    assert new.display_summary == "Reverted to revision 1"


def test_revert_refuses_when_the_page_moved_on():
    page = make_page("roles", body_en="v1")
    services.save_page(page)
    with pytest.raises(services.EditConflict):
        services.revert_page(page, page.revisions.get(number=1), expected_revision=1)
    assert page.revisions.count() == 2


def test_load_wiki_is_idempotent_and_keeps_editors_changes(shipped_wiki, django_user_model):
    assert len(shipped_wiki) >= 13
    rarities = Page.objects.get(slug="rarities")
    assert rarities.title_ru == "Редкости" and rarities.revision_number == 1
    assert rarities.revisions.get().summary == IMPORT_SUMMARY
    assert rarities.revisions.get().author is None
    assert rarities.related.filter(slug="energy").exists()
    before = PageRevision.objects.count()
    out = io.StringIO()
    call_command("load_wiki", stdout=out)
    assert PageRevision.objects.count() == before
    assert "0 created, 0 updated" in out.getvalue()

    editor = django_user_model.objects.create_user("ed")
    rarities.body_en += "\n\nAn editor's line."
    services.save_page(rarities, author=editor, summary="clarify")
    call_command("load_wiki", stdout=out)
    assert "An editor's line." in Page.objects.get(slug="rarities").body_en
    call_command("load_wiki", force=True, stdout=out)
    rarities.refresh_from_db()
    assert "An editor's line." not in rarities.body_en
    assert rarities.revision_number == 3  # the editor's version stays in the history
