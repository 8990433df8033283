"""The slab arena: slabs, the match, bots."""
