"""Every example in the README and the documentation site (docs/) runs, and prints what it
shows.

- ``console`` blocks: each ``$ exactmines ...`` runs (in a scratch folder that has the
  repository's ``instances/``) and prints the lines below it. Times (``11.1 ms``, ``9.3 s``)
  are the only parts left out of the comparison; JSON is compared as JSON (the pages wrap
  long lines, and ``...`` ends a list they shorten). A ``$ curl ...`` is sent to the web app
  (in process, as to ``exactmines serve``), its ``| head -c N`` applied.
- ``python`` blocks: doctest sessions, the blocks of a page in order with shared names.
- ``bash`` blocks hold what a test cannot run (installs, servers, clusters, long runs): each
  command names a known program, an ``exactmines`` command parses (its subcommand and
  options exist), a script exists, and an extra installed exists in pyproject.toml.

An example shown on several pages runs once.
"""

from __future__ import annotations

import doctest
import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from exactmines.ui.cli import app, main

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md",
         *sorted((ROOT / "docs").glob("**/*.md"))]
_TIME = re.compile(r"\d[\d,]*(\.\d+)? (CPU )?(ms|s)\b")
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", flags=re.S | re.M)


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _blocks(language: str) -> list[tuple[Path, str]]:
    return [(page, text) for page in PAGES
            for lang, text in _BLOCK.findall(page.read_text()) if lang == language]


def _console_examples() -> list[tuple[str, tuple[str, ...], str]]:
    """``(command, output lines, page)``, each distinct example once."""
    seen: dict[tuple[str, tuple[str, ...]], str] = {}
    for page, block in _blocks("console"):
        for chunk in block.split("$ ")[1:]:
            command, *output = chunk.rstrip("\n").split("\n")
            seen.setdefault((command, tuple(output)), _name(page))
    return [(command, output, page) for (command, output), page in seen.items()]


CONSOLE = _console_examples()


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A folder to run examples in, with the repository's instances/ beside them (and its
    tests/, whose data has the replays the examples read)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    return tmp_path


def _normalised(lines: list[str] | tuple[str, ...]) -> object:
    text = "\n".join(lines).strip()
    if text.startswith("{"):
        try:  # "..." ends a list the page shortens: it shows the list's first items.
            document = json.loads(text.replace(", ...]", "]"))
        except json.JSONDecodeError:  # cut short on purpose (| head -c)
            return text
        document.pop("seconds", None)
        return document
    return [_TIME.sub("T", line.rstrip()) for line in text.split("\n")]


def _shortened(printed: object, shown: object) -> object:
    """``printed`` with its lists cut to the length the page shows."""
    if isinstance(printed, dict) and isinstance(shown, dict):
        return {k: _shortened(v, shown.get(k)) for k, v in printed.items()}
    if isinstance(printed, list) and isinstance(shown, list):
        return printed[:len(shown)]
    return printed


def _curl(command: str) -> str:
    """What ``curl ... [| head -c N]`` prints, from the web app served in process."""
    from fastapi.testclient import TestClient

    from exactmines.ui.web.app import create_app

    curl, *pipes = [shlex.split(part) for part in command.split(" | ")]
    method, headers, data, url = "GET", {}, None, None
    args = iter(curl[1:])
    for arg in args:
        if arg == "-s":
            continue
        if arg == "-X":
            method = next(args)
        elif arg == "-H":
            key, value = next(args).split(":", 1)
            headers[key.strip()] = value.strip()
        elif arg in ("-d", "--data", "--data-binary"):
            value = next(args)
            data = Path(value[1:]).read_bytes() if value.startswith("@") else value.encode()
            method = "POST" if method == "GET" else method
        elif not arg.startswith("-") and url is None:
            url = arg
        else:
            raise AssertionError(f"curl option {arg!r} is not understood by this test")
    assert url is not None and url.startswith("localhost:8000/"), url
    with TestClient(create_app(), base_url="http://localhost:8000") as client:
        text = client.request(method, url.removeprefix("localhost:8000"), headers=headers,
                              content=data).text
    for pipe in pipes:
        assert pipe[:2] == ["head", "-c"], f"only | head -c N is understood, not {pipe}"
        text = text.encode()[:int(pipe[2])].decode()
    return text


@pytest.mark.parametrize("command, output, page", CONSOLE,
                         ids=[f"{p}: {c[:60]}" for c, _, p in CONSOLE])
