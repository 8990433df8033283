from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from core import views as core_views

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("api/", include("explorer.api_urls")),
]

urlpatterns += i18n_patterns(
    path("", include("core.urls")),
    path("wiki/", include("wiki.urls")),
    path("", include("explorer.urls")),
    path("play/", include("play.urls")),
    path("admin/", admin.site.urls),
)
