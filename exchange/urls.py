from django.urls import path

from . import views

urlpatterns = [
    path("seasons/<int:pk>/data/", views.season_data, name="season-data"),
    path(
        "seasons/<int:pk>/export/<slug:sheet>.<slug:fmt>",
        views.season_export,
        name="season-export",
    ),
    path("leagues/<slug:slug>/archive.json", views.league_archive, name="league-archive"),
]
