"""The draws of `random.Random` written out, compiled (simulator/engine/compiled.py), so that a
game's shuffles and a random bot's picks run no interpreted frame: random.py's `shuffle` and
`randrange` were most of a new game's set-up and a tenth of a random-bot shootout. They take the
generator's `getrandbits` and give the numbers the standard library gives for the same state,
leaving the generator where it would (tests/simulator/engine/test_core.py holds them to it).

The chance classes themselves (chance.py) stay interpreted: a game's state holding one is
copied (copy.deepcopy: what-ifs, a search's determinizations) and pickled, which a compiled
class with constructor arguments refuses.
"""

from __future__ import annotations

from collections.abc import Callable


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number from 0 to n - 1 (n >= 1) as `random.Random(seed)` draws it, from its
    `getrandbits`: CPython 3.11's `_randbelow_with_getrandbits(n)`, which `randrange(n)`,
    `randint` and `shuffle` use, draws `n.bit_length()` bits until the number is below n.
    Written out so that the compiled build draws with no interpreted frame (random.py's are
    most of a new game's shuffle); tests/simulator/engine/test_core.py holds every draw, shuffle
    and roll to the standard library's."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffled_order(getrandbits: Callable[[int], int], n: int) -> list[int]:
    """The order `random.Random.shuffle` puts `list(range(n))` in: its Fisher-Yates, each swap
    drawn with `below`."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(getrandbits, i + 1)
        order[i], order[j] = order[j], order[i]
    return order
