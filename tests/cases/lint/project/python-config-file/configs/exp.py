model = dict(
    repo_id="gpt2",
    load_from_origin=False,
    origin_llm="",
    cpu_vision_init=False,
    origin_vision="",
)
batch_size = 4
