"""The admin requires staff, and the Editors group can change wiki pages but not card data."""

import importlib

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

pytestmark = pytest.mark.django_db


def admin_urls() -> list[str]:
    """The admin index and every registered model's list and add pages."""
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    return urls


def assert_sent_to_login(response, url: str) -> None:
    assert response.status_code == 302, (url, response.status_code)
    assert response["Location"].startswith(reverse("admin:login")), (url, response["Location"])


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    for url in admin_urls():
        assert_sent_to_login(client.get(url), url)


def test_a_logged_in_non_staff_user_is_sent_to_the_login_page(client, django_user_model):
    user = django_user_model.objects.create_user("player", password="pw-player-123")
    # Even with every permission: the admin is for staff only.
    user.user_permissions.set(Permission.objects.all())
    client.force_login(user)
    for url in admin_urls():
        assert_sent_to_login(client.get(url), url)
    response = client.post(reverse("admin:auth_user_add"), {"username": "intruder"})
    assert_sent_to_login(response, "POST user add")
    assert not django_user_model.objects.filter(username="intruder").exists()


def test_staff_without_permissions_see_the_index_but_no_model(client, django_user_model):
    user = django_user_model.objects.create_user("staff", password="pw-staff-123", is_staff=True)
    client.force_login(user)
    assert client.get(reverse("admin:index")).status_code == 200
    for url in admin_urls()[1:]:
        assert client.get(url).status_code == 403, url


def test_superusers_can_open_every_admin_list_and_add_page(admin_client):
    for url in admin_urls():
        status = admin_client.get(url).status_code
        # An admin may be read-only (no add page): 403 then, never an error.
        expected = (200, 403) if url.endswith("/add/") else (200,)
        assert status in expected, (url, status)


# --- the Editors group -------------------------------------------------------------------


def card_models():
    return list(apps.get_app_config("cards").get_models())


def registered_card_models():
    """The card models the admin shows: the ones an editor could reach by URL."""
    found = [model for model in card_models() if model in admin.site._registry]
    assert found, "the cards admin registers no model"
    return found


@pytest.fixture
def card_rows():
    """One row in every card table the admin shows, so change and delete have a target."""
    from cards.models import Combo
    from tests.cards.conftest import make_card

    card = make_card(7)
    combo = Combo.objects.create(name="Capped Vest", rarity="epic")
    combo.attributes.set([card.head, card.body])
    # Market data by day, the changes it makes, the rules version (issue 29).
    import datetime
    import json

    from cards.history import record_rules_version
    from cards.market import import_market

    day = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    rows = [
        {"date": day, "slot": "paw", "attribute": card.paw.name, "supply": 2},
        {"date": day, "card": card.token, "getgems_rank": 3},
    ]
    import_market(json.dumps(rows))
    record_rules_version()
    for model in registered_card_models():
        assert model.objects.exists(), model


def editors_group() -> Group:
    """The Editors group as its migration (wiki 0003) makes it. A transactional test run
    earlier in the same process flushes the database, migration rows included; then the
    group is made again from the migration's own definition."""
    migration = importlib.import_module("wiki.migrations.0003_editors_group")
    group, created = Group.objects.get_or_create(name=migration.GROUP)
    if created:
        codenames = [f"{a}_{model}" for model, acts in migration.PERMISSIONS.items() for a in acts]
        wiki_perms = Permission.objects.filter(
            content_type__app_label="wiki", codename__in=codenames
        )
        group.permissions.add(*wiki_perms)
    return group


@pytest.fixture
def editor(client, django_user_model):
    group = editors_group()
    user = django_user_model.objects.create_user("editor", password="pw-editor-123", is_staff=True)
    user.groups.add(group)
    client.force_login(user)
    return user


def test_editors_hold_no_permission_to_change_card_data(editor):
    assert card_models()
    for model in card_models():
        meta = model._meta
        for action in ("add", "change", "delete"):
            perm = f"{meta.app_label}.{action}_{meta.model_name}"
            assert not editor.has_perm(perm), perm


def test_editors_cannot_change_card_data_in_the_admin(client, editor, card_rows):
    for model in registered_card_models():
        meta = model._meta
        base = f"admin:{meta.app_label}_{meta.model_name}"
        assert client.get(reverse(f"{base}_add")).status_code == 403, model
        response = client.post(reverse(f"{base}_add"), {})
        assert response.status_code == 403, model
        obj = model.objects.first()
        change = reverse(f"{base}_change", args=[obj.pk])
        assert client.get(change).status_code == 403, model
        assert client.post(change, {}).status_code == 403, model
        delete = reverse(f"{base}_delete", args=[obj.pk])
        assert client.get(delete).status_code == 403, model
        assert client.post(delete, {"post": "yes"}).status_code == 403, model
        assert model.objects.filter(pk=obj.pk).exists(), model


def test_editors_can_edit_wiki_pages(client, editor):
    assert apps.get_model("wiki", "Page") in admin.site._registry
    assert editor.has_perm("wiki.change_page")
    url = reverse("admin:wiki_page_changelist")
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/x", ""])
def test_a_login_with_an_unsafe_next_lands_on_the_admin_index(client, django_user_model, next_url):
    django_user_model.objects.create_user("staff", password="pw-staff-123", is_staff=True)
    login = reverse("admin:login") + (f"?next={next_url}" if next_url else "")
    response = client.post(
        login, {"username": "staff", "password": "pw-staff-123", "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")  # not /accounts/profile/, a 404
    assert client.get(response["Location"]).status_code == 200
