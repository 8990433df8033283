"""Import and export: all-or-nothing, every problem reported at once, idempotent, round trip."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cards.models import Attribute, Card, Combo
from cards.services import clear_collection
from cards.specs import DERIVED_FIELDS
from cards.transfer import ImportFailed, export_collection, import_collection

from .test_recompute import assert_fresh

pytestmark = pytest.mark.django_db


def export_text() -> str:
    out = StringIO()
    export_collection(out)
    return out.getvalue()


def snapshot() -> tuple[str, list]:
    """Everything an import could change: the export plus the stored derived fields."""
    return export_text(), list(Card.objects.order_by("token").values_list("token", *DERIVED_FIELDS))


@pytest.fixture
def collection(db):
    call_command("generate_collection", size=60, seed=11, stdout=StringIO())
    return json.loads(export_text())


def test_export_is_the_engine_schema_wrapped(collection):
    assert set(collection) == {"attributes", "cards", "combos"}
    card = collection["cards"][0]
    assert set(card) == {
        "token",
        "name",
        "starter",
        "equipped",
        "wardrobe",
        "getgems_rank",
        "burned_stickers",
    }
    assert set(card["equipped"]) == {"head", "body", "paw", "background"}
    assert set(collection["attributes"][0]) == {"slot", "name", "supply", "kind"}
    combo = collection["combos"][0]
    assert set(combo["name"]) == {"en", "ru"} and combo["name"]["ru"]
    out = StringIO()
    call_command("export_collection", stdout=out)
    assert json.loads(out.getvalue()) == collection


def test_round_trip_through_an_empty_database(collection):
    before = snapshot()
    text = before[0]
    clear_collection()
    assert not Card.objects.exists() and not Attribute.objects.exists()
    result = import_collection(text)
    assert result.cards == {"created": 60, "updated": 0, "unchanged": 0}
    assert result.combos["created"] == len(collection["combos"])
    assert snapshot() == before
    assert_fresh()


def test_importing_twice_changes_nothing(collection, django_assert_max_num_queries):
    text = export_text()
    before = snapshot()
    result = import_collection(text)
    assert not result.changed and result.recomputed == 0
    assert result.cards == {"created": 0, "updated": 0, "unchanged": 60}
    assert result.attributes["unchanged"] == len(collection["attributes"])
    with django_assert_max_num_queries(12):  # reads only: nothing to write
        import_collection(text)
    assert snapshot() == before


def test_import_updates_what_differs_and_rederives(collection):
    data = copy.deepcopy(collection)
    plain = next(c for c in data["cards"] if not c["starter"] and c["burned_stickers"] == 0)
    plain["burned_stickers"] = 6
    data["cards"].append(
        {**copy.deepcopy(plain), "token": 500, "name": "Newcomer #500", "getgems_rank": None}
    )
    out = StringIO()
    call_command("import_collection", _file(data), stdout=out)
    assert "Cards: 1 created, 1 updated, 59 unchanged." in out.getvalue()
    assert Card.objects.get(token=plain["token"]).rarity == "legendary"
    assert Card.objects.get(token=500).rarity == "legendary"
    assert_fresh()


def test_attribute_changes_need_the_flag_and_reach_every_owner(collection):
    data = copy.deepcopy(collection)
    entry = next(a for a in data["attributes"] if a["supply"] > 30)
    entry["supply"] = 1
    for card in data["cards"]:  # the cards that mention it must agree with the catalogue
        for slot, attr in card["equipped"].items():
            if (slot, attr["name"]) == (entry["slot"], entry["name"]):
                attr["supply"] = 1
        for attr in card["wardrobe"]:
            if (attr["slot"], attr["name"]) == (entry["slot"], entry["name"]):
                attr["supply"] = 1
    text = json.dumps(data)
    before = snapshot()
    with pytest.raises(ImportFailed) as failure:
        import_collection(text)
    assert any("--update-attributes" in p.message for p in failure.value.problems)
    assert snapshot() == before
    result = import_collection(text, update_attributes=True)
    assert result.attributes["updated"] == 1
    assert Attribute.objects.get(slot=entry["slot"], name=entry["name"]).supply == 1
    assert_fresh()


def _file(data, tmp_path=None) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        # \u escapes, so a lone surrogate is written as JSON would carry it.
        handle.write(data if isinstance(data, str) else json.dumps(data))
    return handle.name


HUGE = "1" + "0" * 5000  # 10^5000: more digits than Python reads as an integer (4,300)


def _break(collection, kind, i=3):
    """The collection with one kind of problem (in card ``i`` for card problems);
    returns (file data, the expected (where, field))."""
    data = copy.deepcopy(collection)
    cards, attrs, combos = data["cards"], data["attributes"], data["combos"]
    token = cards[i]["token"]
    where = f"cards[{i}] (token {token})"
    match kind:
        case "supply":
            cards[i]["equipped"]["paw"]["supply"] = 0
            return data, (where, "equipped.paw.supply")
        case "missing_slot":
            del cards[i]["equipped"]["head"]
            return data, (where, "equipped.head")
        case "unknown_slot":
            cards[i]["wardrobe"] = [{"slot": "tail", "name": "Fluff", "supply": 3}]
            return data, (where, "wardrobe[0].slot")
        case "unknown_kind":
            cards[i]["equipped"]["body"]["kind"] = "mythic"
            return data, (where, "equipped.body.kind")
        case "wrong_type":
            cards[i]["burned_stickers"] = "three"
            return data, (where, "burned_stickers")
        case "duplicate_token":
            cards[i + 1]["token"] = token
            return data, (f"cards[{i + 1}] (token {token})", "token")
        case "card_combos":
            cards[i]["combos"] = []
            return data, (where, "combos")
        case "inconsistent_attribute":
            cards[i]["equipped"]["background"]["supply"] += 1
            return data, (where, "equipped.background")
        case "catalogue_entry":
            attrs[2]["supply"] = -4
            return data, ("attributes[2]", "supply")
        case "combo_attribute":
            combos[0]["attributes"].append(["background", "Nowhere Land"])
            return data, (f"combos[0] ({combos[0]['name']['en']})", "attributes[2]")
        case "combo_rarity":
            combos[1]["rarity"] = "free"
            return data, (f"combos[1] ({combos[1]['name']['en']})", "rarity")
        case "unknown_top_level":
            data["decks"] = []
            return data, ("file", "decks")
        case "not_json":
            return '{"cards": [', ("file", "")
        # What no database column can hold (issue 12 item 8): each located, on both backends.
        case "supply_2_63":
            cards[i]["equipped"]["paw"]["supply"] = 2**63  # OverflowError on SQLite
            return data, (where, "equipped.paw.supply")
        case "token_2_63":
            cards[i]["token"] = 2**63
            return data, (f"cards[{i}] (token {2**63})", "token")
        case "rank_2_31":
            cards[i]["getgems_rank"] = 2**31  # fits SQLite, DataError on PostgreSQL
            return data, (where, "getgems_rank")
        case "burned_2_31":
            cards[i]["burned_stickers"] = 2**31
            return data, (where, "burned_stickers")
        case "catalogue_supply_2_63":
            attrs[2]["supply"] = 2**63
            return data, ("attributes[2]", "supply")
        case "surrogate_name":
            cards[i]["name"] = "Pup \ud800"  # UnicodeEncodeError when stored
            return data, (where, "name")
        case "surrogate_attribute":
            cards[i]["equipped"]["head"]["name"] += "\udfff"
            return data, (where, "equipped.head.name")
        case "surrogate_key":
            cards[i]["\ud83d"] = 1
            return data, (where, "")
        case "nul_name":
            cards[i]["name"] = "Pup\x00 #1"  # PostgreSQL refuses NUL in text
            return data, (where, "name")
        case "nul_combo_name":
            combos[1]["name"]["ru"] = "Набор\x00"
            return data, ("combos[1]", "name.ru")
        case "long_name":
            cards[i]["name"] = "P" * 101  # accepted by SQLite, DataError on PostgreSQL
            return data, (where, "name")
        case "long_wardrobe_name":
            cards[i]["wardrobe"].append({"slot": "paw", "name": "W" * 101, "supply": 5})
            return data, (where, f"wardrobe[{len(cards[i]['wardrobe']) - 1}].name")
        case "long_catalogue_name":
            attrs[2]["name"] = "A" * 101
            return data, ("attributes[2]", "name")
        case "long_combo_name":
            combos[0]["name"]["en"] = "C" * 101
            return data, ("combos[0]", "name.en")
    raise AssertionError(kind)


def _as_text(data, kind: str) -> str:
    """The file's text; numbers too long for json.dumps are spliced in as text."""
    text = data if isinstance(data, str) else json.dumps(data)
    return text.replace(str(LONG_MARK), HUGE)  # -LONG_MARK becomes -HUGE


