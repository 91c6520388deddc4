from django.urls import path

from . import api

urlpatterns = [
    path("friendlies/", api.FriendliesView.as_view(), name="api-friendlies"),
]
