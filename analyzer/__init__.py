"""The Euchre strategy analyzer: plain-Python layer over the numba kernels.

Python API: ``analyzer.odds(hand, variant, ...)`` (see ``analyzer.odds``),
``analyzer.solve_deal`` and ``analyzer.make_rules``.
"""

from .odds import odds  # noqa: F401
from .solve import solve_deal  # noqa: F401
from .variants import make_rules  # noqa: F401
