"""The site's addresses and one cached page with a form, for tests/core/test_cache.py: the
page cache splices each visitor's CSRF token into such a page. The site itself has none
since the booster pool page's open form became an htmx fragment of its own (issue 32: a
page with a visitor's token cannot be shared), so the tests bring their own."""

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

from cards.models import Card
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401
from config.urls import urlpatterns as site_urlpatterns
from core.cache import cached_page

FORM_PAGE = "/page-cache-form/"
TEMPLATE = engines["django"].from_string(
    "<!doctype html><html><body><h1>Token test</h1>"
    "<ul>{% for name in names %}<li>{{ name }}</li>{% endfor %}</ul>"
    '<form method="post" action="{{ action }}">{% csrf_token %}'
    '<input name="client_seed" value="seed"><button type="submit">Send</button></form>'
    "<p>{{ filler }}</p></body></html>"
)


@cached_page(depends_on=("cards",))
def form_page(request: HttpRequest) -> HttpResponse:
    """The collection's card names beside a form (answered, once sent, with a word)."""
    if request.method == "POST":
        return HttpResponse("sent")
    names = list(Card.objects.order_by("token").values_list("name", flat=True))
    context = {"names": names, "action": FORM_PAGE, "filler": "A page of some length. " * 60}
    return HttpResponse(TEMPLATE.render(context, request))


urlpatterns = [path(FORM_PAGE.strip("/") + "/", form_page), *site_urlpatterns]
