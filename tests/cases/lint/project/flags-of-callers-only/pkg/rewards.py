def score(text: str) -> float:
    return float(len(text))
