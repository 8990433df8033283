"""packs 0003 moves the candidate lists stored in every opening into shared rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("packs", "0002_request_key_per_session")]
AFTER = [("packs", "0003_candidate_lists_stored_once")]


def test_existing_openings_keep_their_lists_stored_once() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Opening = old.get_model("packs", "Opening")
    common = {"pool_slug": "p", "session_key": "s", "seed": 1, "pack_size": 1, "picks": [1]}
    Opening.objects.create(request_key="a", candidates=[[1, "common"]], **common)
    Opening.objects.create(request_key="b", candidates=[[1, "common"]], **common)
    Opening.objects.create(request_key="c", candidates=[[2, "rare"]], **common)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    CandidateList = new.get_model("packs", "CandidateList")
    Opening = new.get_model("packs", "Opening")
    assert CandidateList.objects.count() == 2
    lists = dict(Opening.objects.values_list("request_key", "candidate_list__candidates"))
    assert lists == {"a": [[1, "common"]], "b": [[1, "common"]], "c": [[2, "rare"]]}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
