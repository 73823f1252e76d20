"""Move the runnable examples of non-exported names out of the package's docstrings.

Issue 21: runnable ``Examples`` are required only on the names ``synagree``
exports (``synagree._EXPORTS``; a method or nested class of an exported class
counts as exported).  For every other function, method and class whose
docstring has a numpydoc ``Examples`` section, this script cuts the section out
of the docstring and keeps it, number for number, in
``tests/examples/<module>.txt`` under a header line ``.. examples:: <qualified name>``;
``tests/test_examples.py`` runs each block as a doctest in its module's
namespace, so every checked example is still checked.

    python scripts/move_examples.py --check                # what would change, the share
    python scripts/move_examples.py                        # step 1: move the examples
    python scripts/move_examples.py --drop-bare-sections   # steps 1 and 2

``--check`` writes nothing and exits 1 when something would change.  The script
is idempotent (a second run finds nothing to do) and meant to be rerun after
merges.  Module docstrings are never touched.  Examples found in a docstring
whose object already has a block in ``tests/examples`` (moved earlier, then
brought back by a merge) replace that block: the docstring is the newer text.

Step 2 (``--drop-bare-sections``): in the docstring of a non-exported function
or method, drop a ``Parameters``, ``Returns`` or ``Yields`` section in which
every entry only restates the signature: a ``name : type`` (or bare ``type``)
line with no description, the parameter (or the return) annotated (not with
``Any``, unless the entry's type is as vague), and a type naming no values or
range (no ``{``, ``[``, digit or ``in``).  A section with
one described entry stays whole, so no parameter list is left partial, and
every sentence stating a unit or convention stays.

Only what the suite's doctests run is moved: the docstrings of module-level
functions and classes and, recursively, of the methods and nested classes in
class bodies (definitions under ``if``/``try``/``with`` at those levels
included).  What the script cannot cut with certainty (an Examples header it
cannot find once in the source, quotes closing on an example's line, a
rewritten docstring that does not re-parse to the expected text, a name defined
twice, a function nested in a function) is left as it is and listed under
"left in place".
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from docshare import Share, describe, docstring_expr, measure_source, python_files, total

ROOT = Path(__file__).resolve().parents[1]

# files whose docstrings the suite's doctests never run (pyproject: --ignore)
SKIP_FILES = {"__main__.py": "not collected by the suite's doctests (pyproject --ignore)"}

SECTION_TITLES = {"Parameters", "Other Parameters", "Attributes", "Methods", "Returns",
                  "Yields", "Receives", "Raises", "Warns", "Warnings", "See Also", "Notes",
                  "References", "Examples"}
# a numpydoc section header in a cleaned docstring: a known title, then dashes
SECTION = re.compile(r"^(?P<title>\S[^\n]*?)[ \t]*\n-{3,}[ \t]*$", re.M)
UNDERLINE = re.compile(r"[ \t]*-{3,}[ \t]*")
QUOTES = ('"""', "'''")
BARE_SECTIONS = ("Parameters", "Returns", "Yields")
# a type that names values or a range says more than the annotation
STATES_VALUES = re.compile(r"[{\[0-9]|\bin\b")

HEADER = ".. examples:: {}"
BLOCK_HEADER = re.compile(r"^\.\. examples:: (?P<name>[\w.]+)[ \t]*$", re.M)
FILE_INTRO = """\
Examples moved out of the docstrings of {path}
by scripts/move_examples.py (issue 21: runnable Examples are required only on
exported names).  tests/test_examples.py runs each block below as one doctest
in the namespace of the module {module}
plus the conftest doctest names; a block's header names the object whose
docstring its examples came from.
"""


def _line_length(root: Path) -> int:
    config = root / "pyproject.toml"
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    m = re.search(r"^line-length\s*=\s*(\d+)", text, re.M)
    return int(m.group(1)) if m else 88


LINE_LENGTH = _line_length(ROOT)


# --- the package -------------------------------------------------------------

