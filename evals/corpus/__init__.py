"""The generated evaluation corpus: ``python -m evals.corpus.generate OUT`` (see README.md)."""
