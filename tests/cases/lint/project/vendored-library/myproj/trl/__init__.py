"""A copy of a preference-training library, shipped inside the project (written for dsdoctor's tests)."""
