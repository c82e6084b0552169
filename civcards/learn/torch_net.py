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
    n = max(1, len(data))
    total, squares = data.obs.column_moments()
    mean = total / n
    std = np.sqrt(np.maximum(squares / n - mean * mean, 0.0))
    return mean.astype(np.float32), np.where(std > 1e-6, std, 1.0).astype(np.float32)


def _batch(data: Examples, idx: Any) -> tuple[torch.Tensor, ...]:
    """The examples ``idx`` as tensors (their observations made dense)."""
    rows = np.asarray(idx, np.int64)
    return (
        torch.from_numpy(data.obs.dense(rows)),
        torch.from_numpy(data.actions[rows].astype(np.int64)),
        torch.from_numpy(data.shares[rows]),
        torch.from_numpy(data.outcomes[rows]),
    )


def _losses(
    model: TorchPolicyValue, batch: tuple[torch.Tensor, ...], bce: nn.Module
) -> tuple[torch.Tensor, torch.Tensor]:
    obs, acts, shares, outs = batch
    logits, v = model(obs)
    logp = torch.log_softmax(logits, dim=-1)
    lp = -(torch.gather(logp, 1, acts) * shares).sum(dim=1).mean()
    return lp, bce(v, outs)


def evaluate(net: PolicyValueNet, data: Examples, batch: int = 1024) -> dict[str, float]:
    """``net``'s mean losses on ``data`` (``policy``, ``value``), without training."""
    return _evaluate(TorchPolicyValue(net), data, batch)


def _evaluate(model: TorchPolicyValue, data: Examples, batch: int = 1024) -> dict[str, float]:
    bce = nn.BCEWithLogitsLoss()
    tot_p = tot_v = 0.0
    with torch.no_grad():
        for start in range(0, len(data), batch):
            idx = np.arange(start, min(len(data), start + batch))
            lp, lv = _losses(model, _batch(data, idx), bce)
            tot_p += lp.item() * len(idx)
            tot_v += lv.item() * len(idx)
    n = max(1, len(data))
    return {"policy": tot_p / n, "value": tot_v / n}


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
    valid: Examples | None = None,
    patience: int = 1,
    on_epoch: Any = None,
) -> tuple[PolicyValueNet, dict[str, Any]]:
    """Train a copy of ``net`` on ``data`` (a fresh Adam; the order of the examples drawn
    from ``seed``, one CPU thread: the same inputs give the same weights). Returns the
    trained network and the last epoch's mean losses (``policy``: cross-entropy against
    the targets; ``value``: binary cross-entropy against the outcomes).

    With ``valid`` (held-out examples): after every epoch the losses on them
    (``valid_policy``, ``valid_value``); training stops once their sum has not improved
    for ``patience`` epochs, and the network of the best epoch is returned (its losses,
    ``epoch`` its number from 1, ``epochs`` every epoch's). ``on_epoch`` receives each
    epoch's losses."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    model = TorchPolicyValue(net)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    n = len(data)
    gen = torch.Generator().manual_seed(seed)
    bce = nn.BCEWithLogitsLoss()
    losses: dict[str, Any] = {"policy": 0.0, "value": 0.0}
    history: list[dict[str, float]] = []
    best: tuple[float, dict[str, Any], dict[str, torch.Tensor]] | None = None
    for epoch in range(epochs):
        order = torch.randperm(n, generator=gen).numpy()
        tot_p = tot_v = 0.0
        count = 0
        model.train()
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            lp, lv = _losses(model, _batch(data, idx), bce)
            loss = lp + value_weight * lv
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
            opt.step()
            tot_p += lp.item() * len(idx)
            tot_v += lv.item() * len(idx)
            count += len(idx)
            if on_batch is not None:
                on_batch(len(idx))
        losses = {"policy": tot_p / max(1, count), "value": tot_v / max(1, count)}
        if valid is not None and len(valid):
            model.eval()
            v = _evaluate(model, valid)
            losses.update({"valid_policy": v["policy"], "valid_value": v["value"]})
            losses["epoch"] = epoch + 1
            history.append(dict(losses))
            if on_epoch is not None:
                on_epoch(dict(losses))
            score = v["policy"] + value_weight * v["value"]
            if best is None or score < best[0]:
                state = {k: t.detach().clone() for k, t in model.state_dict().items()}
                best = (score, dict(losses), state)
            elif epoch + 1 - int(best[1]["epoch"]) >= patience:
                break
        elif on_epoch is not None:
            on_epoch(dict(losses, epoch=epoch + 1))
    if best is not None:
        model.load_state_dict(best[2])
        losses = dict(best[1], epochs=history)
    return model.to_numpy(), losses


__all__ = ["TorchPolicyValue", "evaluate", "input_statistics", "train"]
