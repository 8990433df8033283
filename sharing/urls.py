from django.urls import path

from . import views

app_name = "sharing"
urlpatterns = [
    path("robots.txt", views.robots_txt, name="robots"),
    path("sitemap.xml", views.sitemap_index, name="sitemap-index"),
    path("sitemap-<slug:section>.xml", views.sitemap_section, name="sitemap-section"),
]
