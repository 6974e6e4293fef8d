from pkg.train import train

if __name__ == "__main__":
    train()
