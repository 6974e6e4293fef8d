import hydra
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@hydra.main(version_base=None, config_path="config", config_name="unlearn")
def main(cfg):
    args = TrainingArguments(output_dir=cfg.save_dir, learning_rate=cfg.lr, deepspeed="config/ds_z3.json")
    model = AutoModelForCausalLM.from_pretrained(cfg.model_path)
    Trainer(model=model, args=args).train()
    if cfg.save_model:
        model.save_pretrained(cfg.save_dir)


if __name__ == "__main__":
    main()
