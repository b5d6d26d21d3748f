"""Guest code: everything under this package is shipped *inside* generated scripts (inlined as
source by skills/kit/render.py), never imported by them.

A function here must use only the standard library and the libraries scripts may import (openpyxl,
python-docx, python-pptx, pypdf, requests, Pillow), importing them inside its body, and may read no global
name but `json`, `Path`, `HOME`, `P` and other guest functions: the render refuses anything else.
"""

from pathlib import Path

HOME = Path("/home/user")  # the guest home; every rendered script defines the same name
