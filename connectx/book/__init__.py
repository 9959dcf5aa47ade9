"""The opening book's generator and its C solver: development tools, never part of a submission."""
