"""gunicorn glue, outside the Flask app: the service's gevent worker with its deadlines for slow
clients, and the overload shedding in front of the app."""
