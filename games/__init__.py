"""The rulebooks as code: pure, standard library only (docs/architecture.md, "The games layer")."""
