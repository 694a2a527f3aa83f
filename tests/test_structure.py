"""The codebase keeps its shape: one home for each rule (no code outside the variant specs asks
which variant it is), layers that import only downwards and never in a cycle, one wrapper per
batch kernel, and functions short enough to read."""

import ast
import importlib
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.structure

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("analyzer", "kernels", "reports")
VARIANT_NAMES = {"bid", "ghost", "cutthroat", "knock"}
SPECS = ROOT / "analyzer" / "game" / "variants.py"
# analyzer's sub-packages, lowest first: a module may import its own layer and those below
LAYERS = ["errors", "numbers", "stats", "outputs", "game", "compute", "strategy", "questions",
          "bench", "bench_against", "serve", "cli"]
BATCH_KERNELS = {"solve_batch", "card_values_batch", "play_batch", "replay_hand", "play_games",
                 "run_chunk", "point_state", "decision_rows_batch"}
LONG_KERNEL_ALLOWED = {("kernels/solver/search.py", "_search")}  # the unrolled trick search


def sources(*packages):
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (function-level imports
    count: a cycle hidden inside a function is still a cycle)."""
    tree = ast.parse(path.read_text())
    package = module_name(path) if path.name == "__init__.py" else \
        module_name(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            if node.module:  # ``from . import common`` imports the module, as its package's
                out.add(target)  # ``from .common import x`` does: the package is its parent
            out.update(f"{target}.{a.name}" for a in node.names)
    return out


def project_graph() -> dict[str, set[str]]:
    names = {module_name(p): p for p in sources(*PACKAGES)}
    graph = {}
    for name, path in names.items():
        graph[name] = {m for m in imports_of(path) if m in names and m != name}
    return graph


def test_no_code_asks_which_variant_it_is():
    found = []
    for path in sources("analyzer", "reports", "kernels"):
        if path == SPECS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            for side in [node.left, *node.comparators]:
                values = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) \
                    else [side]
                if any(isinstance(v, ast.Constant) and v.value in VARIANT_NAMES
                       for v in values):
                    found.append(f"{rel(path)}:{node.lineno}")
    assert not found, f"comparisons with variant names: {found}"


# small rules with one home each (issue 23): the spelled-out form anywhere else fails
ONE_HOME = {
    "a card's natural suit (natural_suit)": (r"(&\s*31|%\s*32)\s*\)\s*(>>\s*3|//\s*8)",
                                             "kernels/cards/layout.py"),
    "a partnership game (partnered, cfg[C.PARTNERS], rules.partnership)": (
        r"players\s*==\s*4", "kernels/cards/layout.py"),
    "the renege penalty (RENEGE_PENALTY)": (r"RENEGE_PENALTY\s*=|POINTS[^\n]*-=\s*2\b",
                                            "kernels/cards/codes.py"),
    "the tricks a contract needs (contract_needs)": (
        r"<\s*ASK\s+else|\(K\.ASK,\s*K\.MOON\)|>=\s*K\.ASK,", "kernels/cards/seating.py"),
    "a forced run: the calls heard replayed, the asker's own choices (kernels.drivers.forced)": (
        r"IN\.(F_[A-Z]+|FORCED)\]\s*=[^=]", "kernels/drivers/forced.py"),
    "a fresh record (kernels.deal.record.reset_record)": (r"rec\[R\.TREMBLED\]\s*=\s*0\b",
                                                     "kernels/deal/record.py"),
    "fresh instructions (kernels.deal.record.reset_instructions)": (
        r"\(IN\.F_ALONE,\s*IN\.F_DISCARD", "kernels/deal/record.py"),
    "the rule-of-thumb exchanges (kernels.hand.policies chooses them)": (
        r"(?<!def )\b(give_card|discard_card|keep_best)\(", "kernels/hand/policies.py"),
    "the bid ladder (kernels.hand.auction.ladder_mask; rules.bid_ladder reads it)": (
        r"range\(\s*3\s*,\s*[^)]*(HAND|hand_size)|\(\s*(K\.)?PASS\s*,\s*3\b",
        "kernels/hand/auction.py"),
    "a decision point's slots (kernels.drivers.forced: new_point, hear_call, set_inference, "
    "set_solving)": (
        r"\bPT\.[A-Z_]+(\s*\+[^\]]*)?\]\s*(\|)?=[^=]", "kernels/drivers/forced.py"),
    # issue 41: it was spelled four ways (the joker case, the suit alone twice, the round)
    "whether trump was made on the upcard (kernels.bidding.exchange_rules.made_on_upcard)": (
        r"==\s*(L\.)?JOKER\s+or\s+[\w.]*natural_suit\(|"
        r"natural_suit\([^()]*\)\s*==\s*\w*trump\b|\btrump\s*==\s*[\w.]*natural_suit\(|"
        r"R\.ROUND\]\s*(!=|==)\s*1\b", "kernels/bidding/exchange_rules.py"),
    "the cards taken in an exchange (kernels.bidding.exchange_rules.exchange_pool)": (
        r"\bhand\s*\|\s*taken\b|hands\[decl\w*\]\s*\|\s*hands\[3\]|\|\s*dummy\b|"
        r"hands\[dealer\]\s*\|=|\bhand\s*\|\s*\(\s*(1|ONE)\s*<<\s*(np\.uint64\()?\s*up\b",
        "kernels/bidding/exchange_rules.py"),
    "the trump a call makes (kernels.cards.codes.call_trump)": (
        r"-\s*(K\.|KC\.)?NAME\b", "kernels/cards/codes.py"),
    "the partner's seat (kernels.cards.seating.partner)": (
        r"\(\s*\w+(\.\w+)?(\([^()]*\))?\s*\+\s*2\s*\)\s*(&\s*3|%\s*4)|"
        r"\b(seat|leader|s|decl|declarer|dealer)\s*\^\s*2\b",
        "kernels/cards/seating.py"),
    # issue 41: a uint64 one was defined in 13 kernel modules, the twin masks in two, the
    # solver's depth in the solver and again as 14 in W's layout
    "the uint64 one (kernels.cards.bits.ONE)": (
        r"^\s*ONE\s*(:[^=]*)?=[^=]|^\s*[A-Z_][A-Z0-9_]*\s*=\s*(np\.)?uint64\(1\)",
        "kernels/cards/bits.py"),
    "the double deck's twin masks (kernels.cards.bits.EVEN_BITS, ODD_BITS)": (
        r"^\s*(EVEN_BITS|ODD_BITS)\s*(:[^=]*)?=[^=]|(?i:0x5{16}|0xa{16})", "kernels/cards/bits.py"),
    "the tricks a search nests (kernels.slots.MAX_TRICKS_DEEP)": (
        r"^\s*MAX_TRICKS_DEEP\s*(:[^=]*)?=[^=]", "kernels/slots.py"),
}


RULES_ARRAYS = {"cfg", "score_table", "to_norm", "from_norm"}


def test_kernels_take_the_rules_as_one_value():
    """No kernel takes two of the rules' arrays loose: it takes ``RuleArrays`` (issue 23)."""
    found = []
    for path in sources("kernels"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and \
                    len(RULES_ARRAYS & {a.arg for a in node.args.args}) >= 2:
                found.append(f"{rel(path)}:{node.name}")
    assert not found


@pytest.mark.parametrize("rule", sorted(ONE_HOME))
def test_each_small_rule_has_one_home(rule):
    import re

    pattern, home = ONE_HOME[rule]
    found = [f"{rel(path)}:{n}" for path in sources(*PACKAGES) if rel(path) != home
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(pattern, line)]
    assert not found, f"{rule} spelled out again: {found}"
    assert any(re.search(pattern, line) for line in (ROOT / home).read_text().splitlines())


def test_random_cards_come_from_the_kernels_streams():
    """The analyzer draws no cards itself: deals come from ``kernels.deal.dealing`` and a PIMC
    world from ``kernels.play.pimc.sample_world`` (the review once had its own sampler with its own
    retry rules), each on the kernels' seeded streams. The benchmark's fixed deals excepted."""
    import re

    found = [f"{rel(path)}:{n}" for path in sources("analyzer")
             if rel(path) != "analyzer/bench.py"
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"np\.random|default_rng|^\s*(import random|from random )", line)]
    assert not found, f"random draws outside the kernels: {found}"


