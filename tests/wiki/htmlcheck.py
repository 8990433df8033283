"""Find live (parsed, not escaped) HTML that could run script or restyle the page."""

from html.parser import HTMLParser

FORBIDDEN_TAGS = {
    "script",
    "style",
    "iframe",
    "frame",
    "object",
    "embed",
    "svg",
    "math",
    "form",
    "link",
    "meta",
    "base",
    "template",
}
SAFE_SCHEMES = ("http://", "https://", "mailto:", "/", "#")


class _Collector(HTMLParser):
    def __init__(self, allow: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.allow = allow

    def handle_starttag(self, tag, attrs):
        if tag in FORBIDDEN_TAGS and tag not in self.allow:
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{tag}[{name}]")
            if name == "style":
                self.problems.append(f"{tag}[style]")
            if name in ("href", "src", "action", "formaction", "xlink:href") and value is not None:
                url = "".join(value.split()).lower()
                if ":" in url.split("/")[0] and not url.startswith(SAFE_SCHEMES):
                    self.problems.append(f"{tag}[{name}={value}]")


def live_html_problems(html: str, allow: set[str] = frozenset()) -> list[str]:
    """Dangerous elements and attributes as a browser would parse them from ``html``.

    ``allow`` names tags the page itself may use (our own search form, say).
    """
    collector = _Collector(set(allow))
    collector.feed(html)
    collector.close()
    return collector.problems
