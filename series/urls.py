"""Ranking series pages (included from config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("series/league/<slug:slug>/", views.league_series, name="league-series"),
    path("series/org/<slug:slug>/", views.organisation_series, name="organisation-series"),
    path(
        "series/league/<slug:slug>/new/",
        views.series_create_league,
        name="series-create-league",
    ),
    path(
        "series/org/<slug:slug>/new/",
        views.series_create_organisation,
        name="series-create-organisation",
    ),
    path("series/<int:pk>/", views.series_detail, name="series-detail"),
    path("series/<int:pk>/events/", views.series_events, name="series-events"),
    path("series/<int:pk>/edit/", views.series_edit, name="series-edit"),
    path("series/<int:pk>/events/add/", views.series_event_add, name="series-event-add"),
    path(
        "series/events/<int:pk>/results/",
        views.series_event_results,
        name="series-event-results",
    ),
]
