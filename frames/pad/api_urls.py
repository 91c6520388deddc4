"""The referee pad's API (mounted at /api/)."""

from django.urls import path

from . import api

urlpatterns = [
    path("frames/<int:pk>/events/", api.FrameEventsView.as_view(), name="api-frame-events"),
    path("frames/<int:pk>/state/", api.FrameStateView.as_view(), name="api-frame-state"),
    path("frames/<int:pk>/confirm/", api.FrameConfirmView.as_view(), name="api-frame-confirm"),
    path("games/<str:game_id>/", api.GameDescribeView.as_view(), name="api-game-describe"),
    path("matches/<int:pk>/live/", api.MatchLiveView.as_view(), name="api-match-live"),
    path("pad/session/", api.PadSessionView.as_view(), name="api-pad-session"),
]
