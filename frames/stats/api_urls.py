"""The statistics' API (included under /api/ from config/urls.py)."""

from django.urls import path

from . import api

urlpatterns = [
    path("seasons/<int:pk>/awards/", api.SeasonAwardsView.as_view(), name="api-season-awards"),
    path("awards/<int:pk>/", api.AwardView.as_view(), name="api-award"),
]
