"""Settings of the `libvirt` provider: where libvirt is, what each guest gets, how long it may boot.

Every field can be set with a `CUAGYM_VM_*` environment variable (`CUAGYM_VM_MEMORY_MB=2048`).
The defaults suit a host without KVM, where QEMU emulates the CPU (TCG): one vCPU (TCG runs one
host thread per vCPU and this is a desktop that idles), a small screen, and a generous boot timeout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from infra.settings import get_settings


class VmConfig(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CUAGYM_VM_", extra="ignore", frozen=True)

    uri: str = Field(default="qemu:///system", description="libvirt connection URI")
    domain_type: Literal["qemu", "kvm"] = Field(
        default="qemu", description="qemu: software emulation (TCG, works anywhere); kvm: hardware"
    )
    memory_mb: int = Field(default=1024, ge=256, description="guest RAM (also what a memory snapshot holds)")
    vcpus: int = Field(default=1, ge=1, le=64)
    width: int = Field(default=1280, ge=320)
    height: int = Field(default=800, ge=200)
    guest_port: int = Field(default=8000, ge=1, le=65535, description="the in-guest server's TCP port")
    boot_timeout_s: float = Field(default=300.0, gt=0, description="define to ready line")
    images_dir: Path | None = Field(default=None, description="guest images (default var/images)")

    @property
    def images_path(self) -> Path:
        return self.images_dir or get_settings().var_dir / "images"
