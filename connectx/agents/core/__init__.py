"""The shipped core every agent stands on: the position, scores, time, Kaggle's boundary, search bookkeeping."""