LONG_MARK = 987654321987654321987  # stands for HUGE until the text is written


def _break_long(collection, kind: str, i: int = 3):
    """Numbers of more than 4,300 digits (a ValueError the JSON reader does not expect)."""
    data = copy.deepcopy(collection)
    cards = data["cards"]
    where = f"cards[{i}] (token {cards[i]['token']})"
    match kind:
        case "long_number_supply":
            cards[i]["equipped"]["paw"]["supply"] = LONG_MARK
            return _as_text(data, kind), (where, "equipped.paw.supply")
        case "long_negative_burned":
            cards[i]["burned_stickers"] = -LONG_MARK
            return _as_text(data, kind), (where, "burned_stickers")
        case "long_number_token":
            cards[i]["token"] = LONG_MARK
            return _as_text(data, kind), (f"cards[{i}]", "token")
        case "long_number_catalogue":
            data["attributes"][2]["supply"] = LONG_MARK
            return _as_text(data, kind), ("attributes[2]", "supply")
    raise AssertionError(kind)


KINDS = [
    "supply",
    "missing_slot",
    "unknown_slot",
    "unknown_kind",
    "wrong_type",
    "duplicate_token",
    "card_combos",
    "inconsistent_attribute",
    "catalogue_entry",
    "combo_attribute",
    "combo_rarity",
    "unknown_top_level",
    "supply_2_63",
    "token_2_63",
    "rank_2_31",
    "burned_2_31",
    "catalogue_supply_2_63",
    "surrogate_name",
    "surrogate_attribute",
    "surrogate_key",
    "nul_name",
    "nul_combo_name",
    "long_name",
    "long_wardrobe_name",
    "long_catalogue_name",
    "long_combo_name",
    "not_json",
]
# Those that break different entries (a card each, one catalogue entry, two combos).
SHARED_KINDS = [
    kind
    for kind in KINDS
    if kind not in {"not_json", "catalogue_supply_2_63", "long_catalogue_name"}
    and kind not in {"nul_combo_name", "long_combo_name"}
]
LONG_KINDS = [
    "long_number_supply",
    "long_negative_burned",
    "long_number_token",
    "long_number_catalogue",
]


