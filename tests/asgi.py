"""A real ASGI server for tests: uvicorn in a thread of the test process, serving
`config.asgi`'s application (pages, API, the table's push channel and its clock) on the test
database, as `make run` serves it. Static files are served as Django's live server does."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

import uvicorn
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler


@dataclass
class AsgiServer:
    url: str
    ws_url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def application():
    from config.asgi import LaneHandler, TableClock
    from simulator.table.routing import websocket_urlpatterns

    return ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(LaneHandler(4)),
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
            "lifespan": TableClock(settle=False),
        }
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Remote:
    """A server in another process (its `url` and `ws_url`)."""

    url: str
    ws_url: str


def wait_for(url: str, process, seconds: float = 60) -> Remote:
    """A server process's address once it answers /healthz."""
    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server at {url} exited with {process.returncode}")
        try:
            if requests.get(url + "/healthz", timeout=2).status_code == 200:
                return Remote(url, url.replace("http://", "ws://"))
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {seconds} s")


def start() -> AsgiServer:
    """uvicorn on a free port of 127.0.0.1, started (its clock ticking) before this returns."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(  # as the Procfile serves it
        application(), lifespan="on", log_level="warning", ws="websockets-sansio",
        ws_per_message_deflate=False,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test ASGI server did not start")
        time.sleep(0.02)
    return AsgiServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", server, thread)
