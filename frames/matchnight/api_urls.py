from django.urls import path

from . import api

urlpatterns = [
    path("fixtures/<int:pk>/match/", api.MatchOpenView.as_view(), name="api-match-open"),
    path("matches/<int:pk>/", api.MatchDetailView.as_view(), name="api-match-detail"),
    path("matches/<int:pk>/presence/", api.PresenceView.as_view(), name="api-match-presence"),
    path("matches/<int:pk>/commit/", api.CommitView.as_view(), name="api-match-commit"),
    path("matches/<int:pk>/nomination/", api.NominationView.as_view(), name="api-match-nomination"),
    path("matches/<int:pk>/reveal/", api.RevealView.as_view(), name="api-match-reveal"),
    path(
        "matches/<int:pk>/agree-short/", api.AgreeShortView.as_view(), name="api-match-agree-short"
    ),
    path("matches/<int:pk>/draw/", api.DrawView.as_view(), name="api-match-draw"),
    path("matches/<int:pk>/redraw/", api.RedrawView.as_view(), name="api-match-redraw"),
    path("matches/<int:pk>/reorder/", api.ReorderView.as_view(), name="api-match-reorder"),
    path(
        "matches/<int:pk>/reorder/accept/",
        api.ReorderAcceptView.as_view(),
        name="api-match-reorder-accept",
    ),
    path(
        "matches/<int:pk>/reorder/reject/",
        api.ReorderRejectView.as_view(),
        name="api-match-reorder-reject",
    ),
    path(
        "matches/<int:pk>/frames/<int:number>/referee/",
        api.RefereeView.as_view(),
        name="api-match-referee",
    ),
    path("matches/<int:pk>/paper/", api.PaperView.as_view(), name="api-match-paper"),
    path("matches/<int:pk>/confirm/", api.ConfirmView.as_view(), name="api-match-confirm"),
    path("matches/<int:pk>/dispute/", api.DisputeView.as_view(), name="api-match-dispute"),
    path("matches/<int:pk>/settle/", api.SettleView.as_view(), name="api-match-settle"),
    path(
        "matches/<int:pk>/eligibility/",
        api.IneligibleFramesView.as_view(),
        name="api-match-eligibility",
    ),
]
