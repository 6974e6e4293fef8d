def load_model(backend, model_args):
    if backend == "hf":
        from ranker.lm.hf import HFLM

        return HFLM(**model_args)
    raise ValueError(backend)
