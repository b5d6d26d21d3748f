"""The computer_use agent interface: its action space (actions.py), the coordinate spaces of model
families (coords.py), the two Qwen tool-call formats (formats.py), and execution on a desktop
(executor.py). Shared by rollouts (tasks/) and training (training/), so it lives in infra/."""
