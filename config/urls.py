from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from codex_site import views as site_views
from codex_site.api_urls import api_patterns

handler500 = "core.middleware.server_error"  # a lock timeout is a 503 "busy", never a 500
# Under /api/ every error is the API's JSON (core.api); elsewhere Django's pages.
handler400 = "codex_site.views.bad_request"
handler403 = "codex_site.views.permission_denied"
handler404 = "codex_site.views.page_not_found"

admin.site.site_header = _("Card Codex administration")
admin.site.site_title = _("Card Codex")
admin.site.index_title = _("Rules wiki, collection and match demo")

urlpatterns = [
    path("healthz", site_views.healthz, name="healthz"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    path("", include("sharing.urls")),  # robots.txt, sitemaps (/api/oembed: its api_urls)
    *api_patterns(),  # every app's api_urls.py, then the API's index and catch-all
]

urlpatterns += i18n_patterns(
    path("", include("codex_site.urls")),
    path("wiki/", include("wiki.urls")),
    path("", include("explorer.urls")),
    path("play/", include("play.urls")),
    path("packs/", include("packs.urls")),
    path("arena/", include("arena.urls")),
    path("admin/", admin.site.urls),
)
