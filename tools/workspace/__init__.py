"""The SQL workspace of each conversation: tables loaded from documents, counted with SQL.

``tools.workspace.workspace.Workspaces`` is the entry point; ``hint`` holds the sentence an
extraction's answer offers as the next step. Nothing is imported here, so the answer's
builder can use the hint without loading the SQL parser.
"""
