from django.urls import path

from . import views

app_name = "packs"
urlpatterns = [
    path("", views.pool_list, name="pool-list"),
    path("binder/", views.binder, name="binder"),
    path("ledger/", views.ledger, name="ledger"),
    path("ledger/<str:date>/", views.ledger_day, name="ledger-day"),
    path("verify/", views.verify, name="verify"),
    path("openings/<uuid:public_id>/", views.opening_detail, name="opening-detail"),
    path("<slug:slug>/", views.pool_detail, name="pool-detail"),
    path("<slug:slug>/open/", views.pool_open, name="pool-open"),
    path("<slug:slug>/check/", views.pool_check, name="pool-check"),
]
