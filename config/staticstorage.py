"""The static files' storage: WhiteNoise's gzipped copies under content-hashed names, so a
page links `site.3f2a9c.css` and browsers keep it for a year (WhiteNoise marks a hashed name
immutable) while a changed file gets a new name.

Until `collectstatic` has written the manifest (the tests, a fresh checkout served with DEBUG
on), templates link the plain names, which every mode still serves."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        if not self.hashed_files:  # nothing collected here yet
            return name
        return super().stored_name(name)
