from django.urls import path

from . import api

app_name = "api_arena"
urlpatterns = [
    path("slabs", api.slab_list, name="slabs"),
    path("slabs/<str:asset_id>", api.slab_detail, name="slab"),
]
