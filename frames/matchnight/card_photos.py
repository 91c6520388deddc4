"""The paper card: photographs of the signed score card.

A photo is checked to be an image (Pillow), turned upright from its EXIF orientation,
shrunk to at most `MAX_SIDE` pixels a side, and re-encoded as a JPEG carrying no metadata at
all (a phone's photo holds where it was taken: GPS). It is stored in the default storage
(the filesystem, or S3-compatible object storage: settings `MEDIA_STORAGE`) under a random
name, with a thumbnail, and served only by `views.card_photo`, which checks who may see it.
(docs/paper-card.md). The fixtures without a card: `nocard.py`.
"""

from __future__ import annotations

import io
import secrets
from datetime import datetime
from typing import IO, Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from PIL import Image, ImageOps, UnidentifiedImageError

from frames.models import CardPhoto, Match, MatchLog
from marker.errors import DomainError
from marker.permissions import require

MAX_BYTES = 15 * 1024 * 1024
MAX_SIDE = 2000
THUMB_SIDE = 320
MAX_PHOTOS = 12
#: Beyond this many pixels a file is refused before it is decoded (a decompression bomb).
MAX_PIXELS = 80_000_000


def _refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message, field="photo")


def _jpeg(image: Image.Image, side: int, quality: int) -> tuple[bytes, int, int]:
    """`image` shrunk to fit `side` × `side`, as a JPEG with no metadata (no EXIF, no XMP,
    no ICC profile, no comment): a new image of the pixels only."""
    copy = image.copy()
    copy.thumbnail((side, side), Image.Resampling.LANCZOS)
    clean = Image.new("RGB", copy.size)
    clean.paste(copy)
    out = io.BytesIO()
    clean.save(out, format="JPEG", quality=quality, optimize=True, progressive=True)
    return out.getvalue(), clean.width, clean.height


def card_image_process(upload: IO[bytes], *, size: int) -> tuple[bytes, bytes, int, int]:
    """The stored image and its thumbnail (JPEG bytes, no metadata) and the image's width
    and height; DomainError for a file too large or not an image."""
    if size > MAX_BYTES:
        raise _refuse(
            "card_too_large",
            f"The photo is {size / 1024 / 1024:.1f} MB: at most {MAX_BYTES // 1024 // 1024} MB.",
        )
    not_image = _refuse(
        "card_not_image", "That file is not a photo Marker can read: send a JPEG, PNG or WebP."
    )
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            if probe.width * probe.height > MAX_PIXELS:
                raise _refuse("card_too_large", "The photo has too many pixels to be a card.")
            probe.verify()
        upload.seek(0)
        with Image.open(upload) as opened:
            upright = ImageOps.exif_transpose(opened)
            upright.load()
            rgb = upright.convert("RGB")
    except DomainError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise not_image from None
    image, width, height = _jpeg(rgb, MAX_SIDE, 85)
    thumb, _, _ = _jpeg(rgb, THUMB_SIDE, 75)
    return image, thumb, width, height


@transaction.atomic
def card_photo_add(
    *, match: Match, upload: IO[bytes], size: int, actor: Any, now: datetime | None = None
) -> CardPhoto:
    """Store a photo of the match's signed card (a captain, a referee of the match or a
    results secretary). Several are allowed (front and back), up to `MAX_PHOTOS`."""
    now = now or timezone.now()
    require(
        actor,
        "frames.upload_card",
        match,
        message="Only the match's captains, its referees and the league's officers can add a "
        "photo of the card.",
    )
    # No lock on the match: decoding and storing a photo takes a moment, and two phones
    # racing past the limit store a thirteenth photo, no harm.
    if CardPhoto.objects.filter(match=match).count() >= MAX_PHOTOS:
        raise _refuse("card_too_many", f"This match has {MAX_PHOTOS} photos already.")
    image, thumb, width, height = card_image_process(upload, size=size)
    token = secrets.token_urlsafe(24)
    photo = CardPhoto(
        match=match,
        width=width,
        height=height,
        size=len(image),
        uploaded_by=actor,
        uploaded_at=now,
    )
    try:
        photo.image.save(f"cards/{token}.jpg", ContentFile(image), save=False)
        photo.thumbnail.save(f"cards/{token}-thumb.jpg", ContentFile(thumb), save=False)
        with transaction.atomic():
            photo.save()
            MatchLog.add(match, actor, "card_photo", now, photo=photo.pk)
    except Exception:
        # Nothing stored without its row (a rollback of an enclosing transaction later can
        # still leave the files: unreachable, under random names).
        for field in (photo.image, photo.thumbnail):
            if field.name:
                field.storage.delete(field.name)
        raise
    return photo


@transaction.atomic
def card_photo_delete(*, photo: CardPhoto, actor: Any, now: datetime | None = None) -> None:
    """Take a photo away (a wrong one): whoever added it, or a results secretary."""
    now = now or timezone.now()
    mine = actor is not None and photo.uploaded_by_id == getattr(actor, "pk", None)
    if not mine:
        require(
            actor,
            "frames.settle_dispute",
            photo.match,
            message="Only whoever added the photo, or the league's officers, can remove it.",
        )
    names = [photo.image.name, photo.thumbnail.name]
    storage = photo.image.storage
    MatchLog.add(photo.match, actor, "card_photo_removed", now, photo=photo.pk)
    photo.delete()
    transaction.on_commit(lambda: [storage.delete(name) for name in names if name])
