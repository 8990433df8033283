"""Links and POST forms in a page, found the way a browser with htmx would find them.

Pure standard library (no Django), shared by the load test and the security/fuzz tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin


@dataclass
class Form:
    """A POST endpoint found on a page: a <form method=post> or an element with hx-post."""

    page: str
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    htmx: bool = False
    # Named submit buttons: a browser sends only the one that was clicked.
    buttons: list[tuple[str, str]] = field(default_factory=list)
    # The element's own hx-headers (htmx sends them with its request): a CSRF token, say.
    headers: dict[str, str] = field(default_factory=dict)

    def data(self, button: int = 0) -> list[tuple[str, str]]:
        """The fields a browser would send when the `button`-th submit button is clicked."""
        chosen = self.buttons[button : button + 1] if self.buttons else []
        return [*self.fields, *chosen]


class _PageParser(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.links: list[str] = []
        self.forms: list[Form] = []
        self.get_forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._select_value: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for key in ("href", "hx-get", "action", "src"):
            if a.get(key):
                self.links.append(urljoin(self.page, a[key]))
        if tag == "form":
            method = a.get("method", "get").lower()
            if method == "post" or a.get("hx-post"):
                action = a.get("hx-post") or a.get("action") or self.page
                self._form = Form(
                    self.page,
                    urljoin(self.page, action),
                    htmx=bool(a.get("hx-post")),
                    headers=_hx_json(a.get("hx-headers", "")),
                )
                self.forms.append(self._form)
            else:
                action = a.get("hx-get") or a.get("action") or self.page
                self._form = Form(self.page, urljoin(self.page, action), htmx=bool(a.get("hx-get")))
                self.get_forms.append(self._form)
        elif a.get("hx-post"):
            form = Form(
                self.page,
                urljoin(self.page, a["hx-post"]),
                htmx=True,
                headers=_hx_json(a.get("hx-headers", "")),
            )
            form.fields.extend(_hx_vals(a.get("hx-vals", "")))
            self.forms.append(form)
        if self._form is not None:
            name = a.get("name")
            if tag == "input" and name and "disabled" not in a:
                kind = a.get("type", "text").lower()
                if kind in ("checkbox", "radio") and "checked" not in a:
                    return
                if kind == "submit":
                    self._form.buttons.append((name, a.get("value", "")))
                if kind in ("submit", "button", "image"):
                    return
                self._form.fields.append((name, a.get("value", "")))
            elif tag == "button" and "disabled" in a:
                return  # a disabled button cannot be clicked
            elif tag == "button" and name and a.get("type", "submit") == "submit":
                self._form.buttons.append((name, a.get("value", "")))
            elif tag == "textarea" and name:
                self._form.fields.append((name, ""))
            elif tag == "select" and name:
                self._select, self._select_value = name, None
            elif tag == "option" and self._select and self._select_value is None:
                self._select_value = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select and self._form is not None:
            self._form.fields.append((self._select, self._select_value or ""))
            self._select = None
        elif tag == "form":
            self._form = None


def _hx_json(raw: str) -> dict[str, str]:
    """An hx-vals or hx-headers attribute's JSON object (nothing for ``js:`` or bad JSON)."""
    if not raw or raw.startswith("js:"):
        return {}
    try:
        values = json.loads(raw)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in values.items()} if isinstance(values, dict) else {}


def _hx_vals(raw: str) -> list[tuple[str, str]]:
    return list(_hx_json(raw).items())


def parse_page(page: str, html: str) -> tuple[list[str], list[Form]]:
    """The links of a page and its POST endpoints (forms and hx-post elements)."""
    parser = _PageParser(page)
    parser.feed(html)
    return parser.links, parser.forms


def get_forms(page: str, html: str) -> list[Form]:
    """The page's GET forms (search boxes, filters, the what-if form), with their fields."""
    parser = _PageParser(page)
    parser.feed(html)
    return parser.get_forms
