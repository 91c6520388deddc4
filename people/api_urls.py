from django.urls import path

from . import api

urlpatterns = [
    path("me/data/", api.MyDataView.as_view(), name="api-my-data"),
    path("me/privacy/", api.MyPrivacyView.as_view(), name="api-my-privacy"),
    path("me/calendar/", api.MyCalendarView.as_view(), name="api-my-calendar"),
    path("me/calendar/revoke/", api.MyCalendarRevokeView.as_view(), name="api-my-calendar-revoke"),
    path("players/<int:pk>/erase/", api.PersonEraseView.as_view(), name="api-person-erase"),
]
