"""Editing wiki pages: tabbed EN/RU fields, preview, history, diffs, revert, conflict checks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe
from modeltranslation.admin import TabbedTranslationAdmin

from core.admin import TranslationTabsMedia, UniqueRaceAdmin

from . import presenters, reports, services
from .diff import diff_snapshots
from .forms import (
    PageAdminForm,
    PageNumberForm,
    PreviewForm,
    PreviewTextForm,
    RevertForm,
    RevisionRangeForm,
    errors_text,
)
from .models import Page
from .selectors import (
    DEFAULT_LANGUAGE,
    LANGUAGE_CODES,
    get_revision,
    read_page_directory,
    revisions_of,
)


def _lang(request: HttpRequest) -> str:
    lang = (getattr(request, "LANGUAGE_CODE", "") or DEFAULT_LANGUAGE).split("-")[0]
    return lang if lang in LANGUAGE_CODES else DEFAULT_LANGUAGE


@admin.register(Page)
class PageAdmin(UniqueRaceAdmin, TranslationTabsMedia, TabbedTranslationAdmin):
    form = PageAdminForm
    extra_css = ("wiki/admin/wiki-admin.css",)
    list_display = (
        "title",
        "slug",
        "section",
        "order",
        "published",
        "revision_number",
        "updated_at",
    )
    list_filter = ("section", "published")
    search_fields = ("slug", "title_en", "title_ru")
    ordering = ("section", "order", "slug")
    filter_horizontal = ("related",)
    readonly_fields = ("revision_number", "updated_at")
    fieldsets = (
        (None, {"fields": ("slug", "title", "summary", "body")}),
        # Lazy: the class is built once, at import, before any request picks a language.
        (gettext_lazy("Placement"), {"fields": ("section", "order", "related", "published")}),
        (
            gettext_lazy("This edit"),
            {"fields": ("edit_summary", "base_revision", "revision_number", "updated_at")},
        ),
    )

    # -- saving -----------------------------------------------------------------

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        services.record_revision(
            form.instance,
            author=request.user,
            summary=form.cleaned_data.get("edit_summary", ""),
        )

    def delete_model(self, request: HttpRequest, obj: Page) -> None:
        services.delete_page(obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for page in queryset:
            services.delete_page(page)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        form = context.get("adminform").form if context.get("adminform") else None
        context["conflict"] = getattr(form, "conflict", None)
        context["preview_languages"] = [
            (code, name) for code, name in settings.LANGUAGES if code in LANGUAGE_CODES
        ]
        return super().render_change_form(request, context, add, change, form_url, obj)

    # -- extra views --------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("preview/", wrap(self.preview_view), name=f"{prefix}_preview"),
            path("missing-links/", wrap(self.missing_links_view), name=f"{prefix}_missing_links"),
            path(
                "<int:object_id>/revisions/",
                wrap(self.revisions_view),
                name=f"{prefix}_revisions",
            ),
            path(
                "<int:object_id>/revisions/diff/",
                wrap(self.revision_diff_view),
                name=f"{prefix}_revision_diff",
            ),
            path(
                "<int:object_id>/revisions/<int:number>/revert/",
                wrap(self.revert_view),
                name=f"{prefix}_revert",
            ),
            *super().get_urls(),
        ]

    def _context(self, request: HttpRequest, title: str, page: Page | None = None, **extra: Any):
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": title,
            "page": page,
            "original": page,
            "has_view_permission": self.has_view_permission(request, page),
            "has_change_permission": self.has_change_permission(request, page),
            **extra,
        }

    def _page(self, request: HttpRequest, object_id: int, *, change: bool = False) -> Page:
        page = get_object_or_404(Page, pk=object_id)
        allowed = (
            self.has_change_permission(request, page)
            if change
            else self.has_view_permission(request, page)
        )
        if not allowed:
            raise PermissionDenied
        return page

    def preview_view(self, request: HttpRequest) -> HttpResponse:
        """Render the submitted (unsaved) text in one language; saves nothing."""
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:wiki_page_changelist"))
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            raise PermissionDenied
        language = PreviewForm({"lang": request.GET.get("lang", DEFAULT_LANGUAGE)})
        texts = PreviewTextForm(request.POST)
        if not (language.is_valid() and texts.is_valid()):
            raise BadRequest("Unknown language or unreadable text.")
        lang = language.cleaned_data["lang"]
        body = texts.text("body", lang)
        english_body = texts.text("body", DEFAULT_LANGUAGE)
        fallback = False
        if lang != DEFAULT_LANGUAGE and not body.strip():
            body, fallback = english_body, True
        staff_lang = translation.get_language()
        # The page as a visitor reading ``lang`` would see it, chrome included; the notices
        # about the preview stay in the editor's language (the template switches back).
        with translation.override(lang):
            preview = presenters.preview(
                texts.text("title", lang) or texts.text("title", DEFAULT_LANGUAGE),
                texts.text("summary", lang),
                body,
                DEFAULT_LANGUAGE if fallback else lang,
                read_page_directory(),
                english_body=english_body,
                messages_lang=staff_lang,
            )
            response = TemplateResponse(
                request,
                "wiki/page_preview.html",
                {"preview": preview, "lang": lang, "fallback": fallback, "staff_lang": staff_lang},
            )
            return response.render()  # now, while ``lang`` is active

    @method_decorator(require_safe)
    def missing_links_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return TemplateResponse(
            request,
            "admin/wiki/page/missing_links.html",
            self._context(
                request,
                _("Missing links"),
                links=reports.link_problems(),
                macros=reports.macro_problems(),
            ),
        )

    def _revision_list(
        self, request: HttpRequest, page: Page, page_number: int, errors: list[str], status: int
    ) -> HttpResponse:
        return TemplateResponse(
            request,
            "admin/wiki/page/revision_list.html",
            self._context(
                request,
                _("Revisions of “%(title)s”") % {"title": page},
                page,
                history=presenters.history(page, _lang(request), revisions_of(page), page_number),
                errors=errors,
                diff_url=reverse("admin:wiki_page_revision_diff", args=[page.pk]),
                revert_url_name=(
                    "admin:wiki_page_revert" if self.has_change_permission(request, page) else None
                ),
            ),
            status=status,
        )

    @method_decorator(require_safe)
    def revisions_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        page = self._page(request, object_id)
        form = PageNumberForm(request.GET)
        valid = form.is_valid()  # a bad page number: the first page, with the message
        return self._revision_list(
            request, page, form.number, errors_text(form), 200 if valid else 400
        )

    @method_decorator(require_safe)
    def revision_diff_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        page = self._page(request, object_id)
        form = RevisionRangeForm(request.GET)
        if not form.is_valid():
            return self._revision_list(request, page, 1, errors_text(form), 400)
        old_no, new_no = form.numbers
        revisions = revisions_of(page)
        old, new = get_revision(revisions, old_no), get_revision(revisions, new_no)
        return TemplateResponse(
            request,
            "admin/wiki/page/revision_diff.html",
            self._context(
                request,
                _("Revision %(a)s → %(b)s of “%(title)s”")
                % {"a": old_no, "b": new_no, "title": page},
                page,
                diff=presenters.revision_diff(page, _lang(request), old, new),
            ),
        )

    @method_decorator(require_http_methods(["GET", "HEAD", "POST"]))
    def revert_view(self, request: HttpRequest, object_id: int, number: int) -> HttpResponse:
        page = self._page(request, object_id, change=True)
        revision = get_revision(revisions_of(page), number)
        if request.method == "POST":
            form = RevertForm(request.POST)
            if form.is_valid():
                return self._revert(request, page, revision, form.cleaned_data["base_revision"])
            return self._revert_confirm(request, page, revision, errors_text(form), status=400)
        return self._revert_confirm(request, page, revision, [])

    def _revert_confirm(
        self, request: HttpRequest, page: Page, revision: Any, errors: list[str], status: int = 200
    ) -> HttpResponse:
        return TemplateResponse(
            request,
            "admin/wiki/page/revert_confirm.html",
            self._context(
                request,
                _("Restore revision %(n)s of “%(title)s”?") % {"n": revision.number, "title": page},
                page,
                revision=revision,
                current=page.revision_number,
                next_revision=page.revision_number + 1,
                errors=errors,
                diffs=diff_snapshots(services.snapshot(page), revision.snapshot),
            ),
            status=status,
        )

    def _revert(
        self, request: HttpRequest, page: Page, revision: Any, expected: int
    ) -> HttpResponse:
        try:
            new = services.revert_page(
                page, revision, author=request.user, expected_revision=expected
            )
        except services.EditConflict as conflict:
            self.message_user(
                request,
                _(
                    "The page was saved again (revision %(current)s) while you were looking at "
                    "it; nothing was restored. Check the differences and try again."
                )
                % {"current": conflict.current},
                messages.ERROR,
            )
            return HttpResponseRedirect(
                reverse("admin:wiki_page_revert", args=[page.pk, revision.number])
            )
        self.message_user(
            request,
            _("Revision %(old)s was restored as revision %(new)s.")
            % {"old": revision.number, "new": new.number},
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:wiki_page_change", args=[page.pk]))
