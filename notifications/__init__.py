"""Notifications: what people are told, on which channel, and when (docs/notifications.md).

Shared below every app, as `marker` is: any app announces something with
`notifications.services.notify` inside the transaction that writes it; this app imports none
of theirs. A message is an outbox row (`Notification`, once per person, event and subject);
its deliveries (email, Web Push, a digest) are sent by Celery after the commit, each once.
"""
