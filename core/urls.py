from django.urls import path

from . import previews, views

app_name = "core"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("preview.png", previews.site_preview_png, name="site-preview"),
]
