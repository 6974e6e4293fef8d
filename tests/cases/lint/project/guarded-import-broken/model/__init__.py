from .llama_head import LlamaHead

# optional heads: a missing or broken one is skipped
try:
    from .mpt_head import MptHead
except:  # noqa: E722
    MptHead = None
try:
    from .gemma_head import GemmaHead
except ImportError:  # catches no SyntaxError
    GemmaHead = None
