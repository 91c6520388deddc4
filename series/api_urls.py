from django.urls import path

from . import api

urlpatterns = [
    path("series/", api.SeriesListView.as_view(), name="api-series-list"),
    path("series/<int:pk>/", api.SeriesDetailView.as_view(), name="api-series-detail"),
    path(
        "series/<int:pk>/standings/",
        api.SeriesStandingsView.as_view(),
        name="api-series-standings",
    ),
]
