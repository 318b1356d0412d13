"""Build: the engine's hot modules compiled with mypyc where a C compiler works.

Everything else about the package is in pyproject.toml. The modules below are
ordinary typed Python (their headers say what mypyc asks of them); mypyc turns
them into C extensions that sit beside the .py files, for regular and
editable installs alike. Without a working C compiler and Python headers, or
with TUI_REVERSI_PURE=1 in the environment, the install builds no extension,
says so in one line, and the engine runs as plain Python, with identical
results (tui_reversi/engine/build.py decides at run time which one loads).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent


def hot_modules() -> list[str]:
    """The engine's hot modules, as tui_reversi/engine/build.py finds them
    (loaded by path: importing the package would choose an engine)."""
    spec = importlib.util.spec_from_file_location(
        "engine_build", HERE / "tui_reversi" / "engine" / "build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module.compiled_sources(HERE)


HOT_MODULES = hot_modules()
# Beside the extensions: the hash of each source they were compiled from, so
# that an edited source (in an editable install) is run as Python, not stale C.
BUILD_RECORD = "tui_reversi/compiled-sources.json"


def say(line: str) -> None:
    print(f"tui-reversi: {line}", file=sys.stderr, flush=True)


# Lets the C compiler inline one engine function into another (popcount,
# flip_mask into the solver): -fPIC alone assumes any exported function may
# be replaced at load time. One run of bench/ffo.py on FFO #40-42: 0.9x
# the CPU time, the same nodes (on the busy machine, near its noise).
INLINING_FLAGS = ["-fno-semantic-interposition"]


def compiler_problem(flags: list[str] | None = None) -> str | None:
    """Why C extensions cannot be built here, or None when they can: compiles
    and links a one-line extension source that includes Python.h (with
    `flags` too, when given)."""
    from setuptools._distutils.ccompiler import new_compiler  # type: ignore[import-untyped]
    from setuptools._distutils.sysconfig import (  # type: ignore[import-untyped]
        customize_compiler,
        get_python_inc,
    )

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            objects = compiler.compile(
                [str(source)],
                output_dir=tmp,
                include_dirs=[get_python_inc()],
                extra_postargs=flags or [],
            )
            compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
        except Exception as error:  # any failure means: build interpreted
            first = (
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
            return f"no working C compiler ({first})"
    return None


def source_hashes() -> dict[str, str]:
    return {path: hashlib.sha256((HERE / path).read_bytes()).hexdigest() for path in HOT_MODULES}


class BuildEngine(build_ext):
    """build_ext that records the compiled sources' hashes, and that falls
    back to the interpreted engine (no extensions) if compiling fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a failed compile must not fail the install
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            say(f"compiling the engine failed ({error}): it will run interpreted")
            return
        if self.extensions:
            record = Path(self.get_ext_fullpath("tui_reversi.x")).parent / Path(BUILD_RECORD).name
            record.write_text(json.dumps(source_hashes(), indent=1) + "\n")
            say("engine compiled with mypyc")

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        if self.extensions:
            outputs.append(
                str(Path(self.get_ext_fullpath("tui_reversi.x")).parent / Path(BUILD_RECORD).name)
            )
        return outputs


class BuildPackage(build_py):
    """build_py that says, once per build, why the engine is not compiled."""

    def run(self) -> None:
        if NOT_COMPILED:
            say(f"{NOT_COMPILED}: the engine will run interpreted")
        super().run()


def not_compiled() -> str | None:
    """Why the engine will not be compiled, or None when it will."""
    if os.environ.get("TUI_REVERSI_PURE") == "1":
        return "TUI_REVERSI_PURE=1"
    return compiler_problem()


def extensions() -> list:
    if NOT_COMPILED:
        return []
    from mypyc.build import mypycify

    # Type errors outside the compiled modules (which mypyc reads, but runs
    # as Python) are for the CI's mypy run, not a reason to build nothing;
    # nor are the config's sections for modules this subset does not check.
    try:
        built = mypycify(
            ["--follow-imports=silent", "--no-warn-unused-configs", *HOT_MODULES],
            opt_level="3",
            group_name="tui_reversi_engine",
        )
    except SystemExit:  # mypyc exits after printing a hot module's type errors
        # The install still succeeds; CI's parity tests insist on the compiled engine.
        say("mypyc found type errors in the engine (above): it will run interpreted")
        return []
    if compiler_problem(INLINING_FLAGS) is None:  # a compiler without them builds as before
        for extension in built:
            extension.extra_compile_args = [*extension.extra_compile_args, *INLINING_FLAGS]
    return built


# pip runs this file once per build step; only the build itself needs the
# compiler probe and mypyc (metadata steps would only repeat them).
BUILDING = bool({"build", "build_ext", "bdist_wheel", "editable_wheel"} & set(sys.argv))
NOT_COMPILED = not_compiled() if BUILDING else None
setup(
    ext_modules=extensions() if BUILDING else [],
    cmdclass={"build_ext": BuildEngine, "build_py": BuildPackage},
)
