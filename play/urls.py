from django.urls import path

from . import views

app_name = "play"
urlpatterns = [
    path("", views.play_index, name="index"),
    path("m/<uuid:public_id>/", views.match_detail, name="match"),
    path("m/<uuid:public_id>/act/", views.match_act, name="act"),
    path("m/<uuid:public_id>/surrender/", views.match_surrender, name="surrender"),
    path("m/<uuid:public_id>/finish/", views.match_finish, name="finish"),
    path("m/<uuid:public_id>/rematch/", views.match_rematch, name="rematch"),
    path("m/<uuid:public_id>/replay/", views.match_replay, name="replay"),
    path("m/<uuid:public_id>/log/", views.match_log, name="log"),
]
