"""The command line's one error boundary: :func:`main`."""

import os
import sys

import typer

from exactmines.errors import (
    DEVICE_ERRNOS,
    ExactminesError,
    InputError,
    OutputError,
    ParameterError,
    TooLarge,
)
from exactmines.ui.cli.common import app

#: The exceptions module of the click that typer runs on (its own copy of click in recent
#: typer releases, click itself in older ones), found through ``typer.BadParameter``, which
#: typer exports from it either way: its ``UsageError`` and ``NoArgsIsHelpError`` (click 8.2
#: and later) are click's public classes; ``typer.Abort`` is the abort it raises.
_CLICK_EXCEPTIONS = sys.modules[typer.BadParameter.__module__]
_USAGE_ERROR: type[Exception] = _CLICK_EXCEPTIONS.UsageError
_NO_ARGS_IS_HELP: tuple[type[Exception], ...] = tuple(
    getattr(_CLICK_EXCEPTIONS, name) for name in ("NoArgsIsHelpError",)
    if hasattr(_CLICK_EXCEPTIONS, name))


#: Library parameters whose option has another name (``PlaySettings.tuning`` is ``--set``).
_OPTION_OF_PARAMETER = {"tuning": "tune"}


def _as_option(error: ParameterError, argv: list[str]) -> InputError:
    """A library's :class:`ParameterError` as the command line says it: under the option (or
    argument) of the command being run that sets that parameter (``mines`` -> ``--mines``);
    under the parameter's own name when none does."""
    import typer.main

    group = typer.main.get_command(app)
    name = next((arg for arg in argv if not arg.startswith("-")), None)
    command = None if name is None else group.get_command(typer.Context(group), name)  # type: ignore[attr-defined]
    wanted = _OPTION_OF_PARAMETER.get(error.parameter, error.parameter)
    for param in getattr(command, "params", ()):
        if param.name == wanted:
            shown = (param.opts[0] if param.param_type_name == "option"
                     else param.metavar or param.name.upper())
            return InputError(error.shown(shown), source="command line")
    return error


def _error(message: str) -> None:
    """``exactmines: error: MESSAGE`` on stderr, in one line whatever the message quotes: a
    control character (a newline in a file's name) is written as its escape, ``\\n``."""
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    sys.stderr.write(f"exactmines: error: {shown}\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning domain errors, usage errors and refused paths into
    one line on stderr (docs/contract.md: one clear line, no traceback) and an exit code:
    an error's own (:mod:`exactmines.errors`), 2 for usage errors and refused paths.

    ``exactmines`` alone prints the help (exit 2); an interrupt exits 130 (SIGTERM during a
    run 143) or, at a prompt, 1 after "Aborted!"; memory run out is a limit (exit 4).
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        code = app(args=args, prog_name="exactmines", standalone_mode=False)
        sys.stdout.flush()  # a refused write shows here, not at exit with a traceback
    except BrokenPipeError:
        # The reader went away (``| head``) after the last write: end quietly with 1, as click
        # does when it meets this during a command. Python would complain again when it
        # flushes stdout at exit, so point stdout at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except ParameterError as exc:
        _error(str(_as_option(exc, args)))
        return exc.exit_code
    except ExactminesError as exc:
        _error(str(exc))
        return exc.exit_code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except OSError as exc:
        if exc.errno in DEVICE_ERRNOS:  # writing the output, not reading the input
            where = exc.filename or "standard output"
            _error(f"{where}: cannot write: {exc.strerror}")
            return OutputError.exit_code
        # A path the system refuses that no check above caught (say, a name too long):
        # still bad input, said in one line.
        where = f"{exc.filename}: " if exc.filename else ""
        _error(f"{where}{exc.strerror or exc}")
        return 2
    except MemoryError:
        # A limit the work ran into (a machine's memory, ulimit -v), as a TooLarge would.
        _error("out of memory: this work needs more memory than the machine (or a limit set "
               "on the command) gives it")
        return TooLarge.exit_code
    except _NO_ARGS_IS_HELP as exc:
        exc.show()  # type: ignore[attr-defined]
        return 2
    except _USAGE_ERROR as exc:
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
        _error(f"{where}{message}{hint}")
        return 2
    except typer.Abort:
        sys.stderr.write("Aborted!\n")
        return 1
    return code if isinstance(code, int) else 0
