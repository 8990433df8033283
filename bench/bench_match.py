#!/usr/bin/env python
"""Greedy-vs-greedy matches per second on one core (prints figures; never asserts).

Decks are built from synthetic cards run through the real derivation
(``engine.derive``), 1–4 cards each, drawn with a fixed seed. Usage:

    .venv/bin/python bench/bench_match.py [--matches 20000] [--seed 1] [--bots greedy,greedy]
    .venv/bin/python bench/bench_match.py --profile      # cProfile of the hot path
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot
from engine.data import KEYWORDS
from engine.derive import derive
from engine.match import MatchCard
from engine.simulate import play_match
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


def bench(matches: int, seed: int, bots: list[str], size: int | None = None) -> None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument(
        "--deck-size", type=int, default=0, help="cards per deck (default: both 1-4 and 4)"
    )
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
        for size in sizes:
            bench(args.matches, args.seed, bots, size)


if __name__ == "__main__":
    main()
