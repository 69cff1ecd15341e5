"""Options for a subcommand from its operation's documented example, as a player would type them."""

from __future__ import annotations

from typing import Any

from wurfwerk_discord.catalog import Catalog
from wurfwerk_discord.commands import Registry, Subcommand


def example_options(registry: Registry, catalog: Catalog, sub: Subcommand) -> list[dict[str, Any]]:
    operation = catalog.operations()[sub.operation_id][1]
    example = catalog.example(operation) or {}
    options = []
    for name, spec in sub.options.items():
        value: Any = example
        for part in spec.path:
            value = (value or {}).get(part) if isinstance(value, dict) else None
        if value is None:
            continue
        if spec.compact:
            options.append({"name": name, "type": 3, "value": registry.compact.render(spec.schema, value)})
        else:
            options.append({"name": name, "type": spec.option["type"], "value": value})
    return options