def test_console_example(command, output, page, scratch, capsys):
    if command.startswith("curl "):
        printed = _curl(command).split("\n")
    else:
        args = shlex.split(command)
        assert args[0] == "exactmines", f"{page}: a console example runs exactmines or curl"
        assert main(args[1:]) == 0
        printed = capsys.readouterr().out.rstrip("\n").split("\n")
    if output:
        shown = _normalised(output)
        assert _shortened(_normalised(printed), shown) == shown


def test_every_command_has_an_example_that_runs():
    commands = {c.name for c in app.registered_commands}
    ran = {shlex.split(c)[1] for c, _, _ in CONSOLE if c.startswith("exactmines ")}
    shown = {args[1] for args in _bash_commands() if args[0] == "exactmines"}
    assert commands <= ran | shown
    # serve runs a server and instances prints paths of this machine: the others are run.
    assert commands - {"serve", "instances"} <= ran


def test_the_commands_without_format_are_the_ones_the_docs_name():
    # The docs said every command takes --format; serve does not.
    import typer

    group = typer.main.get_command(app)
    without = {name for name, command in group.commands.items()  # type: ignore[attr-defined]
               if not any("--format" in p.opts for p in command.params)}
    assert without == {"serve"}
    for page in (ROOT / "docs" / "commands" / "index.md", ROOT / "docs" / "contract.md"):
        assert "Every command but `serve`" in " ".join(page.read_text().split()), page


def test_the_long_commands_are_the_ones_the_docs_name():
    # What the commands page says of --quiet, --out and --resume holds for exactly the
    # commands it names there, each checked against its own options.
    import typer

    group = typer.main.get_command(app)
    options = {name: {o for p in command.params for o in p.opts}  # type: ignore[attr-defined]
               for name, command in group.commands.items()}  # type: ignore[attr-defined]
    text = " ".join((ROOT / "docs" / "commands" / "index.md").read_text().split())
    paragraph = text[text.index("Long commands"):text.index("Positions and boards")]
    named = set(re.findall(r"`(\w+)`", paragraph)) & set(options)
    assert named == {name for name, opts in options.items()
                     if {"--quiet", "--out", "--resume"} <= opts}


PYTHON_PAGES = sorted({page for page, _ in _blocks("python")})


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[_name(p) for p in PYTHON_PAGES])
def test_python_examples(page, scratch):
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    names: dict[str, object] = {}
    for number, (where, block) in enumerate(_blocks("python")):
        if where != page:
            continue
        assert ">>> " in block, f"{_name(page)}: a python example is a doctest session"
        test = parser.get_doctest(block, names, f"{_name(page)} block {number}", _name(page), 0)
        runner.run(test, clear_globs=False)
        names = test.globs  # a DocTest runs on a copy: the next block starts from its names
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0


# -- bash blocks: checked, not run ------------------------------------------------------

_PROGRAMS = {"pip", "exactmines", "python", "dask", "ruff", "mypy", "mkdocs", "node"}


def _bash_commands() -> list[list[str]]:
    """Every command of every bash block, as arguments, with ``$(...)`` ones too."""
    commands = []
    for _, block in _blocks("bash"):
        text = re.sub(r"\\\n", " ", block)
        for line in text.split("\n"):
            line = line.split("  #")[0].strip()
            if not line or line.startswith("#"):
                continue
            commands += [shlex.split(inner) for inner in re.findall(r"\$\(([^)]*)\)", line)]
            for part in re.split(r"\s(?:&&|&|;)(?:\s|$)|\s&$", line):
                if part.strip():
                    commands.append(shlex.split(part))
    return commands


BASH = _bash_commands()


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return set(project["optional-dependencies"])


@pytest.mark.parametrize("args", BASH, ids=[" ".join(a)[:60] for a in BASH])
def test_bash_example_names_what_exists(args):
    import typer.main

    assert args[0] in _PROGRAMS, f"unknown program in a bash example: {args}"
    if args[0] == "pip":
        for target in args[2:]:
            extras = re.fullmatch(r"\.(?:\[([\w,]+)\])?", target)
            if target != "-e":
                assert extras, f"pip installs from the clone: {args}"
                assert set(filter(None, (extras[1] or "").split(","))) <= _extras(), args
    elif args[0] == "python" and args[1] != "-m":
        assert (ROOT / args[1]).is_file(), f"no script {args[1]}"
    elif args[0] == "exactmines":
        command = typer.main.get_command(app).commands.get(args[1])  # type: ignore[attr-defined]
        assert command is not None, f"no command {args[1]}: {args}"
        try:
            command.make_context(args[1], list(args[2:]))
        except Exception as exc:  # typer's own click: its UsageError is not importable
            pytest.fail(f"{' '.join(args)}: {exc}")
