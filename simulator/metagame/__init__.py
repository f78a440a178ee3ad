"""The metagame lab's numerical core (issue #28): which deck to bring to a field of decks.

`analysis.analyse` turns a field's heads-up results into answers with their uncertainty;
`sampler.plan_round` decides where the next games go. Pure: numpy and scipy on plain data, no
Django (the lab's room on the Django side stores runs and calls these). docs/metagame.md.
"""
