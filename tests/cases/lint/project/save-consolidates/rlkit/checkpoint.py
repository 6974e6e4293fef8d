def full_state_dict(engine):
    """Whole 16-bit weights on rank 0: must run on every rank under ZeRO-3."""
    if engine.zero_optimization_partition_weights():
        return engine._zero3_consolidated_16bit_state_dict()
    return engine.module.state_dict()


def save_full(engine, out_dir):
    state = full_state_dict(engine)
    if engine.global_rank == 0:
        engine.module.save_pretrained(out_dir, state_dict=state)
