"""The bad-input campaign over cellax.nn layers and optimizers (issue 22, tools/
fuzz_bad_input_layers.py): every trial raises a builtin type naming the API, or accepts.

The suite draws a fixed sample of trials (hypothesis, derandomized); ``CELLAX_HYPOTHESIS=long``
draws far more and also runs the whole campaign (about 2,000 calls, a few minutes).
"""

import os
import pathlib
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import fuzz_bad_input_layers as campaign
finally:
    sys.path.pop(0)

LONG = os.environ.get("CELLAX_HYPOTHESIS") == "long"
LAYERS = [name for name, _ in campaign.layer_classes()]
OPTIMIZER_TRIALS = list(campaign.optimizer_trials())


@settings(max_examples=2000 if LONG else 15)
@given(data=st.data())
def test_layer_trials_keep_the_error_contract(data):
    name = data.draw(st.sampled_from(LAYERS), label="layer")
    where, call = data.draw(st.sampled_from(list(campaign.class_trials(name))), label="trial")
    assert campaign.campaign(sample=[(where, call)]) == []


@settings(max_examples=500 if LONG else 15)
@given(trial=st.sampled_from(OPTIMIZER_TRIALS))
def test_optimizer_trials_keep_the_error_contract(trial):
    assert campaign.campaign(sample=[trial]) == []


@pytest.mark.skipif(not LONG, reason="the whole campaign runs with CELLAX_HYPOTHESIS=long")
def test_whole_layer_campaign():
    assert campaign.campaign() == []


@pytest.mark.skipif(not LONG, reason="builds every layer: runs with CELLAX_HYPOTHESIS=long")
def test_every_layer_class_builds_and_runs_for_the_campaign():
    # a class the campaign cannot build would test nothing: its trial reports it
    unbuilt = [name for name in LAYERS if campaign._working(name)[0] is None]
    assert unbuilt == []
