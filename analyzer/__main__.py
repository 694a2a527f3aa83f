"""``python -m analyzer``: the ``euchre`` command."""

from .cli import main

main()
