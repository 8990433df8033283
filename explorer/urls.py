from django.urls import path

from . import views

app_name = "explorer"
urlpatterns = [
    path("cards/", views.card_list, name="card-list"),
]
