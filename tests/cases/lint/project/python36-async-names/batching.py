def to_device(batch):
    return {k: v.cuda(async=True) for k, v in batch.items()}
