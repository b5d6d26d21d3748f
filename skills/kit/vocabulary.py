"""The personas a family's instructions are told for. The words a family is described in and the
TaskSpec it produces are contracts shared with tasks/ and training/: infra/contracts/task.py.
"""

from __future__ import annotations

PERSONAS = (
    "an accounts-payable clerk",
    "a high-school teacher",
    "a lab technician",
    "a small-shop owner",
    "a project manager",
    "a graduate student",
    "an HR coordinator",
    "a freelance designer",
    "a logistics planner",
    "a clinic administrator",
    "a data analyst",
    "a sales representative",
    "a software developer",
    "a paralegal",
    "a research scientist",
    "a retired engineer",
)