def module_name(path: Path, package: Path) -> str:
    """``synagree/stats/alpha.py`` -> ``synagree.stats.alpha`` (``__init__`` dropped)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(module: str, package: Path) -> Optional[Path]:
    """The source file of a module of ``package``, or None."""
    base = package.parent.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _top_level_names(path: Path) -> Set[str]:
    return {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _import(module: str, package: Path) -> object:
    if str(package.parent) not in sys.path:
        sys.path.insert(0, str(package.parent))
    return importlib.import_module(module)


def exports(package: Path) -> Dict[str, str]:
    """The package's ``_EXPORTS`` (name -> module): the literal in its
    ``__init__.py``, else the attribute of the imported package."""
    init = package / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets):
            try:
                value = ast.literal_eval(node.value)  # type: ignore[arg-type]
            except ValueError:
                break
            if isinstance(value, dict):
                return {str(k): str(v) for k, v in value.items()}
    value = getattr(_import(package.name, package), "_EXPORTS", None)
    if not isinstance(value, dict):
        raise SystemExit(f"{init}: no _EXPORTS dict (name -> module); cannot tell exported names")
    return {str(k): str(v) for k, v in value.items()}


def exported(package: Path) -> Set[Tuple[str, str]]:
    """``(module, qualified name)`` of every exported definition; a name exported
    from a module that only imports it is followed (by importing it) to its
    definition."""
    out = set()
    for public, where in exports(package).items():
        module, _, attribute = where.partition(":")  # "module:attribute" when renamed
        name = attribute or public
        out.add((module, name))
        path = module_path(module, package)
        if path is not None and name in _top_level_names(path):
            continue
        obj = getattr(_import(module, package), name)
        out.add((getattr(obj, "__module__", module), getattr(obj, "__qualname__", name)))
    return out


def is_exported(module: str, qualname: str, names: Set[Tuple[str, str]]) -> bool:
    """True for an exported name and anything defined inside an exported class."""
    parts = qualname.split(".")
    return any((module, ".".join(parts[:i])) in names for i in range(1, len(parts) + 1))


# --- the definitions doctest runs ----------------------------------------------

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BLOCKS = (ast.If, ast.Try, ast.With, ast.AsyncWith)


@dataclass
class Definition:
    """A function or class with a docstring, by qualified name."""

    qualname: str
    node: ast.AST
    expr: ast.Expr
    nested_in_function: bool = False

    @property
    def lines(self) -> Tuple[int, int]:
        """First and last source line (0-based) of the docstring literal."""
        return self.expr.lineno - 1, (self.expr.end_lineno or self.expr.lineno) - 1

    @property
    def docstring(self) -> str:
        """The docstring, cleaned as ``inspect.cleandoc`` does."""
        return inspect.cleandoc(self.expr.value.value)  # type: ignore[attr-defined]


def _statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """``body``, looking into ``if``/``try``/``with`` blocks."""
    for stmt in body:
        if isinstance(stmt, _BLOCKS):
            for name in ("body", "orelse", "finalbody"):
                yield from _statements(getattr(stmt, name, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _statements(handler.body)
        else:
            yield stmt


def definitions(tree: ast.Module) -> Iterator[Definition]:
    """Every documented function and class in source order (``<locals>`` in the
    qualified name of one defined inside a function)."""
    def walk(body: Sequence[ast.stmt], prefix: str, in_function: bool) -> Iterator[Definition]:
        for stmt in _statements(body):
            if not isinstance(stmt, _DEFS):
                continue
            qualname = prefix + stmt.name
            expr = docstring_expr(stmt)
            if expr is not None:
                yield Definition(qualname, stmt, expr, in_function)
            is_class = isinstance(stmt, ast.ClassDef)
            yield from walk(stmt.body, qualname + ("." if is_class else ".<locals>."),
                            in_function or not is_class)
    yield from walk(tree.body, "", False)


# --- sections of a docstring -----------------------------------------------------

def _norm(text: str) -> List[str]:
    return [line.rstrip() for line in text.strip("\n").split("\n")]


def _sections(clean: str) -> List[re.Match]:
    return [m for m in SECTION.finditer(clean) if m["title"] in SECTION_TITLES]


def split_section(clean: str, title: str) -> Optional[Tuple[str, str]]:
    """``(docstring without the section, the section's body)`` of a cleaned
    docstring; None when the section is absent, ValueError when repeated."""
    heads = _sections(clean)
    found = [i for i, m in enumerate(heads) if m["title"] == title]
    if not found:
        return None
    if len(found) > 1:
        raise ValueError(f"{len(found)} '{title}' sections")
    i = found[0]
    end = heads[i + 1].start() if i + 1 < len(heads) else len(clean)
    before, after = clean[:heads[i].start()].rstrip(), clean[end:].strip("\n")
    rest = before + ("\n\n" + after if after else "")
    return rest, "\n".join(_norm(clean[heads[i].end():end]))


def entries(body: str) -> List[List[str]]:
    """The entries of a Parameters/Returns body: a line at the left margin and
    the indented lines under it."""
    out: List[List[str]] = []
    for line in body.split("\n"):
        if (line and not line[0].isspace()) or not out:
            out.append([line])
        else:
            out[-1].append(line)
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def cut_section(doc: List[str], title: str) -> None:
    """Delete section ``title`` from a docstring's source lines ``doc`` (opening
    quotes first, closing quotes last), with the blank lines before it when it
    is the last section, so that the docstring does not end in blank lines."""
    heads = [(k, _indent(doc[k])) for k in range(1, len(doc) - 2)
             if doc[k].strip() in SECTION_TITLES and UNDERLINE.fullmatch(doc[k + 1])
             and _indent(doc[k]) == _indent(doc[k + 1])]
    mine = [(k, indent) for k, indent in heads if doc[k].strip() == title]
    if len(mine) != 1:
        raise ValueError(f"found {len(mine)} '{title}' headers in the source")
    k, indent = mine[0]
    following = [j for j, i in heads if j > k and i == indent]
    stop = following[0] if following else len(doc) - 1
    if not following:
        if doc[-1].strip() not in QUOTES:
            raise ValueError("the closing quotes share a line with the section")
        while k - 1 > 0 and not doc[k - 1].strip():
            k -= 1
    del doc[k:stop]


def collapse(doc: List[str]) -> None:
    """A summary line alone, closing quotes under it -> one line, when it fits."""
    opening, closing = doc[0].rstrip(), doc[-1].strip()
    if (len(doc) > 1 and closing in QUOTES and not any(line.strip() for line in doc[1:-1])
            and opening.lstrip().lstrip("rRuU") not in QUOTES
            and len(opening) + len(closing) <= LINE_LENGTH):
        doc[:] = [opening + closing]


# --- step 2: sections that only restate the signature ----------------------------

def _says_type(annotation: Optional[ast.expr], typ: str) -> bool:
    """The annotation gives the type (``Any`` gives none, unless ``typ`` is as vague)."""
    if annotation is None:
        return False
    return ast.unparse(annotation).split(".")[-1] != "Any" or typ in ("object", "any", "Any")


def _annotations(node: ast.AST) -> Dict[str, Optional[ast.expr]]:
    args = node.args  # type: ignore[attr-defined]
    every = args.posonlyargs + args.args + args.kwonlyargs
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return {a.arg: a.annotation for a in every}


def bare_sections(d: Definition, clean: str) -> List[str]:
    """The Parameters/Returns/Yields sections of a function's docstring in which
    every entry is a name and type the signature's annotations already give."""
    if not isinstance(d.node, _FUNCTIONS):
        return []
    annotations = _annotations(d.node)
    out = []
    for title in BARE_SECTIONS:
        found = split_section(clean, title)
        if found is None:
            continue
        bare = True
        for entry in entries(found[1]):
            head = entry[0]
            typ = head.split(" : ", 1)[-1].strip()
            if any(line.strip() for line in entry[1:]) or STATES_VALUES.search(typ):
                bare = False
            elif title == "Parameters":
                names = [n.strip().lstrip("*") for n in head.split(" : ", 1)[0].split(",")]
                bare = bare and " : " in head and all(
                    _says_type(annotations.get(n), typ) for n in names)
            else:
                bare = bare and _says_type(d.node.returns, typ)  # type: ignore[attr-defined]
        if bare:
            out.append(title)
    return out


