# Databricks notebook source
# MAGIC %md
# MAGIC # Fine-tune with DeepSpeed
# MAGIC The training module reads the DeepSpeed config itself and hands it to the HF Trainer.

# COMMAND ----------

num_gpus = 8

# COMMAND ----------

# MAGIC  !cd .. && deepspeed \
# MAGIC --num_gpus="{num_gpus}" \
# MAGIC --module tuner.fine_tune \
# MAGIC --output_dir="/local_disk0/output" \
# MAGIC --deepspeed_config="ds_configs/zero3.json"

# COMMAND ----------

!deepspeed --num_gpus=8 --module tuner.fine_tune --output_dir=/local_disk0/again \
  --deepspeed_config=ds_configs/zero3.json

# COMMAND ----------

print("done")
