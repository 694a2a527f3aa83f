"""The hand engine handed to the drivers as function pointers (numba's first-class functions).

numba links every jitted function a kernel calls into the kernel's own machine code and
optimizes the whole again: each driver that called ``play_hand`` directly compiled the whole
hand engine once more (the auction, the exchanges, every card player and the solver), 30-85 s
each on a first run, on top of the engine's own compile. A driver that takes the engine as an
argument of numba's ``FunctionType`` calls it through a pointer instead: the engine is compiled
once (and cached), each driver compiles only its own code, and a driver's cached machine code
holds no address (the pointer is read from the argument each call).

:func:`engine_of` gives the :class:`Engine` of a rule set's arrays; the drivers take it as one
argument and call ``engine.play_hand(rules, ag, hm, rec)`` and ``engine.play_tricks(ag, hands,
rules, rec, active, leader)`` as they called the functions. Plain Python (no jitted code here):
it asks numba for the compiled functions and their addresses.
"""

from collections import namedtuple

import numpy as np
from numba import typeof
from numba.core.types.function_type import WrapperAddressProtocol

from .engine import new_agents, play_hand, solver_arrays
from .tricks import play_tricks

Engine = namedtuple("Engine", ["play_hand", "play_tricks"])


class KernelPointer(WrapperAddressProtocol):
    """A kernel compiled for one signature, passed to other kernels as a first-class function
    (typed ``FunctionType`` by that signature, whatever the process: a driver taking it is
    cached like any other). Takes the jitted function and its argument types."""

    def __init__(self, kernel, argtypes: tuple):
        kernel.compile(argtypes)  # from the cache when it is there
        result = kernel.overloads[argtypes]
        self._signature = result.signature
        self._address = result.library.get_pointer_to_function(
            result.fndesc.llvm_cfunc_wrapper_name)

    def __wrapper_address__(self) -> int:
        """The address of the compiled function's C wrapper."""
        return self._address

    def signature(self):
        """The numba signature the function was compiled for."""
        return self._signature


_ENGINES: dict = {}


def engine_of(rules) -> Engine:
    """The :class:`Engine` (``play_hand``, ``play_tricks`` as pointers) for the rule set's
    arrays ``rules`` (``kernels.cards.rules.RuleArrays``), compiled on first use (or loaded
    from the cache) and kept for the process."""
    rules_type = typeof(rules)
    engine = _ENGINES.get(rules_type)
    if engine is None:
        works, tables = solver_arrays(1, 1)
        agents = new_agents(np.zeros((4, 2), dtype=np.int64), np.zeros((4, 1)),
                            np.zeros(1, dtype=np.uint64), works[0], tables[0], rules.decks)
        agents_type = typeof(agents)
        masks = typeof(np.zeros(1, dtype=np.uint64))  # hm, and the hands by seat
        record = typeof(np.zeros(1, dtype=np.int64))
        i64 = typeof(np.int64(0))
        engine = Engine(
            KernelPointer(play_hand, (rules_type, agents_type, masks, record)),
            KernelPointer(play_tricks, (agents_type, masks, rules_type, record, i64, i64)))
        _ENGINES[rules_type] = engine
    return engine
