"""The public HTTP routes: one module per area, and per game under its own package.

Each module is a mixin of ``Gateway`` (gateway/app.py) holding its async routes,
with its schemas in the ``*_schemas`` module next to it. A handler only authenticates,
loads its input through a schema and makes one RPC call; rules live in the services.
"""
