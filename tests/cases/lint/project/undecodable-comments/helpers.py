def pick_model():
    return "gpt2"  # Ä£ÐÍ (a GBK comment: an import reads past it)
