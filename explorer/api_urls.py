from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("cards", api.card_search, name="card-search"),
    path("cards/<int:token>", api.card_breakdown, name="card-breakdown"),
]
