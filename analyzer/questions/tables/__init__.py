"""Tables and reports of a variant, and a deal solved: the strategy tables played by a method
and written (``tables``: ``build_tables``), the report built from them and a reviewed file
(``report``: ``build_report``), and a whole deal solved double dummy with the choices a side
still has made best (``solve``: ``solve_deal``)."""

from ...exports import lazy_exports

EXPORTS = {
    "report": ("build_report", "tables_dir"),
    "solve": ("SolveResult", "solve_deal"),
    "tables": ("build_tables", "table_meta", "write_tables"),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
