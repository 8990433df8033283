from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from core import views as core_views

handler500 = "core.middleware.server_error"  # a lock timeout is a 503 "busy", never a 500

admin.site.site_header = _("Card Codex administration")
admin.site.site_title = _("Card Codex")
admin.site.index_title = _("Rules wiki, collection and match demo")

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("", include("sharing.urls")),  # robots.txt, sitemaps, /api/oembed
    path("api/packs/", include("packs.api_urls")),  # before api/: its catch-all is its own
    path("api/", include("arena.api_urls")),
    path("api/", include("explorer.api_urls")),  # last: it ends with the API's catch-all
]

urlpatterns += i18n_patterns(
    path("", include("core.urls")),
    path("wiki/", include("wiki.urls")),
    path("", include("explorer.urls")),
    path("play/", include("play.urls")),
    path("packs/", include("packs.urls")),
    path("arena/", include("arena.urls")),
    path("admin/", admin.site.urls),
)
