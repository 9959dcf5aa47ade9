"""Static evaluations a depth-limited search scores its horizon with: window counts, open lines, the fill-up game."""
