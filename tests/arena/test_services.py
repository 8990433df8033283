"""arena.services and arena.selectors: the day's value, brackets a slab can fit, the
session's team, matches on the server's clock (late moves, timeouts, forfeits), stale
and double submits, surrender and rematch, the balance report."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from arena import selectors, services, specs
from arena.models import ArenaBalanceReport, ArenaMatch, MatchStatus
from engine.arena.match import A, B
from engine.arena.slabs import TURN_SECONDS, Bracket, InvalidTeamError, SlabTier, team_value
from engine.errors import IllegalArenaActionError

pytestmark = pytest.mark.django_db


class Session(dict):
    """Enough of a session for the team services."""

    session_key = None

    def save(self) -> None:
        self.session_key = f"test-{id(self)}"


def test_the_value_of_a_day_is_the_latest_on_or_before_it(slabs) -> None:
    today = selectors.match_day()
    day = selectors.slab_day("a", today)
    assert day.value == Decimal("62.60") and day.value_date == today
    two_ago = selectors.slab_day("a", today - dt.timedelta(days=2))
    assert two_ago.value == Decimal("75.00") and two_ago.stats.tier is SlabTier.RARE
    one_ago = selectors.slab_day("a", today - dt.timedelta(days=1))
    assert one_ago.stats.tier is SlabTier.UNCOMMON  # $74.99: a cent below the edge
    # A gap: cc-1 has values today and 9 days ago only.
    gap = selectors.slab_day("cc-1", today - dt.timedelta(days=4))
    assert gap.value == Decimal("95.00") and gap.value_date == today - dt.timedelta(days=9)
    # Before the first value: no value, no stats.
    early = selectors.slab_day("late", today - dt.timedelta(days=3))
    assert early.value is None and early.stats is None
    assert selectors.slab_day("nope", today) is None


def test_values_come_back_as_exact_cents(slabs) -> None:
    days = selectors.slabs_on(selectors.match_day())
    for d in days:
        assert d.value == d.value.quantize(Decimal("0.01")) and d.value.as_tuple().exponent == -2


def test_brackets_a_slab_can_fit(slabs) -> None:
    days = selectors.slabs_on(selectors.match_day())
    fits = selectors.bracket_fits(days)
    # The three cheapest others: 0x5f3a $2.50, late $5, cc-7 $10 → $17.50 + the slab.
    assert fits["mid"][1] == Decimal("157.50")
    assert fits["mid"][0] == (Bracket.PRO, Bracket.ELITE, Bracket.OPEN)
    assert fits["pricey"][0] == (Bracket.OPEN,)
    assert fits["cc-7"][0][0] is Bracket.ROOKIE  # 10 + 2.50 + 5 + 12.40


def test_explore_filters(slabs) -> None:
    today = selectors.match_day()
    every, _ = selectors.explore(today, selectors.SlabFilters())
    assert len(every) == len(slabs)
    assert [d.value for d in every] == sorted((d.value for d in every), reverse=True)
    rare, _ = selectors.explore(today, selectors.SlabFilters(tiers=frozenset({SlabTier.RARE})))
    assert {d.asset_id for d in rare} == {"cc-1", "mid"}
    rookie, _ = selectors.explore(today, selectors.SlabFilters(bracket=Bracket.ROOKIE))
    assert "pricey" not in {d.asset_id for d in rookie} and "cc-7" in {d.asset_id for d in rookie}
    found, _ = selectors.explore(today, selectors.SlabFilters(q="pup"))
    assert {d.asset_id for d in found} == {"cc-7", "cc-3", "cc-1"}
    ranged, _ = selectors.explore(
        today,
        selectors.SlabFilters(value_min=Decimal("10"), value_max=Decimal("30"),
                              grade_min=Decimal("7"), year_max=2019),
    )  # fmt: skip
    assert {d.asset_id for d in ranged} == {"cc-3", "cc-2"}  # cc-7 is from 2020
    earlier, _ = selectors.explore(today - dt.timedelta(days=3), selectors.SlabFilters())
    assert next(d for d in earlier if d.asset_id == "late").value is None


def test_team_edits(slabs) -> None:
    session = Session()
    for asset_id in ("cc-7", "cc-3", "cc-1", "cc-2"):
        services.edit_team(session, "add", asset_id)
    with pytest.raises(services.TeamError) as info:
        services.edit_team(session, "add", "a")
    assert info.value.code == "full"
    with pytest.raises(services.TeamError) as info:
        services.edit_team(session, "add", "cc-7")
    assert info.value.code == "already_in"
    assert services.edit_team(session, "lead", "cc-1") == ["cc-1", "cc-7", "cc-3", "cc-2"]
    assert services.edit_team(session, "remove", "cc-7") == ["cc-1", "cc-3", "cc-2"]
    with pytest.raises(services.TeamError) as info:
        services.edit_team(session, "add", "nope")
    assert info.value.code == "unknown_slab"
    assert services.edit_team(session, "clear") == []


def test_change_team_fills_uses_and_edits_and_says_what_to_tell(slabs) -> None:
    session = Session()
    day = selectors.match_day()
    done = services.change_team(session, "fill", bracket="open", day=day)
    assert done == ("team_filled", {"bracket": "open"})
    team = selectors.session_team_ids(session)
    assert len(team) == 4 and len(set(team)) == 4
    assert services.change_team(session, "use", slabs=["cc-1", "cc-2"]) == ("team_used", {})
    assert selectors.session_team_ids(session) == ["cc-1", "cc-2"]
    assert services.change_team(session, "add", " cc-3 ") is None
    assert selectors.session_team_ids(session) == ["cc-1", "cc-2", "cc-3"]


def test_fill_team_without_a_fitting_team_is_refused_and_changes_nothing(slabs) -> None:
    session = Session()
    services.set_team(session, ["cc-1"])
    long_ago = selectors.match_day() - dt.timedelta(days=3650)  # no slab had a value then
    with pytest.raises(services.TeamError) as info:
        services.fill_team(session, Bracket.OPEN, long_ago)
    assert info.value.code == "no_team"
    assert selectors.session_team_ids(session) == ["cc-1"]


def test_team_edits_sent_at_once_all_count(slabs) -> None:
    """Issue 26: two requests of one session load it, each adds a slab, each saves. With
    the team in the session the later save dropped the other's addition."""
    from django.contrib.sessions.backends.db import SessionStore

    first = SessionStore()
    first.create()
    key = first.session_key
    ids = ["cc-7", "cc-3", "cc-1", "cc-2"]
    requests = [SessionStore(key) for _ in ids]
    for store in requests:
        store.load()  # every request read the session before any edit
    for store, asset_id in zip(requests, ids, strict=True):
        services.edit_team(store, "add", asset_id)
    for store in requests:
        store.save()  # what the session middleware does at the end of each
    assert selectors.session_team_ids(SessionStore(key)) == ids


