import deepspeed.runtime.engine as engine


class PatchedEngine(engine.DeepSpeedEngine):
    """A copy of a few engine methods, patched for another accelerator."""

    def save_fp16_model(self, save_dir, save_filename="pytorch_model.bin"):
        """The old name of save_16bit_model."""
        return self.save_16bit_model(save_dir, save_filename)

    def save_16bit_model(self, save_dir, save_filename="pytorch_model.bin"):
        return super().save_16bit_model(save_dir, save_filename)


def patch_engine():
    engine.DeepSpeedEngine.save_fp16_model = PatchedEngine.save_fp16_model
