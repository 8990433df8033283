"""Editing in the admin: revisions, conflicts, preview, history, diff, revert, reports, Editors."""

import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from wiki import services
from wiki.models import Page, PageRevision

from .conftest import make_page

pytestmark = pytest.mark.django_db


def form_data(page: Page, **changes) -> dict:
    data = {
        "slug": page.slug,
        "title_en": page.title_en or "",
        "title_ru": page.title_ru or "",
        "summary_en": page.summary_en or "",
        "summary_ru": page.summary_ru or "",
        "body_en": page.body_en or "",
        "body_ru": page.body_ru or "",
        "section": page.section,
        "order": page.order,
        "related": [p.pk for p in page.related.all()],
        "published": "on" if page.published else "",
        "edit_summary": "",
        "base_revision": page.revision_number,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != "" or k.startswith(("title", "summary", "body"))}


def change_url(page: Page) -> str:
    return reverse("admin:wiki_page_change", args=[page.pk])


def test_adding_a_page_in_the_admin_stores_revision_one(admin_client, admin_user):
    response = admin_client.post(
        reverse("admin:wiki_page_add"),
        {
            "slug": "energy",
            "title_en": "Energy",
            "title_ru": "Энергия",
            "body_en": "NRG",
            "body_ru": "",
            "summary_en": "",
            "summary_ru": "",
            "section": "match",
            "order": 3,
            "published": "on",
            "edit_summary": "new page",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    page = Page.objects.get(slug="energy")
    rev = page.revisions.get()
    assert (rev.number, rev.author, rev.summary) == (1, admin_user, "new page")
    assert rev.snapshot["title_ru"] == "Энергия" and page.revision_number == 1


def test_every_admin_save_stores_a_revision_with_author_and_summary(admin_client, admin_user):
    page = make_page("energy", body_en="Old")
    response = admin_client.post(
        change_url(page), form_data(page, body_en="New", edit_summary="typo")
    )
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body_en == "New" and page.revision_number == 2
    rev = page.revisions.get(number=2)
    assert (rev.author, rev.summary, rev.snapshot["body_en"]) == (admin_user, "typo", "New")


def test_the_change_form_carries_the_revision_it_was_opened_at(admin_client):
    page = make_page("energy")
    services.save_page(page)
    html = admin_client.get(change_url(page)).content.decode()
    assert 'name="base_revision" value="2"' in html
    assert 'name="edit_summary"' in html
    assert reverse("admin:wiki_page_revisions", args=[page.pk]) in html
    assert 'formaction="' + reverse("admin:wiki_page_preview") + '?lang=ru"' in html


def test_a_stale_form_is_refused_with_the_diff_and_nothing_is_overwritten(admin_client):
    page = make_page("energy", body_en="Base text")
    stale = form_data(page, body_en="My version", edit_summary="mine")  # opened at revision 1
    theirs = Page.objects.get(pk=page.pk)
    theirs.body_en = "Their version"
    services.save_page(theirs, summary="theirs")  # revision 2, saved in between

    response = admin_client.post(change_url(page), stale)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Edit conflict" in html and "were NOT saved" in html
    assert "<del>Their</del>" in html and "<ins>My</ins>" in html
    page.refresh_from_db()
    assert page.body_en == "Their version" and page.revision_number == 2
    assert PageRevision.objects.filter(page=page).count() == 2
    # The form now knows about revision 2: saving again is a deliberate, informed choice.
    assert 'name="base_revision" value="2"' in html
    response = admin_client.post(change_url(page), {**stale, "base_revision": 2})
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body_en == "My version" and page.revision_number == 3


def test_a_page_cannot_be_related_to_itself(admin_client):
    page = make_page("energy")
    other = make_page("rarities")
    html = admin_client.get(change_url(page)).content.decode()
    related = html[html.index('name="related"') :]
    related = related[: related.index("</select>")]
    assert f'value="{other.pk}"' in related and f'value="{page.pk}"' not in related
    response = admin_client.post(change_url(page), form_data(page, related=[page.pk, other.pk]))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["related"]
    assert not page.related.exists()


def test_a_form_without_its_revision_is_refused(admin_client):
    page = make_page("energy", body_en="Base")
    data = form_data(page, body_en="Changed")
    del data["base_revision"]
    assert admin_client.post(change_url(page), data).status_code == 200
    page.refresh_from_db()
    assert page.body_en == "Base"


def test_preview_renders_the_submitted_text_and_saves_nothing(admin_client):
    page = make_page("energy", body_en="Saved text")
    data = form_data(
        page,
        title_ru="Энергия",
        body_en="## Costs\n\n{{ energy_costs }}",
        body_ru="## Стоимость\n\nНовый текст [[nowhere]]\n\n::: note\nЗаметка\n:::",
    )
    response = admin_client.post(reverse("admin:wiki_page_preview") + "?lang=ru", data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Новый текст" in html and "Под капотом" not in html and "Заметка" in html
    assert '<span id="costs" class="anchor-alias"></span>' in html
    assert "nowhere" in html and "wikilink-missing" in html
    en = admin_client.post(reverse("admin:wiki_page_preview") + "?lang=en", data).content.decode()
    assert '<table class="macro-table">' in en
    page.refresh_from_db()
    assert page.body_en == "Saved text" and page.revisions.count() == 1
    assert admin_client.get(reverse("admin:wiki_page_preview")).status_code == 302
    assert (
        admin_client.post(reverse("admin:wiki_page_preview") + "?lang=xx", data).status_code == 400
    )


def test_history_diff_and_revert_in_the_admin(admin_client, admin_user):
    page = make_page("energy", body_en="First")
    page.body_en = "Second"
    services.save_page(page, summary="second")
    revisions = admin_client.get(reverse("admin:wiki_page_revisions", args=[page.pk]))
    assert revisions.status_code == 200 and "second" in revisions.content.decode()
    diff = admin_client.get(
        reverse("admin:wiki_page_revision_diff", args=[page.pk]) + "?from=2&to=1"
    ).content.decode()
    assert "<del>First</del>" in diff and "<ins>Second</ins>" in diff
    revert_url = reverse("admin:wiki_page_revert", args=[page.pk, 1])
    confirm = admin_client.get(revert_url)
    assert (
        confirm.status_code == 200 and 'name="base_revision" value="2"' in confirm.content.decode()
    )
    page.refresh_from_db()
    assert page.revision_number == 2  # a GET changes nothing
    response = admin_client.post(revert_url, {"base_revision": 2})
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body_en == "First" and page.revision_number == 3
    rev = page.revisions.get(number=3)
    assert rev.reverted_from == 1 and rev.author == admin_user
    # A confirmation page that went stale restores nothing.
    assert admin_client.post(revert_url, {"base_revision": 2}).status_code == 302
    assert Page.objects.get(pk=page.pk).revision_number == 3


@pytest.mark.parametrize("query", ["", "?from=1", "?from=x&to=1"])
def test_admin_diff_rejects_bad_revision_numbers(admin_client, query):
    page = make_page("energy")
    url = reverse("admin:wiki_page_revision_diff", args=[page.pk]) + query
    assert admin_client.get(url).status_code == 400
    url = reverse("admin:wiki_page_revision_diff", args=[page.pk]) + "?from=1&to=5"
    assert admin_client.get(url).status_code == 404


def test_missing_links_report(admin_client):
    make_page("roles", body_en="## Hash fallback\n")
    make_page("hidden", published=False)
    make_page(
        "skills",
        body_en="[[roles#hash-fallback]] [[roles#nope]] [[booster-packs|pools]] [[hidden]] [[card:5]]",
        body_ru="[[leagues]]\n\n{{ no_such_macro }}",
    )
    html = admin_client.get(reverse("admin:wiki_page_missing_links")).content.decode()
    assert "[[roles#nope]]" in html and "no such section on that page" in html
    assert "[[booster-packs|pools]]" in html and "[[leagues]]" in html
    assert "[[hidden]]" in html and "page not published" in html
    assert "[[roles#hash-fallback]]" not in html and "card:5" not in html
    assert "no_such_macro" in html
    changelist = admin_client.get(reverse("admin:wiki_page_changelist")).content.decode()
    assert reverse("admin:wiki_page_missing_links") in changelist


def test_the_report_finds_an_unknown_macro_inside_a_paragraph_or_a_summary(admin_client):
    make_page("roles", body_en="A sentence with {{ inline_nope }} inside it.")
    make_page("skills", summary_ru="Кратко {{ summary_nope }}.", body_en="`{{ in_code }}`")
    html = admin_client.get(reverse("admin:wiki_page_missing_links")).content.decode()
    assert "inline_nope" in html and "summary_nope" in html
    assert "in_code" not in html and "Every table named in the pages exists." not in html


@pytest.mark.parametrize(
    ("field", "text", "line"),
    [
        ("body_en", "A sentence with {{ no_such_macro }} inside it.", 1),
        ("body_ru", "Абзац.\n\nФраза с {{ no_such_macro }} внутри.", 3),
        ("body_en", "- a list item {{ no_such_macro arg }}", 1),
        ("summary_en", "A summary with {{ no_such_macro }}.", 1),
        ("summary_ru", "Кратко: {{ no_such_macro }}", 1),
    ],
)
def test_an_unknown_macro_inside_a_paragraph_or_summary_is_refused_as_on_its_own_line(
    admin_client, field, text, line
):
    page = make_page("energy", body_en="Intro")
    response = admin_client.post(change_url(page), form_data(page, **{field: text}))
    errors = errors_of(response, field)
    assert errors[0] == f"Line {line}: there is no table called “no_such_macro”."
    assert "energy_costs" in errors[1]
    page.refresh_from_db()
    assert page.revision_number == 1 and "no_such_macro" not in page.body_en


def test_a_macro_in_code_or_a_known_one_inside_a_paragraph_is_saved(admin_client):
    page = make_page("energy", body_en="Intro")
    body = "Write `{{ no_such_macro }}` to…\n\n    {{ nope }}\n\nInline {{ energy_costs }} text."
    response = admin_client.post(change_url(page), form_data(page, body_en=body))
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body_en == body


def test_deleting_a_page_in_the_admin_removes_it_from_search(admin_client, client):
    page = make_page("energy", title_en="Energy")
    response = admin_client.post(reverse("admin:wiki_page_delete", args=[page.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert "Nothing found" in client.get(reverse("wiki:search"), {"q": "energy"}).content.decode()


def test_the_tabbed_admin_needs_no_third_party_script(admin_client):
    page = make_page("energy")
    html = admin_client.get(change_url(page)).content.decode()
    assert "googleapis" not in html and "jquery-ui" not in html
    assert "wiki/admin/tabs.js" in html and "tabbed_translation_fields.js" in html


# -- the Editors group -------------------------------------------------------------------


@pytest.fixture
def editor(client, django_user_model):
    user = django_user_model.objects.create_user("editor", password="pw-editor-123", is_staff=True)
    user.groups.add(Group.objects.get(name="Editors"))
    client.force_login(user)
    return user


def test_editors_have_wiki_permissions_only():
    perms = Group.objects.get(name="Editors").permissions.select_related("content_type")
    assert {(p.content_type.app_label, p.codename) for p in perms} == {
        ("wiki", "add_page"),
        ("wiki", "change_page"),
        ("wiki", "view_page"),
        ("wiki", "view_pagerevision"),
    }
    assert (
        not Permission.objects.filter(group__name="Editors")
        .exclude(content_type__app_label="wiki")
        .exists()
    )


def test_an_editor_can_edit_a_page_and_its_history(client, editor):
    page = make_page("energy", body_en="Old")
    response = client.post(change_url(page), form_data(page, body_en="New"))
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body_en == "New" and page.revisions.get(number=2).author == editor
    assert client.get(reverse("admin:wiki_page_revisions", args=[page.pk])).status_code == 200
    assert (
        client.post(
            reverse("admin:wiki_page_revert", args=[page.pk, 1]), {"base_revision": 2}
        ).status_code
        == 302
    )
    assert (
        client.post(reverse("admin:wiki_page_delete", args=[page.pk]), {"post": "yes"}).status_code
        == 403
    )


def test_an_editor_cannot_touch_card_data_or_users(client, editor):
    for model in apps.get_app_config("cards").get_models():
        meta = model._meta
        for perm in ("add", "change", "delete", "view"):
            assert not editor.has_perm(f"{meta.app_label}.{perm}_{meta.model_name}")
        try:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        except Exception:
            continue
        assert client.get(url).status_code == 403
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403


@pytest.mark.parametrize("value", ["²", "٣", "１", "x", "-1", "99999999999999"])
def test_admin_revision_views_refuse_bad_numbers_with_a_message(admin_client, value):
    page = make_page("energy", body_en="First")
    page.body_en = "Second"
    services.save_page(page)
    diff = admin_client.get(
        reverse("admin:wiki_page_revision_diff", args=[page.pk]), {"from": value, "to": "2"}
    )
    assert diff.status_code == 400 and 'class="errorlist"' in diff.content.decode()
    listing = admin_client.get(
        reverse("admin:wiki_page_revisions", args=[page.pk]), {"page": value}
    )
    assert listing.status_code == 400
    revert = admin_client.post(
        reverse("admin:wiki_page_revert", args=[page.pk, 1]), {"base_revision": value}
    )
    assert revert.status_code == 400 and 'class="errorlist"' in revert.content.decode()
    page.refresh_from_db()
    assert page.revision_number == 2 and page.body_en == "Second"


def test_the_russian_admin_says_what_was_wrong_in_russian(admin_client):
    page = make_page("energy")
    response = admin_client.get(
        reverse("admin:wiki_page_revision_diff", args=[page.pk]).replace("/en/", "/ru/"),
        {"from": "²", "to": "1"},
    )
    assert response.status_code == 400 and "Введите целое число" in response.content.decode()


def test_the_admin_history_marks_the_current_revision_on_every_page(admin_client):
    page = make_page("energy", body_en="v1")
    for n in range(2, 56):
        page.body_en = f"v{n}"
        services.save_page(page)
    url = reverse("admin:wiki_page_revisions", args=[page.pk])
    first = admin_client.get(url).content.decode()
    assert first.count(">current<") == 1 and "restore 54" in first
    second = admin_client.get(url, {"page": 2}).content.decode()
    assert ">current<" not in second and "restore 5" in second


# -- what a body may hold -------------------------------------------------------------------


def errors_of(response, field: str) -> list[str]:
    form = response.context["adminform"].form
    return [str(e) for e in form.errors.get(field, [])]


def test_the_reported_pathological_line_is_refused_quickly_naming_the_line(admin_client):
    import time

    page = make_page("energy", body_en="Intro")
    line = "{{ a" + " " * 4000 + "x"
    start = time.process_time()
    response = admin_client.post(change_url(page), form_data(page, body_en=f"Intro\n\n{line}"))
    assert time.process_time() - start < 3.0  # it held the write lock 13 s before
    assert response.status_code == 200
    assert errors_of(response, "body_en") == [
        "Line 3 is 4,005 characters long; a line may hold at most 2,000. "
        "Break it into shorter paragraphs."
    ]
    page.refresh_from_db()
    assert page.body_en == "Intro" and page.revision_number == 1


def test_an_unknown_table_is_refused_naming_its_line_in_the_editors_language(admin_client):
    page = make_page("energy", body_en="Intro")
    data = form_data(page, body_ru="Текст\n\n{{ energy_costs }}\n\n{{ no_such_table }}\n")
    response = admin_client.post(change_url(page).replace("/en/", "/ru/"), data)
    errors = errors_of(response, "body_ru")
    assert errors[0] == "Строка 5: таблицы «no_such_table» нет."
    assert "energy_costs" in errors[1]  # the tables that do exist
    page.refresh_from_db()
    assert not page.body_ru and page.revision_number == 1
    # A new page is checked too.
    response = admin_client.post(
        reverse("admin:wiki_page_add").replace("/ru/", "/en/"),
        {"slug": "x", "title_en": "X", "body_en": "{{ nope }}", "section": "basics", "order": 0},
    )
    assert response.status_code == 200 and errors_of(response, "body_en")[0].startswith("Line 1:")
    assert not Page.objects.filter(slug="x").exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x\n" * 1001, "The text has 1,001 lines; a page may hold at most 1,000."),
        (
            ("word " * 300 + "\n") * 40,
            "The text is 60,038 characters long; a page may hold at most 50,000.",
        ),
        (
            "\n\n".join(["{{ energy_costs }}"] * 21),
            "The text has 21 tables; a page may show at most 20 (line 41 is one too many).",
        ),
        (
            "\n".join(["[[zz]] " * 280] * 22),
            "With its tables and links drawn, the page would be 887,047 characters of HTML; a page may be at most 250,000.",
        ),
    ],
    ids=["lines", "length", "tables", "rendered-size"],
)
def test_a_body_past_the_limits_is_refused(admin_client, body, message):
    page = make_page("energy", body_en="Intro")
    response = admin_client.post(change_url(page), form_data(page, body_en=body))
    assert any(error.startswith(message) for error in errors_of(response, "body_en"))
    assert Page.objects.get(pk=page.pk).revision_number == 1


def test_many_long_lines_are_named_three_then_counted(admin_client):
    page = make_page("energy")
    body = "\n".join(["y" * 2500] * 5)
    errors = errors_of(
        admin_client.post(change_url(page), form_data(page, body_en=body)), "body_en"
    )
    assert [e.split(" is ")[0] for e in errors[:3]] == ["Line 1", "Line 2", "Line 3"]
    assert errors[3] == "2 more lines are too long."


def test_a_conflict_and_a_bad_body_are_both_reported(admin_client):
    page = make_page("energy", body_en="Base")
    stale = form_data(page, body_en="{{ nope }}")
    services.save_page(Page.objects.get(pk=page.pk))
    html = admin_client.post(change_url(page), stale).content.decode()
    assert "Edit conflict" in html and "there is no table called “nope”" in html


def test_the_preview_says_why_a_body_cannot_be_saved(admin_client):
    page = make_page("energy")
    url = reverse("admin:wiki_page_preview") + "?lang=en"
    long = admin_client.post(url, form_data(page, body_en="z" * 3000)).content.decode()
    assert "cannot be saved as it is" in long and "Line 1 is 3,000 characters long" in long
    assert "z" * 3000 not in long  # not rendered at all
    unknown = admin_client.post(url, form_data(page, body_en="{{ nope }}")).content.decode()
    assert "Line 1: there is no table called “nope”." in unknown


def test_the_missing_links_report_checks_markdown_links_to_the_site(admin_client):
    make_page("roles", body_en="## Hash fallback\n")
    make_page("hidden", published=False)
    make_page(
        "skills",
        body_en=(
            "[ok](/en/wiki/roles/#hash-fallback) [ru](/ru/wiki/roles/) [up](../roles/) "
            "[here](#scoring) [cards](/en/cards/) [off](https://example.com/nope) "
            "[mail](mailto:a@b.c) [bare](/wiki/roles/)\n\n## Scoring\n\n"
            "[gone](/en/wiki/nowhere/) [sec](/en/wiki/roles/#nope) [hid](../hidden/) "
            "[typo](/en/cardz/) [rel](roles/) [self](#nope-here) [css](/static/css/wiki.css) "
            "[nocss](/static/css/none.css)"
        ),
    )
    html = admin_client.get(reverse("admin:wiki_page_missing_links")).content.decode()
    for written, problem in [
        ("[gone](/en/wiki/nowhere/)", "no such page"),
        ("[sec](/en/wiki/roles/#nope)", "no such section on that page"),
        ("[hid](../hidden/)", "page not published"),
        ("[typo](/en/cardz/)", "no such address on this site"),
        ("[rel](roles/)", "no such address on this site"),
        ("[self](#nope-here)", "no such section on that page"),
        ("[nocss](/static/css/none.css)", "no such address on this site"),
    ]:
        row = html.split(f"<code>{written}</code>", 1)
        assert len(row) == 2, written
        assert problem in row[1].split("</tr>", 1)[0], written
    for fine in ("[ok]", "[ru]", "[up]", "[here]", "[cards]", "[off]", "[mail]", "[bare]", "[css]"):
        assert f"<code>{fine}(" not in html, fine


# -- the Russian admin, and the small things (issue 14) ---------------------------------


def test_the_russian_change_page_is_russian(admin_client):
    page = make_page("energy", title_ru="Энергия", body_en="Text")
    html = admin_client.get(f"/ru/admin/wiki/page/{page.pk}/change/").content.decode()
    assert "<h1>Изменение: страница вики</h1>" in html
    assert "Изменить страница" not in html
    for english in ("Placement", "This edit", "Base revision", ">Revisions<", "Edit summary"):
        assert english not in html, english
    assert "Размещение" in html and "Эта правка" in html
    response = admin_client.post(
        f"/ru/admin/wiki/page/{page.pk}/change/", form_data(page, body_en="New"), follow=True
    )
    assert re.search(r"Изменено: страница вики «<a [^>]+>Энергия</a>»\.", response.content.decode())


def _admin_models():
    from django.contrib import admin

    apps_ = ("wiki", "cards", "packs", "play", "arena")
    return [m for m in admin.site._registry if m._meta.app_label in apps_]


@pytest.mark.parametrize("model", _admin_models(), ids=lambda m: m._meta.label)
def test_every_admin_title_reads_right_whatever_the_models_gender(admin_client, model):
    """Django's Russian admin composes «Изменить %s» / «… был успешно добавлен» with the
    verbose name; the project's catalogue words these around the name (core/admin.py)."""
    opts = model._meta
    html = admin_client.get(f"/ru/admin/{opts.app_label}/{opts.model_name}/").content.decode()
    from django.utils import translation

    with translation.override("ru"):
        name = str(opts.verbose_name)
    assert re.search(f"<h1>Выберите для (изменения|просмотра): {name}</h1>", html)


def test_the_django_admin_texts_the_catalogue_rewords_are_still_djangos():
    """A Django upgrade that changes one of these texts must make us look again."""
    from pathlib import Path

    import django
    import polib

    from core.admin import DJANGO_ADMIN_PLURAL_TEXTS, DJANGO_ADMIN_TEXTS

    source = Path(django.__file__).parent / "contrib/admin/locale/ru/LC_MESSAGES/django.po"
    djangos = {e.msgid for e in polib.pofile(str(source))}
    ours = [*DJANGO_ADMIN_TEXTS, "%(count)s %(name)s was changed successfully."]
    assert len(DJANGO_ADMIN_PLURAL_TEXTS) == 1
    assert [text for text in ours if text not in djangos] == []


@pytest.mark.parametrize(("lang", "name"), [("en", "Card Codex administration"), ("ru", None)])
def test_the_login_page_has_a_first_level_heading(client, lang, name):
    html = client.get(f"/{lang}/admin/login/").content.decode()
    headings = re.findall(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert len(headings) == 1
    assert re.sub(r"<[^>]+>", "", headings[0]).strip() == (name or "Администрирование Card Codex")
    assert 'id="login-form"' in html


def test_the_conflict_message_does_not_end_in_a_double_full_stop(admin_client, settings):
    settings.USE_TZ = True
    page = make_page("energy", body_en="Base")
    stale = form_data(page, body_en="Mine")
    theirs = Page.objects.get(pk=page.pk)
    theirs.body_en = "Theirs"
    services.save_page(theirs)
    html = admin_client.post(change_url(page), stale).content.decode()
    sentence = re.search(r"Last saved at ([^<]*?) by ([^<]*?)\.</p>", html)
    assert sentence, html[html.find("wiki-conflict") :][:1500]
    assert ".." not in html[html.find("Last saved") :][:200]


def test_the_revert_confirmation_names_the_revision_it_will_make(admin_client):
    page = make_page("energy", body_en="First")
    page.body_en = "Second"
    services.save_page(page)
    html = admin_client.get(reverse("admin:wiki_page_revert", args=[page.pk, 1])).content.decode()
    assert "the new current version, revision 3." in html and "+ 1" not in html
    ru = admin_client.get(f"/ru/admin/wiki/page/{page.pk}/revisions/1/revert/").content.decode()
    assert "новой текущей версией — версией 3." in ru


def test_the_preview_is_in_the_language_previewed_with_notices_in_the_editors(admin_client):
    page = make_page("energy", body_en="Text")
    data = form_data(page, body_en="## Costs\n\nText", body_ru="## Стоимость\n\nТекст")
    ru_from_en = admin_client.post("/en/admin/wiki/page/preview/?lang=ru", data).content.decode()
    assert '<html lang="ru"' in ru_from_en and "Содержание" in ru_from_en
    assert "Preview — this text has not been saved" in ru_from_en
    en_from_ru = admin_client.post("/ru/admin/wiki/page/preview/?lang=en", data).content.decode()
    assert '<html lang="en"' in en_from_ru and ">Contents<" in en_from_ru
    assert "Предпросмотр — этот текст не сохранён" in en_from_ru
    bad = form_data(page, body_en="Text", body_ru="{{ nope }}")
    problems = admin_client.post("/en/admin/wiki/page/preview/?lang=ru", bad).content.decode()
    assert "there is no table called “nope”" in problems  # the editor's language


def test_a_twenty_digit_related_page_is_not_a_valid_choice_for_an_editor(client, editor):
    """Issue 26: on SQLite the id overflowed in ``pk__in`` (a 500)."""
    page = make_page("energy")
    response = client.post(change_url(page), form_data(page, related=["99999999999999999999"]))
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not page.related.exists()


def test_two_staff_adding_one_slug_at_once_get_the_form_error(admin_client, monkeypatch):
    """Issue 26: the other add commits between this form's unique check and its save (on
    PostgreSQL an IntegrityError and a 500 before): the form says the address is taken."""
    from wiki.forms import PageAdminForm

    make_page("energy", title_en="Theirs")  # committed by the other staff member...
    check = PageAdminForm.validate_unique
    missed = []

    def check_too_early(self):  # ...after this form had checked the address
        if not missed:
            missed.append(True)
            return None
        return check(self)

    monkeypatch.setattr(PageAdminForm, "validate_unique", check_too_early)
    data = {"slug": "energy", "title_en": "Mine", "body_en": "NRG", "section": "match"}
    data.update({"order": 3, "published": "on", "edit_summary": "", "title_ru": ""})
    data.update({"body_ru": "", "summary_en": "", "summary_ru": ""})
    response = admin_client.post(reverse("admin:wiki_page_add"), data)
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert list(Page.objects.values_list("title_en", flat=True)) == ["Theirs"]


def test_the_russian_preview_does_not_parse_an_english_body_past_the_limits(
    admin_client, monkeypatch
):
    """Issue 26: a 700 KB English body took 14 s to preview in Russian (its headings were
    parsed for anchor aliases); a body that could not be saved is not parsed."""
    from wiki import presenters
    from wiki.limits import MAX_BODY_CHARS

    parsed = []
    real = presenters.extract_headings
    monkeypatch.setattr(presenters, "extract_headings", lambda t: parsed.append(len(t)) or real(t))
    huge = "## Heading\n\nText.\n\n" * (MAX_BODY_CHARS // 10)
    data = {"title_en": "T", "title_ru": "Т", "summary_en": "", "summary_ru": ""}
    data.update({"body_en": huge, "body_ru": "## Заголовок\n\nТекст."})
    response = admin_client.post(reverse("admin:wiki_page_preview") + "?lang=ru", data)
    assert response.status_code == 200 and "Заголовок" in response.content.decode()
    assert parsed == []
    data["body_en"] = "## Heading\n\nText."
    admin_client.post(reverse("admin:wiki_page_preview") + "?lang=ru", data)
    assert parsed == [len(data["body_en"])]  # a body within the limits still gives aliases
