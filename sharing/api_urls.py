"""/api/oembed under /api/ (found by ``codex_site.api_urls``, whose index and catch-all
answer every other path; described in ``sharing.api_docs``)."""

from django.urls import path

from . import views

app_name = "api-sharing"
urlpatterns = [
    path("oembed", views.oembed, name="oembed"),
]
