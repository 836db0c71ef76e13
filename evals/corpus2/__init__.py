"""The second generated corpus: other companies, layouts, languages and document kinds."""
