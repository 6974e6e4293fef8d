from ranker.policy.base import BasePolicy, ListwisePolicy, PointwisePolicy  # noqa: F401
