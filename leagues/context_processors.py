"""Template context: what the signed-in user is, for menus."""

from marker.permissions import allowed


def roles(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_secretary": False, "my_teams": []}
    return {
        "is_secretary": allowed(user, "leagues.manage_league"),
        "my_teams": list(user.captained_teams.select_related("season").all()[:5])
        + list(user.vice_captained_teams.select_related("season").all()[:5]),
    }
