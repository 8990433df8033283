#!/usr/bin/env python
"""Bot-vs-bot matches per second on one core, and a demo move's latency per bot (prints
figures; never asserts).

Decks are built from synthetic cards run through the real derivation
(``engine.card.derive``), 1–4 cards each, drawn with a fixed seed. The figures, side by side
in one run: greedy against greedy (decks of 1–4 cards, and of 4), the lookahead bot
against greedy (4 cards: it plays out every plan of a round, so it is far slower), and a
demo move's engine work with each bot — what ``play.services.play_move`` does besides the
database: rebuild the stored match from its actions, play the player's Commit, let the
bot prepare the next round. Usage:

    .venv/bin/python bench/bench_match.py [--matches 10000] [--seed 1] [--bots greedy,greedy]
    .venv/bin/python bench/bench_match.py --lookahead 60 --moves 40   # the other figures
    .venv/bin/python bench/bench_match.py --profile      # cProfile of the hot path
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.card.derive import derive
from engine.data import KEYWORDS
from engine.match import A, B, Commit, MatchCard, Recorder, new_match, replay
from engine.match.bots import BOTS, make_bot, take_turn
from engine.match.simulate import Series, play_match
from engine.serialize import (
    action_from_json,
    action_to_json,
    match_card_from_json,
    match_card_to_json,
)
from engine.types import AttributeSpec, CardSpec, Slot

PLAIN = ("Sky", "Meadow", "Vest", "Cap", "Boots", "Ribbonless", "Stone", "Leaf", "Cloud", "Moss")
SUPPLIES = (1, 2, 3, 4, 5, 8, 12, 20, 30, 60, 120, 300, 900)


def synthetic_card(rng: random.Random, token: int) -> MatchCard:
    """A plausible card: keyword-bearing or plain attribute names, varied supplies."""
    fragments = [f for frags in KEYWORDS.values() for f in frags]

    def attr(slot: Slot) -> AttributeSpec:
        word = rng.choice(fragments).title() if rng.random() < 0.6 else rng.choice(PLAIN)
        return AttributeSpec(slot, f"{rng.choice(PLAIN)} {word}", rng.choice(SUPPLIES))

    spec = CardSpec(
        token=token,
        name=f"Pup #{token}",
        equipped=tuple(attr(s) for s in Slot),
        burned_stickers=rng.choice((0, 0, 0, 0, 1, 2, 3, 6)),
    )
    return MatchCard.from_breakdown(derive(spec), spec.name)


def make_decks(
    seed: int, count: int, size: int | None, pool: int = 200
) -> list[tuple[tuple[MatchCard, ...], ...]]:
    """``count`` pairs of decks: ``size`` cards each, or 1–4 at random when None."""
    rng = random.Random(seed)
    cards = [synthetic_card(rng, token) for token in range(1, pool + 1)]

    def deck() -> tuple[MatchCard, ...]:
        return tuple(rng.sample(cards, size or rng.randint(1, 4)))

    return [(deck(), deck()) for _ in range(count)]


def bench(matches: int, seed: int, bots: list[str], size: int | None = None) -> float:
    decks = make_decks(seed, 500, size)
    players = [make_bot(b) for b in bots]
    rounds = actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(matches):
        a, b = decks[i % len(decks)]
        record = play_match(a, b, players, seed + i)
        rounds += record.state.round
        actions += len(record.actions)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    label = f"{size}-card decks" if size else "decks of 1-4 cards"
    print(f"{bots[0]} vs {bots[1]}, {label}: {matches} matches in {elapsed:.2f} s")
    # CPU time of this (single-threaded) process: the figure that holds on a busy machine.
    print(f"  {matches / cpu:,.0f} matches/s on one core (CPU time {cpu:.2f} s)")
    print(f"  {matches / elapsed:,.0f} matches/s by the wall clock")
    print(f"  {rounds / matches:.2f} rounds and {actions / matches:.1f} actions per match")
    print(f"  {actions / cpu:,.0f} actions/s (CPU time)")
    return matches / cpu


def bench_lookahead(matches: int, seed: int) -> tuple[float, float]:
    """Lookahead (side A, then B) against greedy on 4-card decks: matches/s and win rate."""
    decks = make_decks(seed, matches, 4)
    wins = 0
    cpu_start = time.process_time()
    for i, (a, b) in enumerate(decks):
        bots = ("lookahead", "greedy") if i % 2 == 0 else ("greedy", "lookahead")
        series = Series()
        series.add(play_match(a, b, bots, seed + i).state)
        wins += series.sides.wins("a" if i % 2 == 0 else "b")
    cpu = time.process_time() - cpu_start
    return matches / cpu, wins / matches


def bench_demo_move(bot: str, moves: int, seed: int, at_round: int = 4) -> list[float]:
    """Milliseconds of engine work per demo move against ``bot``: rebuild a stored match
    (4-card decks, at round ``at_round``'s Prepare) from its JSON decks and actions, play
    the player's Commit, and let the bot prepare the next round (as the site does; the
    player's side is played by greedy up to there)."""
    times = []
    greedy = make_bot("greedy")
    for i, (a, b) in enumerate(make_decks(seed + 7, moves * 2, 4)):
        if len(times) == moves:
            break
        match_seed = seed + i
        rng = random.Random(match_seed)
        recorder = Recorder(new_match(a, b, match_seed), log=False)
        while not recorder.state.over:
            state = recorder.state
            take_turn(
                make_bot(bot), recorder, B, random.Random(match_seed * 1_000_003 + state.actions)
            )
            action = greedy.act(recorder.state, A, rng)
            while not isinstance(action, Commit):
                recorder.play(action)
                action = greedy.act(recorder.state, A, rng)
            if recorder.state.round >= at_round:
                break
            recorder.play(action)
        if recorder.state.over:
            continue
        decks = ([match_card_to_json(c) for c in a], [match_card_to_json(c) for c in b])
        stored = [action_to_json(x) for x in recorder.actions]
        start = time.perf_counter()
        deck_a = tuple(match_card_from_json(c) for c in decks[0])
        deck_b = tuple(match_card_from_json(c) for c in decks[1])
        actions = [action_from_json(x) for x in stored]
        rebuilt = Recorder.resume(replay(deck_a, deck_b, match_seed, actions))
        rebuilt.play(Commit(A))
        state = rebuilt.state
        if not state.over and not state.players[B].committed:
            rng_b = random.Random(match_seed * 1_000_003 + state.actions)
            take_turn(make_bot(bot), rebuilt, B, rng_b)
        rebuilt.record()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report_others(lookahead: int, moves: int, seed: int, greedy_rate: float | None) -> None:
    rate, win = bench_lookahead(lookahead, seed)
    print(f"lookahead vs greedy, 4-card decks: {lookahead} matches, the lookahead won {win:.0%}")
    for bot in BOTS:
        times = sorted(bench_demo_move(bot, moves, seed))
        if not times:
            continue
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"demo move against {bot}: median {statistics.median(times):.2f} ms, "
            f"95th percentile {p95:.2f} ms, slowest {times[-1]:.2f} ms ({len(times)} moves)"
        )
    if greedy_rate is not None:
        print(f"greedy vs greedy, 4-card decks: {greedy_rate:,.0f} matches/s on one core")
    print(f"lookahead vs greedy, 4-card decks: {rate:,.1f} matches/s on one core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument(
        "--deck-size", type=int, default=0, help="cards per deck (default: both 1-4 and 4)"
    )
    parser.add_argument("--lookahead", type=int, default=60, help="lookahead matches (0: none)")
    parser.add_argument("--moves", type=int, default=40, help="demo moves timed per bot")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    bots = args.bots.split(",")
    sizes = [args.deck_size] if args.deck_size else [None, 4]
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx(
            "bench(args.matches, args.seed, bots, sizes[-1])", globals(), locals(), "/tmp/bm.prof"
        )
        pstats.Stats("/tmp/bm.prof").sort_stats("tottime").print_stats(25)
    else:
        rate = None
        for size in sizes:
            rate = bench(args.matches, args.seed, bots, size)
        if args.lookahead:
            report_others(args.lookahead, args.moves, args.seed, rate if sizes[-1] == 4 else None)


if __name__ == "__main__":
    main()
