"""The engine's errors. Each one leaves the game state exactly as it was."""


class EngineError(Exception):
    """Base of every error the engine raises on bad input."""


class IllegalAction(EngineError):
    """An action that is not legal now: wrong player, wrong step, or against the rules."""


class RecordError(EngineError):
    """A game record that is malformed, corrupt or tampered with (it does not replay)."""


class RulesError(EngineError):
    """A rules set that cannot be played: unknown or conflicting variants, bad seat count."""
