"""Cards: rarity, role and skill, stats and effects, derived into a Breakdown."""
