"""Pure rules of Quest event challenges: location claims, attempts, answers, review."""
