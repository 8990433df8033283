"""What the collection's import commands share."""

from collections.abc import Iterable

from django.core.management.base import CommandError, OutputWrapper
from django.utils.translation import ngettext

#: The exit code of an import refused for its input (nothing written).
EXIT_BAD_INPUT = 2


def refused(stderr: OutputWrapper, problems: Iterable[object]) -> CommandError:
    """Write every located problem of a refused import to ``stderr``; the error to raise."""
    problems = list(problems)
    for problem in problems:
        stderr.write(str(problem))
    return CommandError(
        ngettext(
            "%(count)d problem found; nothing was imported.",
            "%(count)d problems found; nothing was imported.",
            len(problems),
        )
        % {"count": len(problems)},
        returncode=EXIT_BAD_INPUT,
    )
