def build_model(name):
    if name == "short":
        return "short-term model"
    else::
        return None
