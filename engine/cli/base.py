"""What every subcommand of ``python -m engine`` shares: the command record, the one-line
usage error and reading a file (or stdin)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TextIO

__all__ = [
    "EXIT_BAD_INPUT",
    "Command",
    "UsageError",
    "add_series_arguments",
    "read_input",
    "series_bots",
]

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input to a subcommand; its message is the one line printed on stderr."""


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, how it adds its arguments, and what it runs."""

    name: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]


def read_input(path: str) -> bytes:
    """The bytes of ``path``, or of stdin for ``-``; unreadable → ``UsageError``."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory") from None
    except OSError as err:
        raise UsageError(f"{path}: cannot read ({err.strerror})") from None


def add_series_arguments(parser: argparse.ArgumentParser, bots: Collection[str]) -> None:
    """The options of a bot-vs-bot series (``simulate``, ``arena simulate``): the first
    seed, the number of games, the two bots and game 0's log."""
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of game 0 (0)")
    parser.add_argument("--games", type=int, default=1, metavar="N", help="games to play (1)")
    parser.add_argument(
        "--bots",
        default="greedy,greedy",
        metavar="A,B",
        help=f"the bots of sides a and b, each one of: {', '.join(bots)} (greedy,greedy)",
    )
    parser.add_argument("--log", action="store_true", help="add game 0's full event log")


def series_bots(args: argparse.Namespace, bots: Collection[str], example: str) -> list[str]:
    """The two bots of ``--bots``, once ``--bots`` and ``--games`` are checked."""
    chosen = [b.strip() for b in str(args.bots).split(",")]
    if len(chosen) != 2 or any(b not in bots for b in chosen):
        raise UsageError(f"--bots: give two of {', '.join(bots)}, e.g. {example}")
    if args.games < 1:
        raise UsageError("--games: must be at least 1")
    return chosen
