"""What every system shares, and nothing system-specific, in layers; each imports only those below it
(tests/platform/test_import_graph.py holds the order):

- ``endpoints``: the platform's own endpoints and pages;
- ``operations``: operations as data and the one request path;
- ``http``: what happens around every view;
- ``dice``: random sources, tickets, receipts;
- ``values``: what rules return and raise;
- ``words``: catalogs and messages;
- ``maths``: exact odds and chains.
"""
