"""The card API under /api/ (found by ``codex_site.api_urls``, whose index and catch-all
answer every other path)."""

from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("cards", api.card_search, name="card-search"),
    path("cards/<int:token>", api.card_breakdown, name="card-breakdown"),
    path("cards/<int:token>/explain", api.card_explain, name="card-explain"),
    path("cards/<int:token>/history", api.card_history, name="card-history"),
    path("bulk/cards.json", api.bulk_cards, name="bulk-cards"),
]
