"""The agents, one module each (``solver``, ``minimax``, ``negamax``, ``mcts``, ``random``), and ``solver``'s book."""
