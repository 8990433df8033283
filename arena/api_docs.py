"""The arena API described for ``/api/`` and ``/<lang>/api/`` (``core.api`` registry)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.api import LIST_OBJECT, PAGE_PARAM, Endpoint, Field, Param, page_fields, register

DATE = Param("date", _("The day, YYYY-MM-DD (UTC); today by default."), "2026-11-30")

_SLAB_FIELDS: tuple[Field, ...] = (
    Field("object", _("Always “slab”.")),
    Field("asset_id", _("The slab's asset ID.")),
    Field("name", _("The card in the slab.")),
    Field("grade", _("The grade, as a string (“9”, “9.5”).")),
    Field("year", _("The card's year.")),
    Field("element", _("sun, moon or star.")),
    Field("date", _("The day asked for.")),
    Field("value", _("The value in dollars, a decimal string, or null with no value yet.")),
    Field("value_date", _("The day that value was recorded (on or before date).")),
    Field("hp", _("HP from the value.")),
    Field("tier", _("common, uncommon, rare or epic (from the value).")),
    Field("attack", _("Attack from the grade.")),
    Field("armor", _("Armor from the year.")),
    Field("power", _("The tier's power move: its bonus and its cost, or null.")),
    Field("ko_points", _("Points the opponent scores for knocking it out.")),
    Field("brackets", _("The brackets it may play in that day.")),
    Field("url", _("This slab's JSON (the endpoint below).")),
    Field("page_url", _("The slab's page on this site.")),
    Field("picture_url", _("The slab's picture (SVG).")),
)

ENDPOINTS: tuple[Endpoint, ...] = register(
    "arena",
    Endpoint(
        key="slab-search",
        path="/api/slabs",
        summary=_(
            "The slabs on a day, filtered and sorted as in the slab explorer, a page at a time."
        ),
        example="/api/slabs?tier=rare&tier=epic&sort=grade_desc&page_size=2",
        example_response=(
            '{"object": "list", "date": "2026-12-01", "count": 83, "page": 1, "pages": 42, '
            '"next": "https://…/api/slabs?…&page=2", "previous": null, "results": '
            '[{"object": "slab", "asset_id": "cc-43168b5f", "value": "8972.13", "tier": '
            '"epic", "hp": 140, …}, …]}'
        ),
        params=(
            Param("q", _("Part of the card's name, or an asset ID."), "heron"),
            Param("tier", _("A tier; repeat it for several."), "epic"),
            Param("element", _("An element; repeat it for several."), "sun"),
            Param("grade_min", _("Lowest grade."), "9"),
            Param("grade_max", _("Highest grade."), "10"),
            Param("year_min", _("Earliest year."), "2000"),
            Param("year_max", _("Latest year."), "2010"),
            Param("value_min", _("Lowest value in dollars."), "25"),
            Param("value_max", _("Highest value in dollars."), "100.50"),
            Param("bracket", _("Only slabs allowed in this bracket."), "pro"),
            Param(
                "sort",
                _("value_desc (the default), value_asc, name, grade_desc or year_asc."),
                "name",
            ),
            PAGE_PARAM,
            Param(
                "page_size",
                _("Slabs per page, 1 to 200 (50 by default)."),
                "100",
            ),
            DATE,
        ),
        fields=(
            LIST_OBJECT,
            Field("date", _("The day the values are from.")),
            *page_fields(
                _("How many slabs match."),
                _("The slabs of this page, each a slab object:"),
                _SLAB_FIELDS,
            ),
        ),
        errors=((400, "invalid_parameter"), (404, "no_page"), (405, "method_not_allowed")),
    ),
    Endpoint(
        key="slab",
        path="/api/slabs/<asset id>",
        summary=_(
            "One slab on a day: its stats, every step of its stat book (code, params, "
            "value) and every value it has had."
        ),
        example="/api/slabs/cc-01dc7cd4",
        example_response=(
            '{"object": "slab", "asset_id": "cc-01dc7cd4", "value": "11.47", "hp": 60, '
            '"tier": "common", …, "trace": [{"code": "slab.hp", "params": {"value": "11.47", '
            '"next_at": "50", …}, "value": 60}, …], "values": [{"date": "2026-11-01", '
            '"value": "10.90"}, …]}'
        ),
        params=(DATE,),
        fields=(
            *_SLAB_FIELDS,
            Field("trace", _("The stat book, step by step: code, params, value.")),
            Field("values", _("Every recorded value: date, value.")),
        ),
        errors=((400, "invalid_parameter"), (404, "not_found"), (404, "no_value")),
    ),
)
