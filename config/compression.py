"""Responses gzipped for a client that accepts it: pages, JSON, CSV and text. Pictures and PDFs
are compressed already (PNG, WebP, the proxy sheets), so gzip would cost CPU on every request
and weaken their ETags for nothing."""

from __future__ import annotations

from django.middleware.gzip import GZipMiddleware

ALREADY_COMPRESSED = ("image/", "application/pdf", "application/zip")


class GZipText(GZipMiddleware):
    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith(ALREADY_COMPRESSED):
            return response
        return super().process_response(request, response)
