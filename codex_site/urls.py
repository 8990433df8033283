from django.urls import path

from . import views

app_name = "site"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("api/", views.api_docs, name="api-docs"),
]
