"""What vulture (the dead-code check of `make test`, [tool.vulture] in pyproject.toml) cannot see used:
names a framework reads or calls by itself. Only such hooks belong here; code nobody uses is deleted.
vulture reads this file, nothing runs it: each line names a name as used."""

# ruff: noqa: B018, F821

# gunicorn reads its settings and server hooks from the config module by name (deploy/gunicorn.conf.py),
# and calls a worker class's hooks; bench/bare_app.py's worker is named in the bench's gunicorn command.
worker_class
reuse_port
keepalive
max_requests_jitter
accesslog
access_log_format
errorlog
preload_app
control_socket_disable
on_starting
when_ready
child_exit
post_worker_init
_.timeout_ctx
_.handle_error
BareWorker

# flask-smorest, webargs and apispec: class attributes they read and plugin hooks they call
# (service/platform/endpoints/api.py, service/platform/operations/contract.py); werkzeug's request limit.
DEFAULT_VALIDATION_STATUS
ARGUMENTS_PARSER
ERROR_SCHEMA
_.handle_http_exception
_.response_helper
_.operation_helper
_.schema_helper
definition  # the hook's signature
mcs  # marshmallow's metaclass hook get_declared_fields, a classmethod (operations/fields.py)
_.max_content_length

# marshmallow schema fields and the platform's schema hooks, read by name (the loaded body's keys, the
# spec, contract.py); request members the rules read as body["..."].
crv
alg
from_
to
percentile
unusual
seat_commits
open_seats
injuring_abilities
concede_at_consequences
success_rule
gain_over_best_fixed  # advice: the adaptive block, written by the advice view as a dict key
future_losses  # paws.*.advice: read as body["future_losses"]
exclude  # class Meta
LINKS
JSON_SCHEMA_RULES
CHECKED_BEYOND_SCHEMA

# Rules values read by value or written out whole: enum members (Chances("poor")), result and catalogue
# dataclass fields orjson and plain() write from their fields.
POOR
FAIR
GOOD
choices_required
examples_de
recovery
recovery_de

# Settings read by name (limits.py's LimitMessage, AtMost("die_sides")); write_docs runs from the Makefile.
bag_marbles
die_sides
extended_target
write_docs

# Tests and benches: signatures a library calls (WSGI's start_response, httpx's transport, http.server,
# socketserver, requests' Response, schemathesis' checks, Flask's URL variables), fixtures taken for
# their effect, schema fields of test schemas, and tests/client/typed_usage.py, which mypy checks
# (tests/client/test_typing.py) and nothing calls.
exc_info
_.handle_async_request
_.daemon_threads
_.log_message
_._content
ctx
guild
anything
node_tools
tags
exclusive
numbered
roll_and_read
send_a_draw_back
roll_with_a_ticket
odds_and_batch
