"""core.lookups: ``in`` on an integer column ignores numbers it cannot hold (issue 26)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

pytestmark = pytest.mark.django_db

BIG = 99_999_999_999_999_999_999


def test_out_of_range_ids_match_nothing_and_the_rest_still_match():
    perm = Permission.objects.first()
    assert list(Permission.objects.filter(pk__in=[BIG, -BIG])) == []
    assert list(Permission.objects.filter(pk__in=[perm.pk, BIG])) == [perm]


def test_djangos_own_admin_says_select_a_valid_choice(admin_client):
    response = admin_client.post(
        reverse("admin:auth_group_add"), {"name": "G", "permissions": [str(BIG)]}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Group.objects.filter(name="G").exists()
