from django.urls import path

from core import previews

from . import views

app_name = "site"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("api/", views.api_docs, name="api-docs"),
    path("preview.png", previews.site_preview_png, name="site-preview"),
]
