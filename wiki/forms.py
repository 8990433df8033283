"""The admin's page form: an edit summary and the revision the editor started from."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import services
from .diff import diff_snapshots
from .models import Page


class PageAdminForm(forms.ModelForm):
    edit_summary = forms.CharField(
        label=_("Edit summary"),
        max_length=300,
        required=False,
        help_text=_("Say briefly what you changed and why; it appears in the page history."),
    )
    # The revision the form was opened at. A save that finds a newer revision is refused.
    base_revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)

    class Meta:
        model = Page
        fields = ("slug", "title", "summary", "body", "section", "order", "related", "published")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conflict: dict[str, Any] | None = None
        if self.instance.pk:
            self.fields["base_revision"].initial = self.instance.revision_number
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

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not self.instance.pk:
            return cleaned
        expected = cleaned.get("base_revision")
        # Runs inside the admin's transaction: nobody can save between this check and ours.
        current = services.current_revision_number(self.instance.pk)
        if expected is None or expected != current:
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
            raise forms.ValidationError(
                gettext(
                    "Someone else saved this page (revision %(current)s) after you opened it "
                    "at revision %(expected)s. Your changes were NOT saved and nothing was "
                    "overwritten. Compare their version with yours below, merge what you "
                    "need into the form, then save again."
                )
                % {"current": current, "expected": expected if expected is not None else "?"},
                code="edit_conflict",
            )
        return cleaned
