"""What every subcommand of ``python -m engine`` shares: the command record, the one-line
usage error and reading a file (or stdin)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

__all__ = ["EXIT_BAD_INPUT", "Command", "UsageError", "read_input"]

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
