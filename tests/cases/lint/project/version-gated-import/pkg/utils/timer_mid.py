import time

from transformers.deepspeed import is_deepspeed_zero3_enabled


class Timer:
    def __enter__(self):
        self.start, self.zero3 = time.time(), is_deepspeed_zero3_enabled()

    def __exit__(self, *exc):
        print(f"{time.time() - self.start:.1f}s (ZeRO-3: {self.zero3})")
