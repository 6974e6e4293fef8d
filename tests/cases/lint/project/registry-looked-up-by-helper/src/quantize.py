import sys

from src.engine import Engine

if __name__ == "__main__":
    Engine(sys.argv[1], sys.argv[2]).model.save_pretrained("out/quantized")
