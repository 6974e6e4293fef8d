"""Version-ranged facts about upstream projects, one module per project. No I/O here."""
