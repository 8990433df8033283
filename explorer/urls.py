from django.urls import path

from . import views

app_name = "explorer"
urlpatterns = [
    path("cards/", views.card_list, name="card-list"),
    path("cards/help/", views.search_help, name="search-help"),
    path("cards/stats/", views.statistics, name="statistics"),
    path("cards/compare/", views.compare, name="compare"),
    path("cards/<int:token>/", views.card_detail, name="card-detail"),
]
