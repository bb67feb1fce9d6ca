"""Deckyard's common library: contracts and plumbing shared by every service.

Nothing here imports a service or holds game rules.
"""