# --- planning a module -----------------------------------------------------------

@dataclass
class Plan:
    """What rewriting one module does."""

    path: Path
    module: str
    source: str
    new_source: str = ""
    moved: Dict[str, str] = field(default_factory=dict)        # qualname -> examples
    bare: Dict[str, List[str]] = field(default_factory=dict)   # qualname -> sections dropped
    left: List[str] = field(default_factory=list)              # "qualname: why"


def _splice(lines: List[str], edits: Dict[str, Tuple[int, int, List[str], str]]) -> str:
    out = list(lines)
    for first, last, doc, _ in sorted(edits.values(), key=lambda e: -e[0]):
        out[first:last + 1] = doc
    return "\n".join(out)


def _mismatches(source: str, edits: Dict[str, Tuple[int, int, List[str], str]]) -> List[str]:
    """The edited objects whose docstring does not re-parse to the expected text."""
    found = {d.qualname: d for d in definitions(ast.parse(source))}
    return [q for q, (_, _, _, expected) in edits.items()
            if q not in found or _norm(found[q].docstring) != _norm(expected)]


def plan_module(path: Path, package: Path, names: Set[Tuple[str, str]],
                drop_bare: bool) -> Plan:
    """What step 1 (and, with ``drop_bare``, step 2) does to one file."""
    module = module_name(path, package)
    source = path.read_text(encoding="utf-8")
    plan = Plan(path, module, source, new_source=source)
    lines = source.split("\n")
    defs = list(definitions(ast.parse(source)))
    count = Counter(d.qualname for d in defs)
    edits: Dict[str, Tuple[int, int, List[str], str]] = {}
    for d in defs:
        if d.nested_in_function or is_exported(module, d.qualname, names):
            if (d.nested_in_function and not is_exported(module, d.qualname, names)
                    and "Examples" in [m["title"] for m in _sections(d.docstring)]):
                plan.left.append(f"{d.qualname}: defined inside a function; doctest "
                                 "never ran its examples")
            continue
        clean = d.docstring
        try:
            examples = split_section(clean, "Examples")
            titles = ["Examples"] if examples is not None else []
            if examples is not None and count[d.qualname] > 1:
                raise ValueError(f"defined {count[d.qualname]} times; moving its examples "
                                 "would run them against one definition")
            if examples is not None and BLOCK_HEADER.search(examples[1]):
                raise ValueError("a line of its examples reads as a block header")
            if drop_bare:
                titles += bare_sections(d, examples[0] if examples else clean)
            if not titles:
                continue
            first, last = d.lines
            doc = lines[first:last + 1]
            expected = clean
            for title in titles:
                cut_section(doc, title)
                expected = split_section(expected, title)[0]  # type: ignore[index]
            collapse(doc)
        except ValueError as err:
            plan.left.append(f"{d.qualname}: {err}")
            continue
        edits[d.qualname] = (first, last, doc, expected)
        if examples is not None:
            plan.moved[d.qualname] = examples[1]
        if titles[1 if examples is not None else 0:]:
            plan.bare[d.qualname] = titles[1 if examples is not None else 0:]
    while edits:
        new = _splice(lines, edits)
        bad = _mismatches(new, edits)
        if not bad:
            plan.new_source = new
            break
        for qualname in bad:
            plan.left.append(f"{qualname}: the cut docstring would not read as expected")
            edits.pop(qualname)
            plan.moved.pop(qualname, None)
            plan.bare.pop(qualname, None)
    return plan