def test_draw_team_fits_the_cap_and_the_rules(slabs) -> None:
    pool = [d.stats for d in selectors.slabs_on(selectors.match_day()) if d.stats]
    for seed in range(30):
        team = services.draw_team(pool, Decimal(150), random.Random(seed), target=Decimal(60))
        assert team is not None and len({m.asset_id for m in team}) == 4
        assert team_value(team) <= 150
        assert sum(m.tier in (SlabTier.RARE, SlabTier.EPIC) for m in team) <= 2
    assert services.draw_team(pool, Decimal(5), random.Random(0)) is None


NOW = timezone.now()


def start(rookie_team, *, seed: int = 1, now=NOW) -> ArenaMatch:
    return services.start_match("sess", rookie_team, Bracket.ROOKIE, seed=seed, now=now)


def _cheap_slabs(n: int = 4) -> None:
    from arena.models import Slab, SlabValue

    for i in range(n):
        slab = Slab.objects.create(
            asset_id=f"cheap-{i}", name=f"Cheap {i}", grade=Decimal(8), year=2011
        )
        SlabValue.objects.create(slab=slab, date=selectors.match_day(), value=Decimal(8 + i))


def test_start_match_draws_a_bot_team_for_the_bracket(slabs, rookie_team) -> None:
    _cheap_slabs()
    match = start(rookie_team)
    bot = specs.team_from_json(match.team_b)
    player = specs.team_from_json(match.team_a)
    assert [m.asset_id for m in player] == rookie_team
    assert team_value(bot) <= 150 and not {m.asset_id for m in bot} & set(rookie_team)
    assert match.match_day == selectors.match_day(NOW)
    loaded = services.load(match)
    assert loaded.state.to_move == A  # the bot's turn, if it moved first, is played
    assert loaded.deadline == match.turn_started_at + dt.timedelta(seconds=TURN_SECONDS)


