"""The API's index and its catch-all, included last under /api/ in config/urls.py: every
path no app's API answers is a JSON 404, like every API error."""

from django.urls import path

from . import views

app_name = "api-site"
urlpatterns = [
    path("", views.api_index, name="index"),
    path("<path:rest>", views.api_not_found, name="not-found"),
]
