"""The schema's revisions, one file each (Alembic reads them; this package only ships them)."""
