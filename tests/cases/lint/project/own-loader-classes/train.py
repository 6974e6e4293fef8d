"""Trains a video model under ZeRO-3; several classes' from_pretrained take low_cpu_mem_usage=True."""
from diffusers import UNet2DConditionModel
from studio.models import FrameDecoder, T5EncoderModel, TunedLM, VideoNet, WrappedLM
from transformers import HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
net = VideoNet.from_pretrained("ckpt/net", low_cpu_mem_usage=True)  # its own loader: none
decoder = FrameDecoder.from_pretrained("ckpt/decoder", low_cpu_mem_usage=True)  # diffusers' loader: none
unet = UNet2DConditionModel.from_pretrained("ckpt/unet", low_cpu_mem_usage=True)  # diffusers' loader: none
text = T5EncoderModel.from_pretrained("ckpt/t5", low_cpu_mem_usage=True)  # Transformers' class: a finding
lm = TunedLM.from_pretrained("ckpt/lm", low_cpu_mem_usage=True)  # a Transformers subclass: a finding
wrapped = WrappedLM.from_pretrained("ckpt/lm", low_cpu_mem_usage=True)  # handed on to Transformers: a finding
trainer = Trainer(model=lm, args=training_args)
trainer.train()
