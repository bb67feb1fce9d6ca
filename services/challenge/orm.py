"""Tables of the challenge database (its game tables arrive with their issues)."""

from sqlalchemy import MetaData

from shared.plumbing_tables import PlumbingTables

metadata = MetaData()
plumbing = PlumbingTables(metadata)
