import deepspeed
import hydra
import torch


@hydra.main(config_path="recipes", config_name="base", version_base=None)
def main(cfg):
    net = torch.nn.Linear(4, 4)
    engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg.deepspeed_config)
    engine.train()


if __name__ == "__main__":
    main()
