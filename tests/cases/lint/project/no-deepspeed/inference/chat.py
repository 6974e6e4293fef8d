from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    tok = AutoTokenizer.from_pretrained("my-org/small-chat")
    model = AutoModelForCausalLM.from_pretrained("my-org/small-chat", device_map="auto", low_cpu_mem_usage=True)
    ids = tok("Hello", return_tensors="pt").input_ids.to(model.device)
    print(tok.decode(model.generate(ids, max_new_tokens=20)[0]))


if __name__ == "__main__":
    main()
