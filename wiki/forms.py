"""Every request parameter of the wiki, read through a form.

Public views: the revision range of a diff, the history's page number, the search query
and its page. Admin: the page editor (edit summary, the revision the editor started from,
the text limits, unknown tables), the revision range, the revert confirmation and the
preview's language.

Numbers are whole numbers in ASCII digits: ``"²".isdigit()`` is True and ``int("²")``
raises, while ``int("٣")`` quietly reads 3 — neither is a revision number.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.forms import AsciiIntegerField, ChoiceField

from . import services
from .diff import diff_snapshots
from .models import Page
from .rendering import UrlResolver
from .selectors import LANGUAGE_CODES, read_page_directory
from .validation import body_problems, unknown_macro_problems

#: The largest number a revision or page number may be (PositiveIntegerField's ceiling).
MAX_NUMBER = 2_147_483_647
#: The longest search query read (longer ones are cut, as the search box's maxlength does).
MAX_QUERY = 200


class WholeNumberField(AsciiIntegerField):
    """A non-negative integer written in ASCII digits, at most ``MAX_NUMBER``."""

    default_error_messages = {"invalid": _("Enter a whole number, such as 3.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_NUMBER)
        super().__init__(signed=False, **kwargs)


class RevisionRangeForm(forms.Form):
    """``?from=<n>&to=<m>``: two revisions to compare (given in either order)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "from" is a Python keyword, so the fields are added here rather than declared.
        messages = {"required": _("Choose two revisions to compare.")}
        self.fields["from"] = WholeNumberField(label=_("From revision"), error_messages=messages)
        self.fields["to"] = WholeNumberField(label=_("To revision"), error_messages=messages)

    @property
    def numbers(self) -> tuple[int, int]:
        """The older and the newer revision number."""
        low, high = self.cleaned_data["from"], self.cleaned_data["to"]
        return min(low, high), max(low, high)


class PageNumberForm(forms.Form):
    """``?page=<n>``: which page of a long list (the first when absent)."""

    page = WholeNumberField(label=_("Page"), required=False, min_value=1)

    @property
    def number(self) -> int:
        return self.cleaned_data.get("page") or 1


class SearchForm(PageNumberForm):
    """``?q=<words>&page=<n>``: the wiki search."""

    q = forms.CharField(label=_("Search"), required=False)

    def clean_q(self) -> str:
        return self.cleaned_data["q"][:MAX_QUERY].strip()


class RevertForm(forms.Form):
    """The revert confirmation: the revision the page was at when the editor looked."""

    base_revision = WholeNumberField(widget=forms.HiddenInput)


class PreviewForm(forms.Form):
    """``?lang=<code>``: the language a preview is rendered in."""

    lang = ChoiceField(choices=settings.LANGUAGES)


class PreviewTextForm(forms.Form):
    """The page editor's texts as posted to the preview: title, summary and body per
    language, all optional (nothing is saved)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in services.TRANSLATED_KEYS:
            self.fields[field] = forms.CharField(required=False, strip=field.startswith("title"))

    def text(self, field: str, lang: str) -> str:
        return self.cleaned_data.get(f"{field}_{lang}", "")


def errors_text(form: forms.Form) -> list[str]:
    """A form's error messages, each once, in the order the fields come."""
    seen: list[str] = []
    for messages in form.errors.values():
        for message in messages:
            if message not in seen:
                seen.append(str(message))
    return seen


class PageAdminForm(forms.ModelForm):
    edit_summary = forms.CharField(
        label=_("Edit summary"),
        max_length=300,
        required=False,
        help_text=_("Say briefly what you changed and why; it appears in the page history."),
    )
    # The revision the form was opened at. A save that finds a newer revision is refused.
    base_revision = WholeNumberField(
        label=_("Revision the edit started from"), widget=forms.HiddenInput, required=False
    )

    class Meta:
        model = Page
        fields = ("slug", "title", "summary", "body", "section", "order", "related", "published")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conflict: dict[str, Any] | None = None
        if self.instance.pk:
            self.fields["base_revision"].initial = self.instance.revision_number
            # A page is not related to itself: it is not offered, and refused if posted.
            related = self.fields["related"]
            related.queryset = related.queryset.exclude(pk=self.instance.pk)
        if self.is_bound:
            self.data = self.data.copy()

    def submitted_snapshot(self) -> dict[str, Any]:
        data = self.cleaned_data
        snap = {key: data.get(key) or "" for key in services.TRANSLATED_KEYS}
        related = data.get("related")
        snap.update(
            slug=data.get("slug", self.instance.slug),
            section=data.get("section", self.instance.section),
            order=data.get("order", self.instance.order),
            published=data.get("published", self.instance.published),
            related=sorted(p.slug for p in related) if related is not None else [],
        )
        return snap

    def _check_bodies(self, cleaned: dict[str, Any]) -> None:
        """Refuse a body past the limits or naming an unknown table, and a summary naming an
        unknown table, field by field."""
        titles: dict[str, dict[str, str]] | None = None
        for code in LANGUAGE_CODES:
            summary = f"summary_{code}"
            if summary in self.fields and cleaned.get(summary):
                for problem in unknown_macro_problems(cleaned[summary]):
                    self.add_error(summary, problem)
            field = f"body_{code}"
            text = cleaned.get(field) or ""
            if field not in self.fields or not text:
                continue
            if titles is None:
                titles = read_page_directory().published_titles()
            problems = body_problems(text, lang=code, resolver=UrlResolver(titles, url_lang=code))
            for problem in problems:
                self.add_error(field, problem)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        conflict = self._check_conflict(cleaned)  # before the body checks drop bad fields
        self._check_bodies(cleaned)
        if conflict is not None:
            raise conflict
        return cleaned

    def _check_conflict(self, cleaned: dict[str, Any]) -> forms.ValidationError | None:
        """The edit-conflict error when someone saved the page after this form was opened."""
        if not self.instance.pk:
            return None
        expected = cleaned.get("base_revision")
        # Runs inside the admin's transaction: nobody can save between this check and ours.
        current = services.current_revision_number(self.instance.pk)
        if expected is not None and expected == current:
            return None
        latest = self.instance.revisions.order_by("-number").first()
        theirs = latest.snapshot if latest else services.snapshot(self.instance)
        self.conflict = {
            "expected": expected,
            "current": current,
            "revision": latest,
            "diffs": diff_snapshots(theirs, self.submitted_snapshot()),
        }
        # Saving again from this form is a deliberate choice made after seeing the diff.
        self.data["base_revision"] = str(current)
        return forms.ValidationError(
            gettext(
                "Someone else saved this page (revision %(current)s) after you opened it "
                "at revision %(expected)s. Your changes were NOT saved and nothing was "
                "overwritten. Compare their version with yours below, merge what you "
                "need into the form, then save again."
            )
            % {"current": current, "expected": expected if expected is not None else "?"},
            code="edit_conflict",
        )
