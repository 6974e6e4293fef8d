git clone https://example.org/upstream/base-recipes.git upstream
