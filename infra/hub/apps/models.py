"""Base class of every app's state models.

Extra keys are allowed everywhere: task generators may attach fields a schema does not know
(the UI ignores them and the diff still reports them), while the fields it does know are typed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
