# an mmcv-style config: DeepSpeed is switched off, the config path beside it is never read
deepspeed = False
deepspeed_config = 'zero_configs/adam_zero1.json'
model = dict(type='EncoderDecoder', pretrained=None)
optimizer = dict(type='AdamW', lr=4e-5)
