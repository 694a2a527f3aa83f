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
from numba.experimental import function_type

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
        # the function itself, called by numba's calling convention (see _jit_address)
        self.jit_address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)

    def __wrapper_address__(self) -> int:
        """The address of the compiled function's C wrapper."""
        return self._address

    def signature(self):
        """The numba signature the function was compiled for."""
        return self._signature


# numba calls a first-class function by its own calling convention when the value carries the
# function's address ("jit_addr"), which it reads only from a dispatcher; from any other value
# it calls the C wrapper, whose extra call cost the play 5-10% of its hands a second (340-400k
# heuristic hands/s on one thread, against 390k either way with the address). The hook below
# gives it a KernelPointer's address too (numba looks the function up by name each time a
# value is passed in, cached machine code included); a numba without it keeps the wrapper.
_NUMBA_JIT_ADDRESS = getattr(function_type, "_get_jit_address", None)


def _jit_address(func, sig):
    """numba's ``_get_jit_address``, knowing a :class:`KernelPointer`'s address too."""
    if isinstance(func, KernelPointer):
        return func.jit_address
    return _NUMBA_JIT_ADDRESS(func, sig)


if _NUMBA_JIT_ADDRESS is not None:
    function_type._get_jit_address = _jit_address

_ENGINES: dict = {}


def _argument_types(rules) -> Engine:
    """The argument types of ``play_hand`` and ``play_tricks`` as the drivers call them, for
    the rule set's arrays ``rules``."""
    rules_type = typeof(rules)
    works, tables = solver_arrays(1, 1)
    agents = typeof(new_agents(np.zeros((4, 2), dtype=np.int64), np.zeros((4, 1)),
                               np.zeros(1, dtype=np.uint64), works[0], tables[0], rules.decks))
    masks = typeof(np.zeros(1, dtype=np.uint64))  # hm, and the hands by seat
    record = typeof(np.zeros(1, dtype=np.int64))
    i64 = typeof(np.int64(0))
    return Engine((rules_type, agents, masks, record),
                  (agents, masks, rules_type, record, i64, i64))


_LAST = (None, None)  # the rules arrays asked last, and their engine


def engine_of(rules) -> Engine:
    """The :class:`Engine` (``play_hand``, ``play_tricks`` as pointers) for the rule set's
    arrays ``rules`` (``kernels.cards.rules.RuleArrays``), compiled on first use (or loaded
    from the cache) and kept for the process."""
    global _LAST
    last = _LAST
    if rules is last[0]:  # numba's typeof of the rules costs ~130 us; a bot asks one by one
        return last[1]
    rules_type = typeof(rules)
    engine = _ENGINES.get(rules_type)
    if engine is None:
        types = _argument_types(rules)
        engine = Engine(KernelPointer(play_hand, types.play_hand),
                        KernelPointer(play_tricks, types.play_tricks))
        _ENGINES[rules_type] = engine
    _LAST = (rules, engine)
    return engine


def compile_card_play(rules) -> None:
    """Compile the engine's card play (``play_tricks``, every card player and the solver) for
    the rule set's arrays ``rules`` into the cache, and of the rest only the small kernels that
    build its argument types. The engine's first compile takes minutes of one core, the card
    play last; run in a second process while the first compiles the engine, the first finds
    the card play cached when it gets there (``make demo``: 97 s against 159 s on two
    cores)."""
    play_tricks.compile(_argument_types(rules).play_tricks)
