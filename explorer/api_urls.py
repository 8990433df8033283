"""The card API under /api/ (the site's ``codex_site.api_urls``, included after this,
answers the index and every other path)."""

from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("cards", api.card_search, name="card-search"),
    path("cards/<int:token>", api.card_breakdown, name="card-breakdown"),
    path("bulk/cards.json", api.bulk_cards, name="bulk-cards"),
]