def test_with_too_few_slabs_the_bot_may_copy_the_players(slabs, rookie_team) -> None:
    match = start(rookie_team)  # only the player's slabs fit the rookie cap
    assert team_value(specs.team_from_json(match.team_b)) <= 150


def test_start_match_refuses_a_team_that_breaks_a_rule(slabs, rookie_team) -> None:
    with pytest.raises(InvalidTeamError) as info:
        services.start_match("s", ["cc-7", "cc-3", "cc-2"], Bracket.OPEN, seed=1)
    assert info.value.code == "size"
    with pytest.raises(InvalidTeamError) as info:
        services.start_match("s", ["cc-1", "CC-1", "mid", "cc-7"], Bracket.OPEN, seed=1)
    assert info.value.code == "too_many_limited"
    with pytest.raises(InvalidTeamError) as info:
        services.start_match("s", ["pricey", "cc-7", "cc-2", "cc-3"], Bracket.ROOKIE, seed=1)
    assert info.value.code == "bracket"
    with pytest.raises(services.TeamError) as info:
        services.start_match("s", ["nope", "cc-7", "cc-2", "cc-3"], Bracket.OPEN, seed=1)
    assert info.value.code == "unknown_slab"


def test_a_slab_without_a_value_today_cannot_play(slabs, rookie_team) -> None:
    from arena.models import Slab

    Slab.objects.create(asset_id="fresh", name="Fresh", grade=Decimal(9), year=2020)
    with pytest.raises(services.TeamError) as info:
        services.start_match("s", ["fresh", "cc-7", "cc-2", "cc-3"], Bracket.OPEN, seed=1)
    assert info.value.code == "no_value"


def _seed_where(first: int, rookie_team) -> int:
    from engine.arena.match import first_player

    return next(s for s in range(100) if first_player(s) == first)


def test_play_a_move_and_the_bot_answers(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(B, rookie_team))
    loaded = services.load(match)
    assert len(match.actions) == 1  # the bot's turn 1: a pass (no energy)
    later = NOW + dt.timedelta(seconds=5)
    loaded = services.play_move(
        match.public_id, "sess", loaded.state.actions, "attack:basic", now=later
    )
    state = loaded.state
    assert state.to_move == A and state.turn == 4  # the bot has played turn 3
    match.refresh_from_db()
    assert match.turn_started_at == later and match.turn == 4


def test_a_stale_or_double_submit_is_applied_once(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(B, rookie_team))
    turn = services.load(match).state.actions
    services.play_move(match.public_id, "sess", turn, "pass", now=NOW)
    stored = ArenaMatch.objects.get(pk=match.pk).actions
    with pytest.raises(services.StaleMoveError):
        services.play_move(match.public_id, "sess", turn, "pass", now=NOW)
    assert ArenaMatch.objects.get(pk=match.pk).actions == stored


def test_an_illegal_move_changes_nothing(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(A, rookie_team))  # turn 1: no energy
    before = ArenaMatch.objects.get(pk=match.pk).actions
    with pytest.raises(IllegalArenaActionError) as info:
        services.play_move(match.public_id, "sess", 0, "attack:basic", now=NOW)
    assert info.value.code == "not_enough_energy"
    assert ArenaMatch.objects.get(pk=match.pk).actions == before


