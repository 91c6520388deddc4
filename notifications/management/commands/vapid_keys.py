"""Print a new VAPID key pair for Web Push, as lines for the environment file."""

from django.core.management.base import BaseCommand

from notifications.vapid import new_keys


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair (Web Push) as VAPID_PRIVATE_KEY= and VAPID_PUBLIC_KEY= "
        "lines for the environment file. Keep the private key secret; changing the pair "
        "later means every phone must turn push on again."
    )

    def handle(self, *args, **options) -> None:
        pair = new_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={pair.private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={pair.public}")
