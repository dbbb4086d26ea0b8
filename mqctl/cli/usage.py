"""Usage errors as one line: ``mqctl: error: define qmgr: no such option --clustr; did you mean --cluster?``

Click raises them (an unknown option or command, a missing or bad value); Typer would draw them in a
boxed panel under the usage text. mqctl prints every mistake as one line on stderr with exit 2, naming the
command and the nearest option or command, as its own input errors are.
"""

from __future__ import annotations

import re

import click

from mqctl.domain.suggest import nearest

_NO_SUCH_COMMAND = re.compile(r"No such command '(?P<name>[^']*)'")
_TAKES_NO_VALUE = re.compile(r"Option '(?P<name>[^']*)' does not take a value")


def _option(command: click.Command, ctx: click.Context, name: str) -> click.Option | None:
    """The option of ``command`` one of whose names is ``name``."""
    for param in command.get_params(ctx):
        if isinstance(param, click.Option) and name in (*param.opts, *param.secondary_opts):
            return param
    return None


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    """The command's long options, but its help option (not worth suggesting)."""
    names: list[str] = []
    helps = set(ctx.help_option_names)
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            names += [
                n for n in (*param.opts, *param.secondary_opts) if n.startswith("--") and n not in helps
            ]
    return names


def usage_line(exc: click.ClickException) -> str:
    """The one line (without the ``mqctl: error:`` prefix) that reports ``exc``, as written: the entry
    point escapes it once (``text.error_line``), as it does every error line."""
    ctx: click.Context | None = getattr(exc, "ctx", None)
    where = ""
    if ctx is not None:
        path = ctx.command_path.split(" ", 1)
        where = path[1] + ": " if len(path) > 1 else ""
    flag = _TAKES_NO_VALUE.match(exc.format_message())
    if flag is not None and ctx is not None:
        message = f"option {flag['name']} takes no value"
        option = _option(ctx.command, ctx, flag["name"])
        if option is not None and option.secondary_opts:
            message += f"; give {' or '.join([*option.opts, *option.secondary_opts])}"
    elif isinstance(exc, click.NoSuchOption) and ctx is not None:
        message = f"no such option {exc.option_name}"
        near = nearest(exc.option_name, _options(ctx.command, ctx))
        if near is not None:
            message += f"; did you mean {near}?"
    else:
        message = exc.format_message()
        found = _NO_SUCH_COMMAND.match(message)
        if found and ctx is not None and isinstance(ctx.command, click.Group):
            name = found["name"]
            message = f"no such command {name}"
            near = nearest(name, ctx.command.list_commands(ctx))
            if near is not None:
                message += f"; did you mean {near}?"
        elif message[:1].isupper() and not message[1:2].isupper():
            message = message[0].lower() + message[1:]
    return re.sub(r" *\n+ *", " ", f"{where}{message}").strip()
