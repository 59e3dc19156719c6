"""MindSpore's shuffle orders, reproduced: ``std::shuffle`` (libstdc++) driven by
``std::mt19937`` seeded with the dataset seed.

MindSpore's RandomSampler and DistributedSampler shuffle the row ids with ``std::mt19937(seed)``
at the first epoch, then, at every later epoch ``e``, shuffle the previous epoch's order again
with ``std::mt19937(seed + e)``. NumPy's legacy ``RandomState(seed)`` is the same Mersenne
Twister with the same 32-bit seeding, so its raw 32-bit outputs are ``std::mt19937``'s.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Mt19937", "std_shuffle", "EpochShuffler", "draws"]

_U32 = 0xFFFFFFFF


class Mt19937:
    """The raw 32-bit outputs of ``std::mt19937(seed)``, drawn in blocks."""

    def __init__(self, seed: int) -> None:
        self._state = np.random.RandomState(seed & _U32)
        self._block = np.zeros(0, np.uint64)
        self._next = 0

    def __call__(self) -> int:
        if self._next == len(self._block):
            self._block = self._state.randint(0, 2**32, size=4096, dtype=np.uint64)
            self._next = 0
        value = int(self._block[self._next])
        self._next += 1
        return value


def _uniform(gen: Mt19937, high: int) -> int:
    """``std::uniform_int_distribution<>(0, high)(gen)`` of the libstdc++ MindSpore 2.10 is
    built with: down-scaling by division, rejecting the top partial bucket."""
    span = high + 1
    scaling = _U32 // span
    past = span * scaling
    while True:
        value = gen()
        if value < past:
            return value // scaling


def std_shuffle(values: list, gen: Mt19937) -> list:
    """``std::shuffle(values.begin(), values.end(), gen)`` of libstdc++, in place."""
    n = len(values)
    if n <= 1:
        return values
    if _U32 // n < n:  # too many ids for two draws per number: one swap per draw
        for i in range(1, n):
            j = _uniform(gen, i)
            values[i], values[j] = values[j], values[i]
        return values
    i = 1
    if n % 2 == 0:
        j = _uniform(gen, 1)
        values[i], values[j] = values[j], values[i]
        i += 1
    while i != n:
        span = i + 1
        x = _uniform(gen, span * (span + 1) - 1)
        first, second = divmod(x, span + 1)
        values[i], values[first] = values[first], values[i]
        i += 1
        values[i], values[second] = values[second], values[i]
        i += 1
    return values


class EpochShuffler:
    """MindSpore's chained per-epoch shuffles of ``base`` (a list of ids): epoch 0 shuffles
    ``base`` with ``std::mt19937(seed)``, epoch ``e`` shuffles epoch ``e - 1``'s order with
    ``std::mt19937(seed + step * e)`` (``step`` is 1 for RandomSampler and DistributedSampler,
    0 for SubsetRandomSampler). Remembers the last epoch computed, so epochs read in sequence
    cost one shuffle each."""

    def __init__(self, step: int = 1) -> None:
        self.step = step
        self._cache = None  # (key, epoch, order)

    def order(self, base, seed: int, epoch: int) -> np.ndarray:
        key = (len(base), seed)
        cache = self._cache
        if cache is not None and cache[0] == key and cache[1] <= epoch:
            start, values = cache[1] + 1, list(cache[2])
        else:
            start, values = 0, [int(v) for v in base]
        for e in range(start, epoch + 1):
            std_shuffle(values, Mt19937(seed + self.step * e))
        order = np.asarray(values, np.int64)
        self._cache = (key, epoch, order)
        return order


def draws(n: int, count: int, seed: int) -> np.ndarray:
    """``count`` draws of ``std::uniform_int_distribution<>(0, n - 1)`` from
    ``std::mt19937(seed)`` (RandomSampler with replacement)."""
    gen = Mt19937(seed)
    return np.asarray([_uniform(gen, n - 1) for _ in range(count)], np.int64)


class Mt19937_64:
    """``std::mt19937_64(seed)``: the 64-bit Mersenne Twister (MindSpore's shuffle buffer)."""

    _N, _M = 312, 156
    _MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        mt = [seed & self._MASK]
        for i in range(1, self._N):
            prev = mt[-1]
            mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & self._MASK)
        self._mt, self._index = mt, self._N

    def _twist(self) -> None:
        mt, n, m = self._mt, self._N, self._M
        upper, lower = 0xFFFFFFFF80000000, 0x7FFFFFFF
        for i in range(n):
            y = (mt[i] & upper) | (mt[(i + 1) % n] & lower)
            mt[i] = mt[(i + m) % n] ^ (y >> 1) ^ (0xB5026F5AA96619E9 if y & 1 else 0)
        self._index = 0

    def __call__(self) -> int:
        if self._index >= self._N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & self._MASK


def buffer_shuffle(rows, size: int, gen: Mt19937_64):
    """MindSpore's shuffle buffer: fill ``size`` rows, then repeatedly emit a random slot, move
    the last row into it and refill the last slot from the input; drain at the end."""
    rows = iter(rows)
    buffer = []
    for row in rows:
        buffer.append(row)
        if len(buffer) == size:
            break
    active = len(buffer) == size
    last = len(buffer) - 1
    while last >= 0:
        slot = gen() % (last + 1)
        yield buffer[slot]
        buffer[slot] = buffer[last]
        if active:
            try:
                buffer[last] = next(rows)
            except StopIteration:
                active = False
        if not active:
            last -= 1