def test_four_players_are_the_partnership_games():
    """``kernels.cards.layout.partnered`` (the kernels that see only the player count) agrees with
    every variant spec's ``partnership``."""
    from analyzer.game.variants import VARIANTS
    from kernels.cards.layout import partnered

    for spec in VARIANTS.values():
        assert partnered(spec.players) == spec.partnership, spec.name


def test_the_kernels_know_no_variant_codes():
    for path in sources("kernels"):
        names = {n.id for n in ast.walk(ast.parse(path.read_text()))
                 if isinstance(n, ast.Name)}
        assert not names & {"BID", "GHOST", "CUTTHROAT", "KNOCK", "C_VARIANT"}, rel(path)


def test_no_import_cycles():
    graph = project_graph()
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycle = stack[stack.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "analyzer" or len(parts) < 2:
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def test_layers_import_only_downwards():
    broken = []
    for path in sources(*PACKAGES):
        name, imported = module_name(path), imports_of(path)
        top = name.split(".")[0]
        if top == "analyzer" and any(m == "numba" or m.startswith("numba.") for m in imported):
            broken.append(f"{name} imports numba")
        if top == "reports" and any(m.split(".")[0] == "kernels" for m in imported):
            broken.append(f"{name} imports kernels")
        if top == "reports" and any(m.startswith("analyzer") and not any(
                m == a or m.startswith(a + ".") for a in ("analyzer.stats", "analyzer.outputs"))
                for m in imported):
            broken.append(f"{name} imports the analyzer beyond its statistics and outputs")
        if top == "kernels" and any(m.split(".")[0] in ("analyzer", "reports")
                                    for m in imported):
            broken.append(f"{name} imports the layers above the kernels")
        mine = layer_of(name)
        if mine is None:
            continue
        for m in imported:
            theirs = layer_of(m)
            if theirs is not None and theirs > mine:
                broken.append(f"{name} imports {m}")
    assert not broken, broken


def test_batch_kernels_have_one_wrapper_each():
    callers = {}
    for path in sources("analyzer", "reports"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kernels"):
                for alias in node.names:
                    if alias.name in BATCH_KERNELS:
                        callers.setdefault(alias.name, set()).add(rel(path))
            if isinstance(node, ast.Attribute) and node.attr in BATCH_KERNELS:
                callers.setdefault(node.attr, set()).add(rel(path))
    for kernel, paths in callers.items():
        assert all(p.startswith("analyzer/compute/") for p in paths), (kernel, paths)
        assert len(paths) == 1, (kernel, paths)
    assert set(callers) == BATCH_KERNELS


def long_functions(package: str, limit: int) -> list[str]:
    out = []
    for path in sources(package):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > limit and (rel(path), node.name) not in LONG_KERNEL_ALLOWED:
                    out.append(f"{rel(path)}:{node.name} ({length} lines)")
    return out


ARRAY_MAKERS = {"empty", "zeros", "full", "ones", "array", "empty_like", "zeros_like",
                "full_like", "arange"}


def test_kernels_without_nrt_allocate_nothing():
    """A kernel compiled without NRT (``kernels.config.NRT_FREE``: no reference counting of the
    arrays it passes) may not make an array: numba refuses most such code, but a copied
    slice or a returned new array would otherwise slip through as a leak or a dangling
    array. The others allocate and keep NRT."""
    found = []
    for path in sources("kernels"):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef) or not any(
                    "NRT_FREE" in ast.unparse(d) for d in node.decorator_list):
                continue
            for sub in ast.walk(node):
                f = sub.func if isinstance(sub, ast.Call) else None
                if isinstance(f, ast.Attribute) and (f.attr == "copy" or (
                        isinstance(f.value, ast.Name) and f.value.id == "np" and
                        f.attr in ARRAY_MAKERS)):
                    found.append(f"{rel(path)}:{node.name}:{sub.lineno}")
    assert not found


def test_the_solver_depth_is_written_once():
    """W's layout follows ``kernels.slots.MAX_TRICKS_DEEP`` (its move lists, 64 words a trick):
    ``W.MEMO = 16 + 64 * 14`` spelled the depth again, so changing one left the other."""
    import re

    from kernels.slots import MAX_TRICKS_DEEP, W

    found = [f"{rel(path)}:{n}" for path in sources("kernels")
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\b64\s*\*\s*14\b|\b14\s*\*\s*64\b", line)]
    assert not found, f"the solver's depth spelled as a number: {found}"
    assert W.MEMO - W.MOVES == 64 * MAX_TRICKS_DEEP


def test_the_long_function_allowances_name_long_functions():
    """Each allowance names a function of a module the walk reads (a sub-package's too) that
    is indeed long: an allowance left behind by a move would hide nothing, and one whose
    module the walk missed would check nothing."""
    walked = {rel(p) for p in sources("kernels")}
    for path, name in LONG_KERNEL_ALLOWED:
        assert path in walked, path
        lengths = [node.end_lineno - node.lineno + 1
                   for node in ast.walk(ast.parse((ROOT / path).read_text()))
                   if isinstance(node, ast.FunctionDef) and node.name == name]
        assert lengths and max(lengths) > 120, (path, name, lengths)


def test_functions_are_short():
    assert not long_functions("analyzer", 60)
    assert not long_functions("reports", 60)
    assert not long_functions("kernels", 120)


def parameter_counts(package: str):
    """``(where, count)`` of every function of ``package``: its parameters, ``self`` and
    ``cls`` not counted."""
    for path in sources(package):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
                count = len(names) + (a.vararg is not None) + (a.kwarg is not None)
                count -= bool(names) and names[0] in ("self", "cls")
                yield f"{rel(path)}:{node.name}", count


def test_analyzer_functions_take_value_objects_not_long_argument_lists():
    """Issue 23: no analyzer or reports function takes more than 8 parameters (PlayModel,
    Effort and the like instead), except the typer commands (one parameter per option) and
    the public API's keyword options, which build the value objects."""
    import analyzer

    api = {f"{module.replace('.', '/')}.py:{name}" for name, module in analyzer._API.items()}
    found = [f"{where} ({n})" for package in ("analyzer", "reports")
             for where, n in parameter_counts(package)
             if n > 8 and where not in api and not where.startswith("analyzer/cli/")]
    assert not found, f"functions with long argument lists: {found}"


def test_kernel_functions_take_at_most_ten_arguments():
    """Issue 23: no kernel function takes more than 10 parameters: the rules travel as one
    RuleArrays, a decision point as one PT row, a query's dealing as one Dealing, a
    position's numbers as one Q spec, the trick as the engine's TR array."""
    found = [f"{where} ({n})" for where, n in parameter_counts("kernels") if n > 10]
    assert not found, f"kernel functions with more than 10 parameters: {found}"


def test_every_public_function_says_what_it_takes_and_returns():
    missing = []
    for path in sources(*PACKAGES):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and \
                    not node.name.startswith("_") and ast.get_docstring(node) is None:
                missing.append(f"{rel(path)}:{node.name}")
    assert not missing, missing


DOTTED = re.compile(r"\b((?:analyzer|kernels|reports)(?:\.[A-Za-z_]\w*)+)")


def _resolves(ref: str) -> bool:
    """Whether a dotted name (``kernels.solver.search``, ``analyzer.game.scoring.net_points``)
    is a module, or an attribute of one, that exists."""
    parts = ref.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_what_the_docstrings_and_docs_point_at_exists():
    """A docstring, comment or page that names a module or function by its dotted path
    (``kernels.solver.partition_table``, ``analyzer.compute.point.state_of``) sends a reader
    there: after a move it sent them nowhere. Every such name resolves (a family by its prefix,
    ``kernels.cards.codes.E_``, and a file name, ``reports.md``, are not names)."""
    files = [*sources(*PACKAGES), *sorted((ROOT / "tests").glob("*.py")),
             *sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
    found, broken = 0, []
    for path in files:
        for i, line in enumerate(path.read_text().splitlines(), 1):
            for ref in DOTTED.findall(line):
                if ref.endswith(("_", ".md", ".py")) or ref.split(".")[-1] in ("md", "py"):
                    continue
                found += 1
                if not _resolves(ref):
                    broken.append(f"{rel(path)}:{i} {ref}")
    assert found > 300 and not broken, broken


PATH = re.compile(r"(?<![\w/.])((?:analyzer|kernels|reports|tests|docs)/[\w/]+\.(?:py|md))\b")


def test_the_files_the_docs_name_exist():
    """The docs and the code name files by their paths (``tests/test_decide.py``,
    ``kernels/solver/search.py``): after a rename a reader found nothing there. (A history
    page names the files of its time.)"""
    files = [*sources(*PACKAGES), *sorted((ROOT / "tests").glob("*.py")),
             *sorted(p for p in (ROOT / "docs").glob("*.md") if not p.stem.endswith("history")),
             ROOT / "README.md", ROOT / "Makefile"]
    named = [(rel(path), i, ref) for path in files
             for i, line in enumerate(path.read_text().splitlines(), 1)
             for ref in PATH.findall(line)]
    assert len(named) > 50
    assert [f"{p}:{i} {ref}" for p, i, ref in named if not (ROOT / ref).exists()] == []


def test_the_readme_is_a_front_door():
    """The README is short, starts with the two commands the Makefile has, links only to
    pages that exist, and its table of commands names exactly the commands there are."""
    import typer.main

    from analyzer.cli import app

    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) < 10_240
    head = readme.split("```")[1]
    assert "make demo" in head and "make test" in head
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme)
    assert len(links) > 10 and [link for link in links if not (ROOT / link).exists()] == []
    command = typer.main.get_command(app)
    names = {n for n, c in command.commands.items() if not getattr(c, "commands", None)} | \
        {f"{g} {n}" for g, c in command.commands.items() for n in getattr(c, "commands", {})}
    table = readme[readme.index("## Commands"):readme.index("## Performance")]
    listed = set(re.findall(r"`euchre ([a-z]+(?: (?:solve|odds|play|cluster|serve|show|build"
                            r"))?)", table))
    assert names - {"strategy"} <= listed | {n for n in names if n.startswith("strategy")}, \
        names - listed
    assert listed <= names | {"strategy"}, listed - names


@pytest.mark.parametrize("module", sorted(module_name(p) for p in sources(*PACKAGES)
                                           if p.name != "__main__.py"))
def test_every_module_imports(module):
    """Every name a module imports exists (a renamed function breaks its importers here, not
    when a rarely run command such as ``euchre bench`` is first used)."""
    importlib.import_module(module)


def test_every_slot_enum_lives_in_slots():
    """Issue 23: ``kernels/slots.py`` holds every named slot layout of a kernel array (the
    other modules import them), so a reader finds each array's layout in one place."""
    found = [f"{rel(path)}:{node.name}" for path in sources("kernels")
             if rel(path) != "kernels/slots.py"
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ClassDef)
             and any(getattr(b, "id", None) == "IntEnum" for b in node.bases)]
    assert not found, f"slot enums outside kernels/slots.py: {found}"


