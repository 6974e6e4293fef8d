"""dsdoctor: preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups."""

__version__ = "0.1.0"
