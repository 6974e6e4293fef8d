from .modeling import load_for_chat


def chat_once(path, prompt):
    model, tok = load_for_chat(path)
    return tok.decode(model.generate(**tok(prompt, return_tensors="pt"))[0])
