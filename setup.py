"""Build of exactmines: pure Python, plus an optional compiled speed-up of its hot modules.

The modules in ``COMPILED`` are also compiled to C extensions with mypyc (from mypy, a
build requirement) when a wheel is built (``pip install .``) on a machine with a working C
compiler; an editable install (``pip install -e .``) compiles them only with
``EXACTMINES_COMPILE=1``. Their Python sources are installed either way and are what runs when no
extension was built: the answers are the same, only slower (``docs/benchmarks.md`` says by
how much). The extensions are optional: no compiler, or a compile that fails, gives
a pure-Python install, never a failed one.

``EXACTMINES_PURE=1`` skips the compiling (a pure-Python build on any machine).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The modules where the time goes (docs/benchmarks.md): the counting and combining
#: of every analysis, the no-guess check, the player's counting and endgame search. A class
#: defined in one is compiled too: whatever of it may be pickled spells out ``__reduce__``
#: (a compiled class does not unpickle by itself), and only compiled modules may subclass
#: it (the square grid's Grid and the table path's TableGrid share a typing.Protocol,
#: deduction/known.py, instead of a base class).
COMPILED = [
    "exactmines/analysis/frontier.py",
    "exactmines/analysis/combine.py",
    "exactmines/analysis/tables.py",
    "exactmines/analysis/backends/dp.py",
    "exactmines/deduction/grid.py",
    "exactmines/deduction/rules.py",
    "exactmines/deduction/search.py",
    "exactmines/solvability/build.py",
    "exactmines/solvability/check.py",
    "exactmines/game.py",
    "exactmines/mine_counts.py",
    "exactmines/play/endgame.py",
    "exactmines/play/fifty_patterns.py",
    "exactmines/play/lookahead.py",
]

#: Commands that build extensions (a source distribution or metadata never compile).
_BUILDS = {"build", "build_ext", "bdist_wheel", "install"}
#: An editable install is where people edit the sources: an extension built beside a source
#: would go on running the old code after an edit, so it compiles only when asked
#: (``EXACTMINES_COMPILE=1``; CI does, to run the suite on the compiled modules too).
_EDITABLE = {"editable_wheel", "develop"}


def _compiler_works() -> bool:
    """Can this machine compile and link a C extension? (A C file of one function.)"""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    folder = tempfile.mkdtemp()
    try:
        source = os.path.join(folder, "probe.c")
        with open(source, "w") as handle:
            handle.write("int probe(void) { return 0; }\n")
        objects = compiler.compile([source], output_dir=folder)
        compiler.link_shared_object(objects, os.path.join(folder, "probe.so"))
        return True
    except (CCompilerError, DistutilsError, OSError):
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class AllOrNothing(build_ext):
    """Builds every extension or none: the compiled modules share one runtime library, so a
    compile that fails part way leaves the pure-Python modules alone, with a warning."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler's failure comes in many classes
            print(f"exactmines: compiling failed ({exc}); installing pure Python",
                  file=sys.stderr)
            for extension in self.extensions:
                for path in (self.get_ext_fullpath(extension.name),
                             os.path.join(self.build_lib, self.get_ext_filename(
                                 self.get_ext_fullname(extension.name)))):
                    if os.path.exists(path):
                        os.remove(path)
            self.extensions = []


def extensions() -> list:
    """mypyc's extensions of ``COMPILED``, or none: on ``EXACTMINES_PURE``, for commands
    that build nothing, without mypy or a working C compiler, or when mypyc refuses."""
    commands = set(sys.argv[1:])
    wanted = _BUILDS | (_EDITABLE if os.environ.get("EXACTMINES_COMPILE") else set())
    if os.environ.get("EXACTMINES_PURE") or not wanted & commands:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("exactmines: mypy not installed, building pure Python", file=sys.stderr)
        return []
    if not _compiler_works():
        print("exactmines: no working C compiler, building pure Python", file=sys.stderr)
        return []
    try:
        return mypycify(COMPILED, opt_level="3", group_name="exactmines")
    except (Exception, SystemExit) as exc:  # mypyc reports type errors by exiting
        print(f"exactmines: mypyc failed ({exc}); building pure Python", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": AllOrNothing})
