"""The error every user-facing mistake raises: the CLI prints its one-line message and exits 2."""


class UserError(ValueError):
    """Bad input from the user (a card, hand, deal, record, option or file); one-line message."""


class TooLong(UserError):
    """A run refused because it would take longer than the size limit (``--force`` lifts it)."""
