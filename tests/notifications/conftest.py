import pytest

from notifications.vapid import new_keys

#: One VAPID pair for the notifications tests (push is off without one).
TEST_KEYS = new_keys()


@pytest.fixture(autouse=True)
def _vapid_keys(settings):
    settings.VAPID_PRIVATE_KEY = TEST_KEYS.private
    settings.VAPID_PUBLIC_KEY = TEST_KEYS.public
    return TEST_KEYS
