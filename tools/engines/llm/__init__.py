"""The LLM engine: requests and documents read by any OpenAI-compatible chat model.

- ``endpoint``: the model's settings from a profile, the endpoints a key may go to, the client.
- ``calls``: one structured call to the model, holding a model slot, and its failures in words.
- ``schemas``: the structures the model answers in (a request's reading, a document's records).
- ``windows``: a document's pages cut into windows that fit the model's context, and halved.
- ``prompts``: the prompts of an extraction: the columns and rules, a window's marked text.
- ``rows``: a document's rows from the answers: read, merged across windows, checked.
- ``reading``: the model's reading of a request turned into Kea's, with what it left unread.
- ``engine``: ``LLMEngine``, which reads a request and a document's windows with the above.
"""
