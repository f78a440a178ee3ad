"""The metagame lab's numerical core: its analysis and its sampler (docs/metagame.md)."""
