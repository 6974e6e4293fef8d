from transformers import CLIPVisionModel, LlamaConfig, LlamaForCausalLM


class TowerModel(LlamaForCausalLM):
    """A language model with vision towers that the saved config asks for."""

    def __init__(self, config: LlamaConfig):
        super().__init__(config)
        if getattr(config, "extra_encoder", False):  # set only from --extra_encoder, which no launch passes
            self.extra = CLIPVisionModel.from_pretrained("openai/clip-vit-base-patch32", device_map="auto")
        if getattr(config, "aux_tower", False):  # set from --aux_tower, which the ZeRO-3 launch passes
            self.aux = CLIPVisionModel.from_pretrained("openai/clip-vit-base-patch32", device_map="auto")

    def initialize_towers(self, model_args):
        self.config.extra_encoder = model_args.extra_encoder
        self.config.aux_tower = model_args.aux_tower
