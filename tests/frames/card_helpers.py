"""Helpers for the paper card's tests (no tests here): a phone's JPEG with GPS in its EXIF,
and the storage a test stores card photos in: the filesystem (a temporary directory) or
an S3-compatible server (moto's, a real HTTP server on a free port, not its in-process
mock), chosen by `card_storage`'s parameter."""

from __future__ import annotations

import io
import socket
import uuid

import pytest
from PIL import ExifTags, Image, ImageDraw

ORIENTATION = 0x0112
#: Where the photo was taken: the Kings Head, Norwich.
GPS = {
    ExifTags.GPS.GPSLatitudeRef: "N",
    ExifTags.GPS.GPSLatitude: (52.0, 37.0, 48.0),
    ExifTags.GPS.GPSLongitudeRef: "E",
    ExifTags.GPS.GPSLongitude: (1.0, 17.0, 49.0),
}


def phone_jpeg(width: int = 2400, height: int = 1200, orientation: int = 6) -> bytes:
    """A JPEG as a phone takes it: landscape pixels with an EXIF orientation saying "turn
    me a quarter", the phone's make, and where it was (GPS). A red mark at the top left of
    the pixels (the bottom left once turned upright)."""
    image = Image.new("RGB", (width, height), (240, 240, 230))
    ImageDraw.Draw(image).rectangle((0, 0, width // 8, height // 8), fill=(220, 0, 0))
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Card Camera 3"
    exif.get_ifd(ExifTags.IFD.GPSInfo).update(GPS)
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif, quality=90)
    data = out.getvalue()
    # The photo does carry its location (else the tests below could not fail).
    with Image.open(io.BytesIO(data)) as check:
        assert check.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    return data


def has_no_metadata(data: bytes) -> bool:
    """No EXIF (so no GPS), no XMP, no ICC profile, no comment in a stored JPEG."""
    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        return (
            image.format == "JPEG"
            and not exif
            and not exif.get_ifd(ExifTags.IFD.GPSInfo)
            and not {"exif", "xmp", "icc_profile", "comment"} & set(image.info)
            and b"Exif" not in data[:4096]
            and b"PhoneMaker" not in data
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def s3_server():
    """moto's S3-compatible server, over HTTP on a free port, for the session."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


S3_KEYS = {"access_key": "testing", "secret_key": "testing", "region_name": "eu-west-2"}


def s3_client(endpoint: str):
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=S3_KEYS["access_key"],
        aws_secret_access_key=S3_KEYS["secret_key"],
        region_name=S3_KEYS["region_name"],
    )


@pytest.fixture(params=["filesystem", "s3"])
def card_storage(request, settings, tmp_path):
    """The default storage for this test: a temporary directory, or a new bucket on the
    S3-compatible server (as `MEDIA_STORAGE=s3` configures it, config/settings.py).
    Yields a function that reads a stored name back as bytes, straight from the storage's
    backend (the directory, or the bucket through boto3), not through Django."""
    if request.param == "filesystem":
        settings.STORAGES = {
            **settings.STORAGES,
            "default": {
                "BACKEND": "django.core.files.storage.FileSystemStorage",
                "OPTIONS": {"location": str(tmp_path)},
            },
        }

        def read(name: str) -> bytes:
            return (tmp_path / name).read_bytes()

        def names() -> list[str]:
            return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())

    else:
        endpoint = request.getfixturevalue("s3_server")
        bucket = f"marker-cards-{uuid.uuid4().hex[:12]}"
        client = s3_client(endpoint)
        client.create_bucket(
            Bucket=bucket,
            CreateBucketConfiguration={"LocationConstraint": S3_KEYS["region_name"]},
        )
        settings.STORAGES = {
            **settings.STORAGES,
            "default": {
                "BACKEND": "storages.backends.s3.S3Storage",
                "OPTIONS": {
                    "bucket_name": bucket,
                    "endpoint_url": endpoint,
                    "addressing_style": "path",
                    "default_acl": None,
                    "file_overwrite": False,
                    **S3_KEYS,
                },
            },
        }

        def read(name: str) -> bytes:
            return client.get_object(Bucket=bucket, Key=name)["Body"].read()

        def names() -> list[str]:
            listed = client.list_objects_v2(Bucket=bucket).get("Contents", [])
            return sorted(item["Key"] for item in listed)

    read.names = names  # type: ignore[attr-defined]
    read.kind = request.param  # type: ignore[attr-defined]
    return read
