# The README's two commands: `make demo` (the main job on embedded defaults) and `make test`.
# Both install what they need first; every step is idempotent.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.cuagym-installed

.PHONY: setup system demo demo-llm demo-learn test test-learning lint bench clean-var fresh-check server server-stop vm-image test-vm docs

setup: system $(STAMP) guest

system:
	@bash infra/setup/system-deps.sh

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -e ".[test,train,vm]"
	@touch $(STAMP)

guest: $(STAMP)
	@$(VENV)/bin/cuagym setup --quiet --local-model smollm2-135m
	@$(VENV)/bin/cuagym desktop setup --quiet

# A new web app synthesized from a description (accepted only if it renders in Chromium and keeps the
# state contract; the hub then hosts it), then the batch of 32 tuples (at least one per app: 29 apps).
demo: setup
	@$(VENV)/bin/cuagym hub synth-app --like "a help desk with tickets, SLAs and macros" --name helpdesk_synth
	@$(VENV)/bin/cuagym synth --count 32 --seed 0 --workers 2 --teacher-limit 4

# The LLM roles on a real (tiny) model served here for the run: SmolLM2-135M-Instruct from PyPI
# (docs/synthesis.md: "A real model, no keys"). Its task writer never produced a usable task, so the
# tasks stay procedural unless TASK_WRITER=llm; expect rejections with their reasons, none verified.
TASK_WRITER ?= procedural
demo-llm: setup
	@$(VENV)/bin/cuagym synth --local-model smollm2-135m --task-writer-backend $(TASK_WRITER) --count 2 \
		--seed 0 --apps files --workers 1 --max-rounds 1 --agent-steps 2 --critics 1 --teacher-k 0

# "It learns" (docs/training.md): real tuples of the easiest family from the synthesis flow (training
# and held-out tuples from two seeds), its GUI teacher's trajectories, SFT of the tiny CPU policy on
# them, then GSPO from it; each run's held-out evaluation is in its table and its chart (~12 min).
LEARN := var/learn
demo-learn: setup
	@$(VENV)/bin/cuagym synth --families files.bin_scripts --count 8 --seed 1 --teacher-k 0 --out $(LEARN)/train
	@$(VENV)/bin/cuagym synth --families files.bin_scripts --count 4 --seed 2 --teacher-k 0 --out $(LEARN)/held-out
	@$(VENV)/bin/cuagym rollout $(LEARN)/train/final/* --policy scripted --k 2 --workers 2 --out $(LEARN)/teacher
	@$(VENV)/bin/cuagym train sft --config configs/learn-sft.yaml
	@$(VENV)/bin/cuagym train gspo --config configs/learn-gspo.yaml
	@$(VENV)/bin/cuagym report training --run $(LEARN)/sft --chart output/reports/learn-sft.png
	@$(VENV)/bin/cuagym report training --run $(LEARN)/gspo --chart output/reports/learn-gspo.png

test: setup
	@$(VENV)/bin/ruff check .
	@$(PY) -m pytest -q -n 2 --dist loadfile --durations=15 -m "not learning"

# "It learns" as a test (docs/training.md): SFT then GSPO on real tuples must raise held-out success
# and mean reward (~6 min; kept out of `make test` so the suite stays inside 30 min).
test-learning: setup
	@$(PY) -m pytest -q -m learning

# The libvirt provider (docs/desktops.md: "VM guests (libvirt)"): its guest image (as root; minutes the first
# time, cached under var/images), and its tests alone (they also run in `make test` where root and
# libvirtd's packages are there; libvirtd is started for the run when none is up).
vm-image: setup
	@$(VENV)/bin/cuagym vm image

test-vm: vm-image
	@$(PY) -m pytest -q tests/vm

lint: $(STAMP)
	@$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

bench: setup
	@$(PY) bench/sandbox_overhead.py
	@$(PY) bench/cogen_stages.py

# A Prefect server (UI on http://127.0.0.1:4200) on PostgreSQL, serving prefect.yaml's deployments
# through a process worker; it keeps running until `make server-stop` (docs/operations.md: "Prefect server for operators").
server: setup
	@$(VENV)/bin/cuagym server start

server-stop: $(STAMP)
	@$(VENV)/bin/cuagym server stop

# The command reference, generated from every command's --help (tests/test_docs.py fails while it is stale).
docs: $(STAMP)
	@$(PY) -m flows.cli_reference > docs/cli.md.tmp && mv docs/cli.md.tmp docs/cli.md

clean-var:
	rm -rf var output

# Proves the README's two commands on a fresh clone of the committed tree with a fresh var/.
fresh-check:
	@bash infra/setup/fresh-check.sh
