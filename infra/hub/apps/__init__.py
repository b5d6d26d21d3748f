"""The mock apps. Each subpackage exposes `APP: MockApp` (see infra/hub/registry.py)."""
