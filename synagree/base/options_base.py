"""The base of the options objects (`synagree.base.command_options`): `Options` and `option`.

A module of its own so that a command that needs one options class (PARSEVAL:
`synagree.base.parseval_options`) does not build all of them at import.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Dict, Mapping, Optional, Type, TypeVar

from synagree.base.option_specs import SPECS, OptionSpec, check_value, shown

__all__ = ["Options", "option"]

OptionsT = TypeVar("OptionsT", bound="Options")
_SAME: Any = object()


def option(name: str, default: Any = _SAME, optional: Optional[bool] = None) -> Any:
    """A dataclass field declared by ``SPECS[name]`` (its default unless ``default``)."""
    spec = SPECS[name]
    changes: Dict[str, Any] = {}
    if default is not _SAME:
        changes["default"] = default
    if optional is not None:
        changes["optional"] = optional
    if changes:
        spec = dataclasses.replace(spec, **changes)
    return dataclasses.field(default=spec.default, metadata={"spec": spec})


@dataclass(frozen=True)
class Options:
    """The base of the options objects: validated fields, `build` from overrides."""

    #: the command the options belong to (messages)
    command: ClassVar[str] = ""

    def __post_init__(self) -> None:
        where = f"{self.command}: " if self.command else ""
        for f in fields(self):
            value = check_value(f.metadata["spec"], getattr(self, f.name), where)
            object.__setattr__(self, f.name, value)

    @classmethod
    def specs(cls) -> Dict[str, OptionSpec]:
        """The declaration of each field, by name."""
        return {f.name: f.metadata["spec"] for f in fields(cls)}

    @classmethod
    def build(cls: Type[OptionsT], options: Optional[OptionsT], overrides: Mapping[str, Any],
              where: str) -> OptionsT:
        """``options`` (None: the defaults) with ``overrides`` applied, every one checked.

        Raises
        ------
        TypeError
            ``options`` is not a ``cls``; an override that is not one of the
            options; a value of the wrong type.
        ValueError
            A value outside its range or choices.
        """
        if options is not None and not isinstance(options, cls):
            raise TypeError(f"{where}: options must be a {cls.__name__} or None, not "
                            f"{type(options).__name__} {shown(options)}")
        specs = cls.specs()
        unknown = sorted(set(overrides) - set(specs))
        if unknown:
            raise TypeError(f"{where} got an unexpected keyword argument {unknown[0]!r}; its "
                            f"options are {', '.join(sorted(specs))}")
        checked = {k: check_value(specs[k], v, f"{where}: ") for k, v in overrides.items()}
        base = options if options is not None else cls()
        return dataclasses.replace(base, **checked) if checked else base

    def as_kwargs(self, *names: str) -> Dict[str, Any]:
        """The fields (all, or those named) as keywords."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if not names or f.name in names}
