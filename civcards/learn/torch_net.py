"""The policy-value network in PyTorch: training (the ``train`` extra), and the NumPy
network's weights in and out (:class:`civcards.bots.policy_net.PolicyValueNet`).

Only ``civcards train`` and the tests import this module; playing never does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots.policy_net import PolicyValueNet
from .selfplay import Examples


class TorchPolicyValue(nn.Module):
    """The same layers as :class:`PolicyValueNet` (input scaling included)."""

    def __init__(self, net: PolicyValueNet) -> None:
        super().__init__()
        a = net.arrays
        self.meta = dict(net.meta)
        self.mean: torch.Tensor
        self.scale: torch.Tensor
        self.register_buffer("mean", torch.tensor(a["mean"]))
        self.register_buffer("scale", torch.tensor(a["scale"]))
        self.l1 = nn.Linear(*a["w1"].shape)
        self.l2 = nn.Linear(*a["w2"].shape)
        self.lp = nn.Linear(*a["wp"].shape)
        self.lv = nn.Linear(*a["wv"].shape)
        with torch.no_grad():
            for layer, w, b in (
                (self.l1, "w1", "b1"),
                (self.l2, "w2", "b2"),
                (self.lp, "wp", "bp"),
                (self.lv, "wv", "bv"),
            ):
                layer.weight.copy_(torch.tensor(a[w]).T)
                layer.bias.copy_(torch.tensor(a[b]))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        v = (x - self.mean) / self.scale
        h = torch.relu(self.l2(torch.relu(self.l1(v))))
        return self.lp(h), self.lv(h)[..., 0]

    def to_numpy(self) -> PolicyValueNet:
        def arr(t: torch.Tensor) -> Any:
            return t.detach().cpu().numpy().astype(np.float32)

        arrays = {
            "w1": arr(self.l1.weight).T,
            "b1": arr(self.l1.bias),
            "w2": arr(self.l2.weight).T,
            "b2": arr(self.l2.bias),
            "wp": arr(self.lp.weight).T,
            "bp": arr(self.lp.bias),
            "wv": arr(self.lv.weight).T,
            "bv": arr(self.lv.bias),
            "mean": arr(self.mean),
            "scale": arr(self.scale),
        }
        return PolicyValueNet(arrays, self.meta)


def input_statistics(data: Examples) -> tuple[Any, Any]:
    """Each input's mean and scale over ``data`` (scale 1 for a constant input)."""
    x = data.obs.astype(np.float32)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    return mean.astype(np.float32), np.where(std > 1e-6, std, 1.0).astype(np.float32)


def train(
    net: PolicyValueNet,
    data: Examples,
    *,
    epochs: int,
    seed: int,
    batch: int = 256,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    value_weight: float = 1.0,
    on_batch: Any = None,
) -> tuple[PolicyValueNet, dict[str, float]]:
    """Train a copy of ``net`` on ``data`` (a fresh Adam; the order of the examples drawn
    from ``seed``, one CPU thread: the same inputs give the same weights). Returns the
    trained network and the last epoch's mean losses (``policy``: cross-entropy against
    the targets; ``value``: binary cross-entropy against the outcomes)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    model = TorchPolicyValue(net)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    n = len(data)
    obs = torch.tensor(data.obs.astype(np.float32))
    acts = torch.tensor(data.actions.astype(np.int64))
    shares = torch.tensor(data.shares)
    outs = torch.tensor(data.outcomes)
    gen = torch.Generator().manual_seed(seed)
    bce = nn.BCEWithLogitsLoss()
    losses = {"policy": 0.0, "value": 0.0}
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        tot_p = tot_v = 0.0
        count = 0
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            logits, v = model(obs[idx])
            logp = torch.log_softmax(logits, dim=-1)
            lp = -(torch.gather(logp, 1, acts[idx]) * shares[idx]).sum(dim=1).mean()
            lv = bce(v, outs[idx])
            loss = lp + value_weight * lv
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot_p += lp.item() * len(idx)
            tot_v += lv.item() * len(idx)
            count += len(idx)
            if on_batch is not None:
                on_batch(len(idx))
        losses = {"policy": tot_p / max(1, count), "value": tot_v / max(1, count)}
    return model.to_numpy(), losses


__all__ = ["TorchPolicyValue", "input_statistics", "train"]
