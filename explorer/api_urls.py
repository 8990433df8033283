"""The JSON API under /api/. Its last pattern catches every other path, so an unknown
address is a JSON 404 like every API error: another app's API include must come before
``path("api/", include("explorer.api_urls"))`` in config/urls.py."""

from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("", api.index, name="index"),
    path("cards", api.card_search, name="card-search"),
    path("cards/<int:token>", api.card_breakdown, name="card-breakdown"),
    path("bulk/cards.json", api.bulk_cards, name="bulk-cards"),
    path("<path:rest>", api.not_found, name="not-found"),
]
