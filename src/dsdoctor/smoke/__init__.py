"""``dsdoctor smoke`` (:mod:`dsdoctor.commands.smoke`): a real ZeRO-3 + offload rehearsal of a tiny model.

- :mod:`.config`: the DeepSpeed config it trains with;
- :mod:`.runner`: the run through the ``deepspeed`` launcher and its events;
- :mod:`.checks`: the checks on those events (optimizer, partitioning, loss, 16-bit save), as findings;
- ``train.py``: the training script the ranks run (copied: the target interpreter needs no dsdoctor).
"""