# --- the examples files ------------------------------------------------------------

def read_blocks(text: str) -> Dict[str, Tuple[int, str]]:
    """``qualname -> (header line, examples)`` of an examples file, in file order
    (header lines 0-based)."""
    heads = list(BLOCK_HEADER.finditer(text))
    out: Dict[str, Tuple[int, str]] = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        if m["name"] in out:
            raise ValueError(f"block {m['name']!r} appears twice")
        out[m["name"]] = (text.count("\n", 0, m.start()), text[m.end():end].strip("\n"))
    return out


def examples_file(module: str, source_path: str, blocks: Dict[str, str],
                  order: Sequence[str]) -> str:
    """The text of an examples file: blocks in source order, unknown names last."""
    rank = {q: i for i, q in enumerate(order)}
    known = list(blocks)
    names = sorted(blocks, key=lambda q: (rank.get(q, len(rank)), known.index(q)))
    parts = [FILE_INTRO.format(path=source_path, module=module)]
    parts += [HEADER.format(q) + "\n\n" + blocks[q].strip("\n") + "\n" for q in names]
    return "\n".join(parts)


# --- the run -----------------------------------------------------------------------

def _rel(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def plan_all(package: Path, drop_bare: bool,
             names: Set[Tuple[str, str]]) -> Tuple[List[Plan], List[str]]:
    """Plans of every module and the files left out."""
    plans, skipped = [], []
    for path in python_files(package):
        if path.name in SKIP_FILES:
            if any(split_section(d.docstring, "Examples")
                   for d in definitions(ast.parse(path.read_text(encoding="utf-8")))):
                skipped.append(f"{_rel(path)}: {SKIP_FILES[path.name]}")
        else:
            plans.append(plan_module(path, package, names, drop_bare))
    return plans, skipped


def _share(plans: Sequence[Plan], package: Path) -> Share:
    new = {p.path: p.new_source for p in plans}
    return total({path: measure_source(new.get(path) or path.read_text(encoding="utf-8"))
                  for path in python_files(package)})


def run(package: Path, examples: Path, check: bool, drop_bare: bool) -> int:
    """Plan every module, report, and (unless ``check``) write; the exit status."""
    names = exported(package)
    plans, skipped = plan_all(package, drop_bare, names)
    before = total({path: measure_source(path.read_text(encoding="utf-8"))
                    for path in python_files(package)})
    print(f"before:         {describe(before)}")
    if drop_bare:
        print(f"after step 1:   {describe(_share(plan_all(package, False, names)[0], package))}")
    print(f"after step {'2' if drop_bare else '1'}:   {describe(_share(plans, package))}")

    writes: Dict[Path, str] = {}
    stale: List[str] = []
    by_module = {p.module: p for p in plans}
    for existing in sorted(examples.glob("*.txt")) if examples.is_dir() else []:
        if existing.stem not in by_module:
            stale.append(f"{_rel(existing)}: no module {existing.stem} in {_rel(package)}")
    for plan in plans:
        target = examples / f"{plan.module}.txt"
        old = ({q: text for q, (_, text) in read_blocks(target.read_text("utf-8")).items()}
               if target.is_file() else {})
        order = [d.qualname for d in definitions(ast.parse(plan.source))]
        stale += [f"{_rel(target)}: block {q!r} names no definition of {plan.module}"
                  for q in old if q not in order]
        if plan.moved:
            rel = plan.path.relative_to(package.parent).as_posix()
            writes[target] = examples_file(plan.module, rel, {**old, **plan.moved}, order)

    for plan in plans:
        if plan.moved or plan.bare:
            fewer = plan.source.count("\n") - plan.new_source.count("\n")
            print(f"{_rel(plan.path)}: {len(plan.moved)} objects' examples moved, "
                  f"{sum(map(len, plan.bare.values()))} bare sections dropped, "
                  f"{fewer} lines fewer")
    moved = sum(len(p.moved) for p in plans)
    bare = sum(sum(map(len, p.bare.values())) for p in plans)
    print(f"{moved} objects' examples {'would move' if check else 'moved'}"
          + (f"; {bare} bare sections of {sum(len(p.bare) for p in plans)} functions "
             f"{'would be dropped' if check else 'dropped'}" if drop_bare else ""))
    left = [f"{_rel(p.path)}: {item}" for p in plans for item in p.left] + skipped
    if left:
        print("left in place:\n" + "\n".join(f"  {item}" for item in left))
    if stale:
        print("stale example blocks (tests/test_examples.py fails on them):\n"
              + "\n".join(f"  {item}" for item in stale))
    if check:
        return 1 if (moved or bare) else 0
    examples.mkdir(parents=True, exist_ok=True)
    for target, text in writes.items():
        target.write_text(text, encoding="utf-8")
    for plan in plans:
        if plan.new_source != plan.source:
            plan.path.write_text(plan.new_source, encoding="utf-8")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """The command line; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="report what would change and the share; write nothing; "
                             "exit 1 if anything would change")
    parser.add_argument("--drop-bare-sections", action="store_true",
                        help="step 2: drop Parameters/Returns/Yields sections of non-exported "
                             "functions that only restate annotated names and types")
    parser.add_argument("--package", type=Path, default=ROOT / "synagree")
    parser.add_argument("--examples", type=Path, default=ROOT / "tests" / "examples")
    args = parser.parse_args(argv)
    return run(args.package.resolve(), args.examples.resolve(), args.check,
               args.drop_bare_sections)


if __name__ == "__main__":
    raise SystemExit(main())