@pytest.mark.parametrize("kind", KINDS + LONG_KINDS)
def test_each_kind_of_error_leaves_the_database_as_it_was(collection, kind):
    breaker = _break_long if kind in LONG_KINDS else _break
    data, (where, field) = breaker(collection, kind)
    before = snapshot()
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was imported") as refused:
        call_command("import_collection", _file(data), stdout=StringIO(), stderr=err)
    assert refused.value.returncode == 2  # bad input, as the engine's command line says it
    assert snapshot() == before
    with pytest.raises(ImportFailed) as failure:
        import_collection(data if isinstance(data, str) else json.dumps(data))
    found = [(p.where, p.field) for p in failure.value.problems]
    assert (where, field) in found, found
    assert where in err.getvalue()
    err.getvalue().encode("utf-8")  # printable: no lone surrogate reaches the terminal
    assert snapshot() == before


def test_the_largest_storable_values_are_imported(collection):
    """MAX_INTEGER and names of exactly the column's length fit on every backend."""
    from cards.transfer import MAX_INTEGER

    data = copy.deepcopy(collection)
    card = next(c for c in data["cards"] if not c["starter"])
    card.update(token=MAX_INTEGER, getgems_rank=MAX_INTEGER, burned_stickers=MAX_INTEGER)
    card["name"] = "N" * 100
    card["wardrobe"].append({"slot": "head", "name": "H" * 100, "supply": MAX_INTEGER})
    data["combos"][0]["name"]["ru"] = "я" * 100
    result = import_collection(json.dumps(data))
    assert result.cards["created"] == 1 or result.cards["updated"] == 1
    stored = Card.objects.get(token=MAX_INTEGER)
    assert (stored.name, stored.getgems_rank, stored.burned_stickers) == (
        "N" * 100,
        MAX_INTEGER,
        MAX_INTEGER,
    )
    assert Attribute.objects.get(slot="head", name="H" * 100).supply == MAX_INTEGER
    assert_fresh()


def test_every_problem_is_reported_in_one_run(collection):
    data = copy.deepcopy(collection)
    expected = []
    for n, kind in enumerate(SHARED_KINDS):  # every kind that can share one file, a card each
        data, place = _break(data, kind, i=2 + 2 * n)
        expected.append(place)
    before = snapshot()
    with pytest.raises(ImportFailed) as failure:
        import_collection(json.dumps(data))
    found = [(p.where, p.field) for p in failure.value.problems]
    assert sorted(found) == sorted(expected)
    assert snapshot() == before


def test_problems_are_translated(collection):
    from django.utils import translation

    data, _place = _break(collection, "supply")
    with translation.override("ru"), pytest.raises(ImportFailed) as failure:
        import_collection(json.dumps(data))
    assert failure.value.problems[0].message == "должно быть целым числом ≥ 1"


def test_a_database_error_rolls_everything_back(collection, monkeypatch):
    from cards.transfer import writing

    data = copy.deepcopy(collection)
    data["cards"][0]["name"] = "Renamed"
    data["attributes"].append(
        {"slot": "paw", "name": "Brand New Paw", "supply": 9, "kind": "normal"}
    )
    before = snapshot()

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    # The new cards are written last, after the new attribute and the renamed card.
    monkeypatch.setattr(writing, "_write_new_cards", fail)
    with pytest.raises(RuntimeError):
        import_collection(json.dumps(data))
    assert snapshot() == before
    assert not Combo.objects.filter(name_en="Brand New Paw").exists()
    assert not Attribute.objects.filter(name="Brand New Paw").exists()


