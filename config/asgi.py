"""The ASGI application `make run` serves (uvicorn): Django's pages and API over HTTP, the
table's push channel over WebSockets (simulator/table/routing.py), and the table's clock, which
runs in every web process while it serves (`TableClock`: a person out of time, or away past
their grace, gets their stand-in bot; the push channel's people are kept present;
docs/operations.md, "The table's push channel").

HTTP requests run on a fixed set of threads (`LaneHandler`), each keeping its database
connection between requests, as a threaded WSGI server's would."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from asgiref.sync import ThreadSensitiveContext, sync_to_async  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402


class LaneHandler(ASGIHandler):
    """Django's ASGI handler, whose requests run as under a threaded WSGI server: each on one of
    `WEB_THREADS` lasting threads ("lanes"), the middleware and the view in one go.

    - Django's own handler gives every request a thread of its own, whose database connection
      dies with it: every request opened one (on SQLite, its PRAGMAs and functions each time)
      and could keep none. A lane keeps its connection between requests for `CONN_MAX_AGE`
      seconds (the Procfile's web process: 600; checked at each request's start and end as
      under WSGI; the push channel's builds keep theirs on the loop's lasting thread pool);
      a request waits for a free lane.
    - Django's own handler runs the middleware that can run async on the event loop and the
      rest in the request's thread, hopping between the two several times a request (ours mix
      both kinds, and every view is synchronous); here the whole chain is synchronous
      (`load_middleware(is_async=False)`, as for WSGI) and runs in the lane in one hop."""

    def __init__(self, lanes: int):
        # Not ASGIHandler.__init__, which loads the middleware for the event loop.
        self.load_middleware(is_async=False)
        self.executors = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="drifter-lane")
            for _ in range(lanes)
        ]
        self.free: asyncio.Queue[ThreadPoolExecutor] | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP here, not {scope['type']}.")
        if self.free is None:  # made on the server's loop, at its first request
            self.free = asyncio.Queue()
            for executor in self.executors:
                self.free.put_nowait(executor)
        lane = await self.free.get()
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            self.free.put_nowait(lane)

    async def get_response_async(self, request):
        """The middleware and the view, in the request's lane."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from simulator.runs.services import submit_warm  # noqa: E402
from simulator.table import announce, presence  # noqa: E402
from simulator.table.routing import websocket_urlpatterns  # noqa: E402
from simulator.table.seating import clock_tick  # noqa: E402

log = logging.getLogger("drifter.clock")


def settle_memory() -> None:
    """Before the first request: import every view (the URLconf), then set aside everything
    loaded so far from the garbage collector's full collections (`gc.freeze`). A full
    collection walks every object the process holds; with Django, DRF and the engines loaded
    that took a few hundred ms on this project's machines, every few seconds under load, with
    every request and push of the process waiting (docs/performance.md)."""
    get_resolver().url_patterns  # noqa: B018 - imports every view now, not at the first request
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def warm_submission() -> None:
    """A run's first submission as fast as the next (runs.services.submit_warm), in a thread
    of its own at start-up; its database connection is closed when it is done."""
    try:
        submit_warm()
    finally:
        connections.close_all()


class TableClock:
    """ASGI lifespan: tick the table's clock every `TABLE_CLOCK_SECONDS` while serving, and
    renew the presence of the people whose push channel this process holds every second.
    Several web processes may tick at once: each table's timeout is taken under its row lock
    and applies once."""

    def __init__(self, settle: bool = True):
        self.settle = settle  # settle_memory() at start-up (not in a test process's server)

    async def __call__(self, scope, receive, send):
        tasks: list[asyncio.Task] = []
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self.settle:
                    settle_memory()
                announce.serve_on(asyncio.get_running_loop())
                if self.settle:  # a served process, not a test's
                    threading.Thread(target=warm_submission, name="warm", daemon=True).start()
                tasks.append(asyncio.create_task(self.present()))
                if settings.TABLE_CLOCK_SECONDS:
                    tasks.append(asyncio.create_task(self.run(settings.TABLE_CLOCK_SECONDS)))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                announce.serve_on(None)
                for task in tasks:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def present(self) -> None:
        renew = database_sync_to_async(presence.renew_due, thread_sensitive=False)
        while True:
            await asyncio.sleep(1.0)
            if presence.held():
                try:
                    await renew()
                except Exception:  # a failing renewal is logged and the next one tries again
                    log.exception("renewing the push channel's people's presence failed")

    async def run(self, every: float) -> None:
        tick = database_sync_to_async(clock_tick)
        while True:
            await asyncio.sleep(every)
            try:
                await tick()
            except Exception:  # a failing tick is logged and the next one tries again
                log.exception("the table clock's tick failed")


application = ProtocolTypeRouter(
    {
        "http": LaneHandler(settings.WEB_THREADS),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
        "lifespan": TableClock(),
    }
)
