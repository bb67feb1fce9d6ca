"""The public HTTP routes: one module per area, and per game under its own package.

Each module is a mixin of ``Gateway`` (gateway/app.py) holding its async routes,
with its schemas in the ``*_schemas`` module next to it. A route is read from its own
class's body: a handler name that another mixin also defines, or a method and path
that another route has, refuses to start (``routes_of``, gateway/http.py). A handler
only authenticates, loads its input through a schema and makes one RPC call; rules live
in the services.
"""
