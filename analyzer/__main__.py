"""``python -m analyzer``: the ``euchre`` command."""

from .launch import main

main()