# --- the command itself, as a person runs it -------------------------------------------------

CARD = {
    "token": 1,
    "name": "Pup #1",
    "equipped": {
        slot: {"name": f"Plain {slot}", "supply": 900}
        for slot in ("head", "body", "paw", "background")
    },
}


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory):
    """A migrated SQLite file for ``manage.py`` subprocesses (the test database is in memory)."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    path = tmp_path_factory.mktemp("import-cli") / "cli.sqlite3"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"sqlite:///{path}",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return env


@pytest.mark.parametrize(
    ("text", "located"),
    [
        (json.dumps({"cards": [{**CARD, "name": "Pup \ud800"}]}), "cards[0] (token 1) · name: "),
        (
            json.dumps({"cards": [CARD]}).replace('"supply": 900}}', f'"supply": {HUGE}}}}}'),
            "cards[0] (token 1) · equipped.background.supply: must be an integer ≤ 2147483647",
        ),
        (
            json.dumps({"cards": [{**CARD, "token": 2**63}]}),
            f"cards[0] (token {2**63}) · token: must be an integer ≤ 2147483647",
        ),
        (json.dumps({"cards": [{**CARD, "name": "a\x00b"}]}), "· name: must not contain a NUL"),
        (json.dumps({"cards": [{**CARD, "\udc00": 1}]}), "cards[0] (token 1): must be valid"),
    ],
    ids=["surrogate", "10^5000", "2^63", "nul", "surrogate-key"],
)
def test_the_command_exits_2_with_a_located_line_never_a_traceback(migrated_sqlite, text, located):
    import subprocess
    import sys

    from django.conf import settings

    done = subprocess.run(
        [sys.executable, "manage.py", "import_collection", "-"],
        cwd=settings.BASE_DIR,
        env=migrated_sqlite,
        input=text.encode(),
        capture_output=True,
    )
    stderr = done.stderr.decode("utf-8")  # strict: every byte printed is UTF-8
    assert done.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert located in stderr
    assert "nothing was imported" in stderr


# --- item 9: derive first, then one short write transaction ----------------------------------


def test_no_card_is_derived_while_the_write_transaction_is_open(collection, monkeypatch):
    from cards.transfer import planning
    from cards.transfer import writing as write_step

    data = copy.deepcopy(collection)
    for card in data["cards"]:
        card["burned_stickers"] += 1
    writing = []
    derived_while_writing = []
    real_derive, real_run = planning.derive, write_step._run

    def derive(spec):
        derived_while_writing.append(bool(writing))
        return real_derive(spec)

    def run(statement):
        writing.append(statement)
        return real_run(statement)

    monkeypatch.setattr(planning, "derive", derive)
    monkeypatch.setattr(write_step, "_run", run)
    result = import_collection(json.dumps(data))
    assert result.cards["updated"] == 60 and writing
    assert derived_while_writing and not any(derived_while_writing)
    assert result.write_seconds > 0
    assert_fresh()


def test_a_change_while_the_import_is_prepared_makes_it_prepare_again(collection, monkeypatch):
    from cards.services import collection_changed
    from cards.transfer import writing

    data = copy.deepcopy(collection)
    data["cards"][0]["name"] = "Renamed"
    plans = []
    real_plan = writing._plan

    def plan(*args):
        made = real_plan(*args)
        plans.append(made)
        if len(plans) == 1:
            collection_changed()  # someone else writes between the plan and the write
        return made

    monkeypatch.setattr(writing, "_plan", plan)
    result = import_collection(json.dumps(data))
    assert len(plans) == 2 and result.cards["updated"] == 1
    assert Card.objects.get(token=data["cards"][0]["token"]).name == "Renamed"


def test_a_collection_that_keeps_changing_is_refused_unwritten(collection, monkeypatch):
    from cards.services import collection_changed
    from cards.transfer import writing

    data = copy.deepcopy(collection)
    data["cards"][0]["name"] = "Renamed"
    before = snapshot()
    real_plan = writing._plan

    def plan(*args):
        made = real_plan(*args)
        collection_changed()
        return made

    monkeypatch.setattr(writing, "_plan", plan)
    with pytest.raises(writing.ImportBusy):
        import_collection(json.dumps(data))
    assert snapshot() == before
    with pytest.raises(CommandError, match="Try again") as refused:
        call_command("import_collection", _file(data), stdout=StringIO(), stderr=StringIO())
    assert refused.value.returncode == 1
