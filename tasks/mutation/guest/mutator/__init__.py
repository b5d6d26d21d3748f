"""The mutation engine that runs inside the sandbox (see core.py). Standard library plus the guest
libraries (openpyxl, python-docx, python-pptx) only: it parses states that untrusted scripts wrote."""
