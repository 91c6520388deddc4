"""The paper card's storage fixtures (tests/frames/card_helpers.py), for these tests."""

from tests.frames.card_helpers import card_storage, s3_server  # noqa: F401
