"""The rooms' followers of runs, gathered for `SimulatorConfig.ready` (as models.py gathers the
rooms' models): each feature built on runs hears when one ends (runs/followers.py)."""

from simulator.doctor.services import FOLLOWER as DOCTOR
from simulator.ladder.services import FOLLOWER as LADDER

# The deck doctor advances as its stage runs end; the bots' ladder is rated when its runs end.
FOLLOWERS = [DOCTOR, LADDER]
