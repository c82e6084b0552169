"""Learning to play: self-play examples (:mod:`.selfplay`, NumPy only), the network in
PyTorch (:mod:`.torch_net`, the ``train`` extra) and the generations of
``civcards train`` (:mod:`.loop`). See docs/learning.md."""
