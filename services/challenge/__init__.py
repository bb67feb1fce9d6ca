"""challenge: published events (PostGIS), challenges, location claims, attempts, scoring."""
