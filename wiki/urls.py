from django.urls import path

from . import views

app_name = "wiki"
urlpatterns = [
    path("", views.page_index, name="index"),
    path("search/", views.search_view, name="search"),
    path("<slug:slug>/", views.page_detail, name="page"),
    path("<slug:slug>/history/", views.page_history, name="history"),
    path("<slug:slug>/diff/", views.page_diff, name="diff"),
]
