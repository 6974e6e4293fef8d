import parse_nk

if __name__ == "__main__":
    parse_nk.train()