def test_docs_name_a_slot_layout_where_it_lives():
    """Six docstrings pointed at slot enums by the modules they had moved out of
    (``kernels.drivers.query.X``, ``kernels.bidding.bidding.PR``): a reader went to the wrong file.
    Every mention of a slot layout names ``kernels.slots``."""
    enums = [node.name for node in ast.walk(ast.parse((ROOT / "kernels/slots.py").read_text()))
             if isinstance(node, ast.ClassDef)
             and any(getattr(b, "id", None) == "IntEnum" for b in node.bases)]
    wrong = re.compile(rf"kernels\.(?!slots\b)\w+\.({'|'.join(enums)})\b")
    found = [f"{rel(path)}:{i}" for path in [*sources(*PACKAGES), *sorted((ROOT / "docs").glob(
        "*.md"))] for i, line in enumerate(path.read_text().splitlines(), 1)
        if wrong.search(line)]
    assert len(enums) > 10 and not found, found



# The rooms (issue 52): analyzer/questions/ grouped by the question each family answers,
# kernels/ by technique. Each room is a sub-package; a room may import its own modules, the
# rooms on the floors below its own and the top's modules, never a room beside or above it.
# Nothing else sits at the top: a new module goes into the room of its family.
ROOMS = {
    "kernels": {
        "top": {"__init__", "config", "slots", "threads", "cache_locator", "compile_events"},
        "floors": [["cards"], ["deal"], ["solver"], ["bidding", "play"], ["hand"],
                   ["drivers"]]},
    "analyzer/questions": {
        "top": {"__init__"},
        "floors": [["equity"], ["odds"], ["review", "advise"], ["simulate", "tables"]]},
}


