"""The arena's JSON API: ``/api/slabs`` (a page of slabs on a day, with the explorer's
filters) and ``/api/slabs/<asset id>?date=YYYY-MM-DD`` (a slab's stats, its stat book's
trace codes, its dated values).

Money is a decimal string (``"12.40"``), never a JSON number with a fraction. Responses
and errors are ``core.api``'s: ``{"object": "error", "code", "status", "details"}``,
``details`` being a sentence in the language of the request's Accept-Language, and
``params`` (on some errors) the specifics as data.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from core.api import absolute, api_view, error_response, json_response
from core.forms import AsciiIntegerField
from engine.arena.slabs import SlabStats

from . import selectors, specs
from .forms import SlabFilterForm
from .models import ASSET_ID_MAX

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200

__all__ = ["slab_detail", "slab_list"]


class ApiQueryForm(SlabFilterForm):
    page_size = AsciiIntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE)


def _form_error(form: Any) -> HttpResponse:
    fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
    name = next(iter(fields))
    return error_response(
        400,
        "invalid_parameter",
        _("“%(name)s”: %(problem)s") % {"name": name, "problem": fields[name][0]},
        fields=fields,
    )


def _stats_json(stats: SlabStats | None) -> dict[str, Any]:
    if stats is None:
        return {"hp": None, "tier": None, "attack": None, "armor": None, "power": None,
                "ko_points": None}  # fmt: skip
    return {
        "hp": stats.hp,
        "tier": str(stats.tier),
        "attack": stats.attack,
        "armor": stats.armor,
        "power": {"bonus": stats.power.bonus, "cost": stats.power.cost} if stats.power else None,
        "ko_points": stats.ko_points,
    }


def _slab_json(request: HttpRequest, d: selectors.SlabDay, fits: Any) -> dict[str, Any]:
    url = reverse("api_arena:slab", kwargs={"asset_id": d.asset_id})
    return {
        "object": "slab",
        "asset_id": d.asset_id,
        "name": d.row.name,
        "grade": str(d.row.grade.normalize()) if d.row.grade % 1 else str(int(d.row.grade)),
        "year": d.row.year,
        "element": str(d.element),
        "date": d.day.isoformat(),
        "value": str(d.value) if d.value is not None else None,
        "value_date": d.value_date.isoformat() if d.value_date else None,
        **_stats_json(d.stats),
        "brackets": [str(b) for b in (fits[0] if fits else ())],
        "url": absolute(request, url),
        "page_url": absolute(
            request, reverse("arena:slab-detail", kwargs={"asset_id": d.asset_id})
        ),
        "picture_url": absolute(
            request, reverse("arena:slab-picture", kwargs={"asset_id": d.asset_id})
        ),
    }


@api_view(key="slab-search")
def slab_list(request: HttpRequest) -> HttpResponse:
    form = ApiQueryForm(request.GET)
    if not form.is_valid():
        return _form_error(form)
    data = form.cleaned_data
    day = data["date"] or selectors.match_day()
    filters = form.filters()
    days, fits = selectors.explore(day, filters)
    size = data["page_size"] or PAGE_SIZE
    paginator = Paginator(days, size)
    number = data["page"] or 1
    if number > paginator.num_pages:
        return error_response(
            404,
            "no_page",
            _("There is no page %(page)s.") % {"page": number},
            pages=paginator.num_pages,
        )
    page = paginator.page(number)
    params = [(k, v) for k, values in request.GET.lists() if k != "page" for v in values]
    base = reverse("api_arena:slabs")

    def link(n: int) -> str:
        return absolute(request, f"{base}?{urlencode([*params, ('page', n)])}")

    return json_response(
        {
            "object": "list",
            "date": day.isoformat(),
            "count": paginator.count,
            "page": number,
            "pages": paginator.num_pages,
            "next": link(number + 1) if page.has_next() else None,
            "previous": link(number - 1) if page.has_previous() else None,
            "results": [_slab_json(request, d, fits.get(d.asset_id)) for d in page.object_list],
        }
    )


@api_view(key="slab")
def slab_detail(request: HttpRequest, asset_id: str) -> HttpResponse:
    form = ApiQueryForm(request.GET)
    if not form.is_valid() and "date" in form.errors:
        return _form_error(form)
    day = form.cleaned_data.get("date") or selectors.match_day()
    found = selectors.slab_day(asset_id, day) if len(asset_id) <= ASSET_ID_MAX else None
    if found is None:
        return error_response(
            404,
            "not_found",
            _("There is no slab with the asset ID %(id)s.") % {"id": asset_id[:ASSET_ID_MAX]},
            asset_id=asset_id[:ASSET_ID_MAX],
        )
    values = selectors.history(found.row)
    history = [{"date": d.isoformat(), "value": str(v)} for d, v in values]
    if found.stats is None:
        return error_response(
            404,
            "no_value",
            _("Slab %(id)s has no value on or before %(day)s.")
            % {"id": found.asset_id, "day": day.isoformat()},
            asset_id=found.asset_id,
            date=day.isoformat(),
            first_value_date=values[0][0].isoformat() if values else None,
        )
    book = specs.book_of(found.row, found.value)  # type: ignore[arg-type]
    fits = selectors.fits_on(day).get(found.asset_id)
    data = _slab_json(request, found, fits)
    data["trace"] = [
        {"code": s.code, "params": _plain(s.params), "value": _plain(s.value)} for s in book.trace
    ]
    data["values"] = history
    return json_response(data)


def _plain(value: Any) -> Any:
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
