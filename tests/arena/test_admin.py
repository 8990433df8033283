"""The slab values admin: staff import a values file with the command's all-or-nothing
checks (one implementation: ``arena.services.import_feed``), see each problem by row,
column and why, and see values as money."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from arena.forms import ValuesFileForm
from arena.models import SlabValue
from arena.selectors import match_day

pytestmark = pytest.mark.django_db

URL = "/en/admin/arena/slabvalue/import/"


def upload(client, content: str | bytes, name: str = "feed.csv", url: str = URL):
    data = content.encode() if isinstance(content, str) else content
    return client.post(url, {"file": SimpleUploadedFile(name, data)})


def stored() -> list[tuple]:
    return list(SlabValue.objects.order_by("id").values_list("id", "slab_id", "date", "value"))


def test_the_import_url_is_the_admins() -> None:
    assert reverse("admin:arena_slabvalue_import") == URL


def test_a_good_file_is_stored_and_said_and_a_second_import_changes_nothing(
    admin_client, slabs
) -> None:
    today = match_day()
    feed = f'asset_id,date,value\ncc-7,{today},11.25\ncc-3,{today},"$1,200.50"\nmid,{today},140\n'
    response = upload(admin_client, feed)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:arena_slabvalue_changelist")
    assert SlabValue.objects.get(slab__asset_id="cc-7", date=today).value == Decimal("11.25")
    assert SlabValue.objects.get(slab__asset_id="cc-3", date=today).value == Decimal("1200.50")
    page = admin_client.get(response["Location"]).content.decode()
    assert "3 rows: 0 created, 2 updated, 1 unchanged." in page
    before = stored()
    response = upload(admin_client, feed)
    assert (
        "3 rows: 0 created, 0 updated, 3 unchanged."
        in admin_client.get(response["Location"]).content.decode()
    )
    assert stored() == before


def test_a_json_file_is_stored(admin_client, slabs) -> None:
    day = match_day() - dt.timedelta(days=20)
    feed = json.dumps({"values": [{"asset_id": "cc-2", "date": str(day), "value": "7.10"}]})
    assert upload(admin_client, feed, "feed.json").status_code == 302
    assert SlabValue.objects.get(slab__asset_id="cc-2", date=day).value == Decimal("7.10")


def _problems(page: str) -> list[tuple[str, str, str]]:
    """The problem table's rows: (row, column, why)."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", body, re.S)
    return [(r, re.sub(r"</?code>", "", c), w) for r, c, w in rows]


def test_every_problem_is_shown_by_row_column_and_why_and_nothing_is_written(
    admin_client, slabs
) -> None:
    today = match_day()
    feed = (
        "asset_id,date,value\n"
        f"cc-7,{today},12.00\n"  # fine, but the file as a whole is refused
        f"nope,{today},1\n"
        f"cc-3,2026-13-45,1\n"
        f"cc-3,{today},12.345\n"
        f"cc-3,{today},-1\n"
        f"cc-3,{today + dt.timedelta(days=2)},1\n"
        f",{today},1\n"
        f"cc-1,{today},1,5\n".replace("1,5", '"1,5"')
        + f"cc-2,{today},1\n"
        f"cc-2,{today},2\n"
    )
    before = stored()
    response = upload(admin_client, feed)
    assert response.status_code == 400
    page = response.content.decode()
    problems = _problems(page)
    assert problems[:4] == [
        ("line 3", "asset_id", "no slab &#x27;nope&#x27; (add it first)"),
        ("line 4", "date", "&#x27;2026-13-45&#x27; is not a date like 2026-01-31"),
        ("line 5", "value", "&#x27;12.345&#x27; has more than two decimals (cents)"),
        ("line 6", "value", "&#x27;-1&#x27; must be 0 or more"),
    ]
    assert [(r, c) for r, c, _w in problems[4:]] == [
        ("line 7", "date"),
        ("line 8", "asset_id"),
        ("line 9", "value"),
        ("line 11", "—"),
    ]
    assert "is ambiguous" in problems[6][2] and "is already 1.00 at line 10" in problems[7][2]
    assert "8 problems; nothing was imported." in page
    assert stored() == before


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "The submitted file is empty."),
        (b"\n\n", "(missing: asset_id, date, value)"),
        (b"asset_id,value\ncc-7,1\n", "the header must name asset_id, date, value"),
        (b"asset_id,date,value\n", "the file has no rows"),
        (b"{nope", "not valid JSON"),
        (b'{"rows": []}', "JSON: expected a list"),
        (b"\xff\xfe\x00bad", "feed.csv: not UTF-8 text"),
    ],
)
def test_a_file_that_is_not_a_feed_is_a_problem_and_nothing_is_written(
    admin_client, slabs, content: bytes, why: str
) -> None:
    before = stored()
    response = upload(admin_client, content)
    assert response.status_code == 400
    assert why in response.content.decode()
    assert stored() == before


def test_a_form_without_a_file_says_so(admin_client, slabs) -> None:
    response = admin_client.post(URL, {})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_a_file_too_large_is_refused_unread(admin_client, slabs, monkeypatch) -> None:
    monkeypatch.setattr(ValuesFileForm, "MAX_BYTES", 10)
    before = stored()
    response = upload(admin_client, f"asset_id,date,value\ncc-7,{match_day()},1\n")
    assert response.status_code == 400
    assert "The file is larger than 0 MB." in response.content.decode()
    assert stored() == before


def test_problems_are_in_the_staffs_language(admin_client, slabs) -> None:
    url = "/ru/admin/arena/slabvalue/import/"
    response = upload(admin_client, "asset_id,date,value\nnope,2020-01-01,1\n", url=url)
    assert response.status_code == 400
    assert _problems(response.content.decode()) == [
        ("строка 2", "asset_id", "слаба &#x27;nope&#x27; нет (сначала добавьте его)")
    ]


def test_only_staff_who_may_add_and_change_values_may_import(client, slabs) -> None:
    viewer = User.objects.create_user("v", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_slabvalue"))
    client.force_login(viewer)
    assert client.get(URL).status_code == 403
    changelist = client.get(reverse("admin:arena_slabvalue_changelist")).content.decode()
    assert "Import a values file" not in changelist
    assert upload(client, f"asset_id,date,value\ncc-7,{match_day()},1\n").status_code == 403


def test_the_lists_show_values_as_money_and_link_the_import(admin_client, slabs) -> None:
    page = admin_client.get(reverse("admin:arena_slabvalue_changelist")).content.decode()
    assert "$2,500" in page and "$12.40" in page and "2500.00" not in page
    assert f'href="{URL}"' in page
    slabs_page = admin_client.get(reverse("admin:arena_slab_changelist")).content.decode()
    assert "$62.60" in slabs_page and "62.60<" not in slabs_page.replace("$62.60", "")
    form = admin_client.get(URL)
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.content.decode()