def test_another_session_cannot_touch_the_match(slabs, rookie_team) -> None:
    match = start(rookie_team)
    with pytest.raises(ArenaMatch.DoesNotExist):
        services.play_move(match.public_id, "other", 0, "pass", now=NOW)
    with pytest.raises(ArenaMatch.DoesNotExist):
        services.catch_up(match.public_id, "other", now=NOW)


def test_a_late_move_is_refused_and_counts_as_a_timeout(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(A, rookie_team))
    late = NOW + dt.timedelta(seconds=TURN_SECONDS + 1)
    with pytest.raises(services.LateMoveError):
        services.play_move(match.public_id, "sess", 0, "pass", now=late)
    loaded = services.load(ArenaMatch.objects.get(pk=match.pk))
    assert loaded.state.sides[A].timeouts == 1 and loaded.state.to_move == A
    assert loaded.state.sides[B].timeouts == 0  # the bot never times out
    # The next turn started when the first one ran out.
    assert loaded.match.turn_started_at == NOW + dt.timedelta(seconds=TURN_SECONDS)
    # In time for that turn, a move is played.
    services.play_move(match.public_id, "sess", loaded.state.actions, "pass",
                       now=late + dt.timedelta(seconds=2))  # fmt: skip


def test_on_time_is_on_time(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(A, rookie_team))
    just = NOW + dt.timedelta(seconds=TURN_SECONDS)
    loaded = services.play_move(match.public_id, "sess", 0, "pass", now=just)
    assert loaded.state.sides[A].timeouts == 0


def test_walking_away_forfeits_after_three_turns(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(A, rookie_team))
    loaded = services.catch_up(
        match.public_id, "sess", now=NOW + dt.timedelta(seconds=2 * TURN_SECONDS + 1)
    )
    assert loaded.timeouts_applied == 2 and not loaded.state.over
    loaded = services.catch_up(match.public_id, "sess", now=NOW + dt.timedelta(minutes=10))
    assert loaded.state.over and loaded.state.winner == B
    assert loaded.match.status == MatchStatus.LOST and loaded.match.end_reason == "forfeit"
    assert loaded.state.sides[A].timeouts == 3


def test_surrender_and_rematch(slabs, rookie_team) -> None:
    match = start(rookie_team)
    loaded = services.surrender(match.public_id, "sess", now=NOW)
    assert loaded.state.over and loaded.match.status == MatchStatus.LOST
    assert loaded.match.end_reason == "surrender"
    again = services.surrender(match.public_id, "sess", now=NOW)  # twice: nothing new
    assert again.match.actions == loaded.match.actions
    rematch = services.rematch(match.public_id, "sess", now=NOW)
    assert rematch.pk != match.pk and rematch.team_a == match.team_a
    assert rematch.team_b == match.team_b and rematch.bracket == match.bracket
    assert rematch.status == MatchStatus.ACTIVE


def test_a_stored_match_replays_from_its_snapshot(slabs, rookie_team) -> None:
    match = start(rookie_team, seed=_seed_where(B, rookie_team))
    loaded = services.play_move(match.public_id, "sess", 1, "attack:basic", now=NOW)
    # Later value changes never alter a stored match.
    from arena.models import SlabValue

    SlabValue.objects.filter(date=selectors.match_day()).update(value=Decimal("9999"))
    again = services.load(ArenaMatch.objects.get(pk=match.pk))
    assert again.state == loaded.state


def test_the_balance_report(slabs) -> None:
    report = services.run_balance_report(60, seed=3)
    assert ArenaBalanceReport.objects.get() == report
    assert report.slabs == len(slabs)
    for pairing in report.data["pairings"]:
        f = pairing["first_player"]
        assert f["first_wins"] + f["second_wins"] + f["draws"] == f["games"] == pairing["games"]
        assert sum(v["games"] for v in pairing["by_bracket"].values()) == pairing["games"]
        assert set(pairing["by_advantage"]) == {"behind", "even", "ahead"}
        assert len(pairing["by_lead"]) == 9
    again = services.run_balance_report(60, seed=3)
    assert again.data == report.data  # seeded