def misplaced(paths) -> list[str]:
    """The modules of ``paths`` (posix paths from the root) that sit outside the rooms of
    :data:`ROOMS`: at a room package's top but not among its top modules, in a folder that
    is not one of its rooms, or a folder deeper inside a room."""
    out = []
    for path in paths:
        for base, spec in ROOMS.items():
            if not path.startswith(base + "/"):
                continue
            parts = path[len(base) + 1:].split("/")
            rooms = {room for floor in spec["floors"] for room in floor}
            if len(parts) == 1 and parts[0].removesuffix(".py") not in spec["top"]:
                out.append(f"{path}: a module at the top of {base}/ (put it in its room: "
                           f"{', '.join(sorted(rooms))})")
            elif len(parts) == 2 and parts[0] not in rooms:
                out.append(f"{path}: {parts[0]}/ is not a room of {base}/")
            elif len(parts) > 2:
                out.append(f"{path}: a room holds modules, not folders")
    return out


def room_of(module: str) -> tuple[str, int] | None:
    """``(room base, floor)`` of a dotted module name in a room of :data:`ROOMS` (the floor
    of a top module is -1), or None outside them."""
    for base, spec in ROOMS.items():
        prefix = base.replace("/", ".") + "."
        if not module.startswith(prefix):
            continue
        head = module[len(prefix):].split(".")[0]
        for floor, rooms in enumerate(spec["floors"]):
            if head in rooms:
                return f"{base}/{head}", floor
        return f"{base}/", -1
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import (``graph``: module -> modules it imports) from a room to a room beside or
    above it, or from a top module into a room."""
    out = []
    for name, imported in graph.items():
        mine = room_of(name)
        if mine is None:
            continue
        for other in imported:
            theirs = room_of(other)
            if theirs is None or theirs[0] == mine[0] or theirs[0].split("/")[0] != \
                    mine[0].split("/")[0]:
                continue
            if theirs[1] >= 0 and theirs[1] >= mine[1]:
                out.append(f"{name} imports {other}")
    return out


def test_every_module_sits_in_its_room():
    assert misplaced(rel(p) for p in sources(*PACKAGES)) == []


@pytest.mark.parametrize("dropped", ["analyzer/questions/new_question", "kernels/new_kernel",
                                     "kernels/play/cards/player", "analyzer/questions/hands/odds"])
def test_a_module_dropped_outside_the_rooms_fails(dropped):
    """The room rule sees a module dropped at the top of questions/ or kernels/, in a folder
    that is no room, or in a folder inside a room; a module put in its room passes (the
    card player's: kernels/play/, analyzer/strategy/)."""
    tree = [rel(p) for p in sources(*PACKAGES)]
    placed = ["kernels/play/card_player", "analyzer/strategy/card_player",
              "analyzer/questions/odds/another_step"]
    assert misplaced(tree + [f"{path}.py" for path in placed]) == []
    assert misplaced(tree + [f"{dropped}.py"]) != []


def test_rooms_import_only_the_floors_below():
    assert upward_imports(project_graph()) == []


@pytest.mark.parametrize("edge", [("kernels/cards/bits", "kernels/hand/engine"),
                                  ("kernels/bidding/bidding", "kernels/play/pimc"),
                                  ("kernels/slots", "kernels/cards/bits"),
                                  ("analyzer/questions/odds/decide",
                                   "analyzer/questions/review/evaluate"),
                                  ("analyzer/questions/review/evaluate",
                                   "analyzer/questions/advise/bot_view")])
def test_an_import_up_or_across_the_floors_fails(edge):
    """The floor rule sees an import up a floor, across a floor, and from the top into a
    room (the modules named by their paths: each exists)."""
    graph = project_graph()
    importer, imported = (e.replace("/", ".") for e in edge)
    assert importer in graph and imported in graph
    assert upward_imports({**graph, importer: graph[importer] | {imported}}) != []


def _commands() -> set[str]:
    """The names of the modules of analyzer/cli/ that hold a command of that name."""
    import typer.main

    from analyzer.cli import app

    command = typer.main.get_command(app)
    return set(command.commands) | {n for c in command.commands.values()
                                    for n in getattr(c, "commands", {})}


def names_with_two_jobs(graph: dict[str, set[str]], commands: set[str]) -> list[str]:
    """The module names (a file's name, ``__init__`` aside) that two modules share without
    sharing the job: modules of one name must each be a thin layer over another of them (one
    imports the other, as ``compute/engine.py`` wraps ``kernels/hand/engine.py``), all
    linked; a command's module (``cli/odds.py``) is named for its command."""
    by_name: dict[str, list[str]] = {}
    for module in graph:
        name = module.split(".")[-1]
        if module.startswith("analyzer.cli.") and name in commands:
            continue
        by_name.setdefault(name, []).append(module)
    out = []
    for name, modules in by_name.items():
        if len(modules) < 2 or name in ("__init__", "__main__"):
            continue
        linked, todo = set(), [modules[0]]
        while todo:
            m = todo.pop()
            linked.add(m)
            todo += [o for o in modules if o not in linked and (o in graph[m] or m in graph[o])]
        if len(linked) < len(modules):
            out.append(f"{name}: {', '.join(sorted(modules))}")
    return out


def _module_graph() -> dict[str, set[str]]:
    """:func:`project_graph` keyed by module files only (packages' ``__init__`` aside)."""
    files = {module_name(p) for p in sources(*PACKAGES) if p.name != "__init__.py"}
    return {m: deps for m, deps in project_graph().items() if m in files}


def test_one_name_one_job():
    """Issue 52: ``equity.py`` held three jobs in three rooms, ``score.py`` two."""
    assert names_with_two_jobs(_module_graph(), _commands()) == []


@pytest.mark.parametrize("second", ["analyzer/game/tables", "reports/engine",
                                    "analyzer/strategy/report"])
def test_a_second_module_of_a_name_with_another_job_fails(second):
    """The name rule sees a second module of a name that imports none of the others and
    none of them imports (another job), whether the name has one module or several (the
    module named by its path: it does not exist)."""
    graph = _module_graph()
    assert second.replace("/", ".") not in graph
    assert names_with_two_jobs({**graph, second.replace("/", "."): set()}, _commands()) != []


def _packages():
    for path in sources(*PACKAGES):
        if path.name == "__init__.py":
            yield path


def test_no_package_exports_the_name_of_its_module():
    """A room's ``__init__`` exports its public functions; none is named as a module of the
    room (``simulate/simulate.py`` beside an exported ``simulate``: ``import
    analyzer.questions.simulate.simulate as m`` gave the function, a monkeypatch of the
    module patched the function)."""
    found = []
    for path in _packages():
        package = importlib.import_module(module_name(path))
        exported = set(getattr(package, "__all__", ()))
        modules = {p.stem for p in path.parent.glob("*.py")} | \
            {p.parent.name for p in path.parent.glob("*/__init__.py")}
        found += [f"{rel(path)}: {name}" for name in exported & modules]
    assert found == []


@pytest.mark.parametrize("base", [b for b in ROOMS if b != "kernels"])
def test_each_room_says_what_it_answers_and_exports_it(base):
    """Each room of questions/ opens with what it answers, and its ``__init__`` exports what
    the layers above and the public API take from it (each name found)."""
    for floor in ROOMS[base]["floors"]:
        for room in floor:
            package = importlib.import_module(f"{base.replace('/', '.')}.{room}")
            assert package.__doc__ and len(package.__doc__.split()) >= 12, room
            assert package.__all__, room
            for name in package.__all__:
                assert getattr(package, name) is not None, (room, name)


_CAUGHT = r"str\(\s*(e|err|error|exc|ex)\s*\)"  # an exception's words, as an except names it
ERROR_TEXT = re.compile(rf"""(["'])[^"']*\1\s+(not\s+)?in\s+{_CAUGHT}|"""
                        rf"""{_CAUGHT}\s*(==|!=|\.startswith|\.endswith)""")


def decided_by_error_text(lines) -> list[int]:
    """The numbers of the ``lines`` that decide by an error's words (``"appears more than
    once" in str(e)``, ``str(e).startswith(...)``) instead of its type."""
    return [n for n, line in enumerate(lines, 1) if ERROR_TEXT.search(line)]


def test_errors_are_told_apart_by_their_type():
    """Issue 52 (41's leftover): ``game/decision_point.py`` told a card used twice from a
    card that is not one by the words of the error, and missed the double deck's ("more
    than twice"). A caller catches a typed error (``notation.CardUsedUp``)."""
    found = [f"{rel(path)}:{n}" for path in sources(*PACKAGES)
             for n in decided_by_error_text(path.read_text().splitlines())]
    assert found == []
    assert decided_by_error_text(['twice = "appears more than once" in str(e)',
                                  "if str(err).startswith('no deal'):"]) == [1, 2]


def test_the_page_script_names_each_function_once():
    """A second ``function f`` in the page's script silently replaces the first everywhere
    (the page's score box once read the Play tab's score instead)."""
    script = (ROOT / "analyzer" / "serve" / "static" / "app.js").read_text()
    names = re.findall(r"^(?:async\s+)?function\s+(\w+)", script, flags=re.M)
    assert names and len(names) == len(set(names)), sorted(
        n for n in set(names) if names.count(n) > 1)
