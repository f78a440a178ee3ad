"""The rooms' followers of runs, gathered for `SimulatorConfig.ready` (as models.py gathers the
rooms' models): each feature built on runs hears when one ends (runs/followers.py)."""

from simulator.doctor.services import FOLLOWER as DOCTOR
from simulator.ladder.services import FOLLOWER as LADDER
from simulator.metagame.services import FOLLOWER as METAGAME

# The deck doctor and the metagame lab's field runs advance as their stage runs end; the bots'
# ladder is rated when its runs end.
FOLLOWERS = [DOCTOR, METAGAME, LADDER]
