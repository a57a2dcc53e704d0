"""The phase rules: planning, the action phase (raids, marches, combat, consolidation), Westeros, the end of the game."""
