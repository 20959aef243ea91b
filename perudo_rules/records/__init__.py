"""Floor 4, the records: games written down and read back.

Positions (:mod:`~perudo_rules.records.position`), the record format and game records
(like PGN for chess), games as JSON for servers, redaction for one viewer, the referee
that replays a record, and play described in words.
"""
