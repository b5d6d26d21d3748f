"""Guest-side code: shipped *inside* generated scripts (inlined as source), never imported by them.

Everything here must use only the standard library and must stay valid when pasted at module level
of a script that runs in an OSWorld VM.
"""

from pathlib import Path

HOME = Path("/home/user")  # the guest home; every rendered script defines the same name
