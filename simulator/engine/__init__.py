"""Drifter's rules engine: pure Python, no Django, no apps. See docs/game-record.md."""
