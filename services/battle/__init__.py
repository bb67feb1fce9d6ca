"""battle: matches of all three games, their rules engines, turn deadlines, CPU players."""
