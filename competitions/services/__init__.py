"""Every write of a competition, one module a sub-domain: `setup`, `entries`, `draws`,
`ties` and `pad`. Keyword-only, one transaction each, raising `DomainError` having changed
nothing. Deciding a tie and sending its winner through is `competitions.results`."""
