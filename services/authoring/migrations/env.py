from services.authoring.orm import metadata
from shared.migrations import run_migrations_online

run_migrations_online(metadata)
