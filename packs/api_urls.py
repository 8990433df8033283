from django.urls import path, re_path

from . import api

PREFIX = "packs/"  # under /api/packs/, with its own catch-all (codex_site.api_urls)
app_name = "api-packs"
urlpatterns = [
    path("", api.pool_list, name="pool-list"),
    path("openings/<uuid:public_id>", api.opening_detail, name="opening"),
    path("ledger/<str:date>", api.ledger, name="ledger"),
    path("<slug:slug>", api.pool_detail, name="pool"),
    re_path(r"^(?P<rest>.*)$", api.not_found),
]
