from django.urls import path

from . import feeds, views

app_name = "explorer"
urlpatterns = [
    path("cards/", views.card_list, name="card-list"),
    path("cards/advanced/", views.advanced_search, name="advanced-search"),
    path("cards/help/", views.search_help, name="search-help"),
    path("cards/stats/", views.statistics, name="statistics"),
    path("cards/compare/", views.compare, name="compare"),
    path("cards/random/", views.random_card, name="random-card"),
    path("cards/why/", views.card_why, name="card-why"),
    path("cards/<int:token>/", views.card_detail, name="card-detail"),
    path("cards/<int:token>/paths/", views.card_paths, name="card-paths"),
    path("cards/<int:token>/history/", views.card_history, name="card-history"),
    path("changes/", views.changes, name="changes"),
    path("changes/feed.atom", feeds.ChangesFeed(), name="changes-feed"),
    path("changes/search.atom", feeds.search_feed, name="search-feed"),
    path("cards/<int:token>/picture.svg", views.card_picture, name="card-picture"),
    path("cards/<int:token>/preview.png", views.card_preview_png, name="card-preview"),
]
