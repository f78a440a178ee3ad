"""Log-in protection: django-axes' lockout check as the first authentication backend."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a username and address that failed too often (django-axes), before any password
    is checked.

    Every log-in over the web comes with its request (the log-in page, the admin, the token
    endpoint). One without a request (Django's test client `login()`, a shell) has no client
    address to count, so it is left to the next backend instead of failing, as axes' own
    backend would, with an error.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
