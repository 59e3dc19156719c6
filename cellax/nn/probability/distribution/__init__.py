"""``mindspore.nn.probability.distribution``: Normal, Uniform, Bernoulli and Categorical
distributions with MindSpore's method names (prob, log_prob, cdf, mean, sd, var, entropy,
kl_loss, cross_entropy, sample...). Other MindSpore distributions (Beta, Gamma, Poisson...)
and ``nn.probability.bijector`` are not provided."""

from ._distribution import Bernoulli, Categorical, Distribution, Normal, Uniform

__all__ = ["Distribution", "Normal", "Uniform", "Bernoulli", "Categorical"]
