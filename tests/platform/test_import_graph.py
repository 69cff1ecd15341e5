"""The modules of service/ import one another in one direction: no circle (grimp builds the graph)."""

from __future__ import annotations

import grimp


def test_no_module_of_the_service_imports_itself_back():
    graph = grimp.build_graph("service", include_external_packages=False, cache_dir=None)
    assert len(graph.modules) > 50  # every sub-package is in the graph (each has an __init__.py)
    circles = [graph.find_shortest_chain(importer=imported, imported=importer)
               for importer in sorted(graph.modules)
               for imported in sorted(graph.find_modules_directly_imported_by(importer))
               if graph.chain_exists(importer=imported, imported=importer)]
    assert circles == []
