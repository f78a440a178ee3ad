"""The table's push channel URL (config/asgi.py routes WebSockets here)."""

from django.urls import path

from simulator.table.consumers import TableConsumer

websocket_urlpatterns = [path("ws/tables/<int:pk>/", TableConsumer.as_asgi())]
