"""accounts: players, identity link, roles, progression, account deletion."""
