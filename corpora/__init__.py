"""Generated knowledge bases with their truth: the demo corpus and the evaluation corpora."""
