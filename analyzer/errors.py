"""The error every user-facing mistake raises: the CLI prints its one-line message and exits 2."""


class UserError(ValueError):
    """Bad input from the user (a card, hand, deal, record, option or file); one-line message."""


class TooLong(UserError):
    """A run refused because it would take longer than the size limit: the message says how
    long (``seconds``, the estimate); the front end adds what to do about it (the command
    line's ``--force``, a server's limit)."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds
