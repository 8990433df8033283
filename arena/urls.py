from django.urls import path

from . import views

app_name = "arena"
urlpatterns = [
    path("", views.arena_index, name="index"),
    path("slabs/", views.slab_list, name="slab-list"),
    path("slabs/<str:asset_id>/", views.slab_detail, name="slab-detail"),
    path("slabs/<str:asset_id>/case.svg", views.slab_picture, name="slab-picture"),
    path("slabs/<str:asset_id>/preview.png", views.slab_preview_png, name="slab-preview"),
    path("team/", views.team_detail, name="team"),
    path("play/", views.match_start, name="match-start"),
    path("m/<uuid:public_id>/", views.match_detail, name="match"),
    path("m/<uuid:public_id>/act/", views.match_act, name="match-act"),
    path("m/<uuid:public_id>/surrender/", views.match_surrender, name="match-surrender"),
    path("m/<uuid:public_id>/rematch/", views.match_rematch, name="match-rematch"),
    path("m/<uuid:public_id>/replay/", views.match_replay, name="match-replay"),
]
