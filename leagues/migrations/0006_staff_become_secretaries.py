"""Existing deployments keep working: every staff account becomes a secretary of every
league (until now `is_staff` was the secretary). From here on `is_staff` alone grants
nothing league-wise."""

from django.conf import settings
from django.db import migrations


def staff_become_secretaries(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    LeagueRole = apps.get_model("leagues", "LeagueRole")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    staff = list(User.objects.filter(is_staff=True, is_active=True).values_list("pk", flat=True))
    LeagueRole.objects.bulk_create(
        [
            LeagueRole(league_id=league_id, user_id=user_id, role="secretary")
            for league_id in League.objects.values_list("pk", flat=True)
            for user_id in staff
        ],
        ignore_conflicts=True,
    )


def forget_roles(apps, schema_editor):
    apps.get_model("leagues", "LeagueRole").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0005_league_roles"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(staff_become_secretaries, forget_roles)]
