"""Robot players (``players``), whole simulated games (``simulate``) and the sample game (``demo``)."""
