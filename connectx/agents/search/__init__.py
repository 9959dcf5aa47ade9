"""The negamax searches: exact proofs, the anytime deepening around them, principal-variation play on open boards."""
