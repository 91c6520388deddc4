"""Template context: what the signed-in user is, for menus."""


def roles(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_site_admin": False, "my_teams": []}
    return {
        # League roles are asked of each page's objects (a secretary of one league is a
        # stranger to another); the menu only knows the site administrator.
        "is_site_admin": bool(user.is_superuser),
        "my_teams": list(user.captained_teams.select_related("season").all()[:5])
        + list(user.vice_captained_teams.select_related("season").all()[:5]),
    }
