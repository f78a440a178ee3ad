"""The ASGI application `make run` serves (uvicorn): Django's pages and API over HTTP, the
table's push channel over WebSockets (simulator/table/routing.py), and the table's clock, which
runs in every web process while it serves (`TableClock`: a person out of time, or away past
their grace, gets their stand-in bot; docs/operations.md, "The table's push channel")."""

from __future__ import annotations

import asyncio
import logging
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # sets Django up before the consumers are imported

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from simulator.table import announce  # noqa: E402
from simulator.table.routing import websocket_urlpatterns  # noqa: E402
from simulator.table.seating import clock_tick  # noqa: E402

log = logging.getLogger("drifter.clock")


class TableClock:
    """ASGI lifespan: tick the table's clock every `TABLE_CLOCK_SECONDS` while serving. Several
    web processes may tick at once: each table's timeout is taken under its row lock and
    applies once."""

    async def __call__(self, scope, receive, send):
        task = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                announce.serve_on(asyncio.get_running_loop())
                if settings.TABLE_CLOCK_SECONDS:
                    task = asyncio.create_task(self.run(settings.TABLE_CLOCK_SECONDS))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                announce.serve_on(None)
                if task is not None:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

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
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
        "lifespan": TableClock(),
    }
)
