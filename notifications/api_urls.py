from django.urls import path

from . import api

urlpatterns = [
    path("notifications/push/", api.PushView.as_view(), name="api-notifications-push"),
]
