# dsdoctor-case: target=transformers==4.46.3 zero3=script
# expect: model-loaded-before-ds-config@17 error
# expect: hf-deepspeed-config-not-kept@24 error
"""A raw deepspeed.initialize script: model loaded first, then a dropped HfDeepSpeedConfig."""
import deepspeed
from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig

ds_config = {
    "train_micro_batch_size_per_gpu": 1,
    "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}},
}


def main():
    deepspeed.init_distributed()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    configure()
    engine, *_ = deepspeed.initialize(model=model, config=ds_config, model_parameters=model.parameters())
    engine.train()


def configure():
    HfDeepSpeedConfig(ds_config)  # dropped at once: transformers keeps a weakref only


if __name__ == "__main__":
    main()
