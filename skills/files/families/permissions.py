"""Files: fix permissions in a project folder: scripts executable, a secrets folder private, and
sometimes a file read-only. Modes are read with os.stat; content hashes prove no file was replaced."""

from __future__ import annotations

import random

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

TOOLS = ["backup-tool", "deploy-kit", "lab-pipeline", "photo-sync", "report-gen", "invoice-bot", "site-builder"]
SCRIPTS = ["deploy.sh", "backup.sh", "build.sh", "run_tests.sh", "setup.sh", "cleanup.sh", "sync.sh", "start.sh"]
OTHERS = ["README.md", "config.ini", "requirements.txt", "CHANGELOG.md", "data.csv", "Makefile.inc"]
PRIVATE = [("secrets", ["api_token.txt", "db_password.txt"]), ("keys", ["id_deploy", "id_deploy.pub"]),
           ("credentials", ["aws.ini", "smtp.txt"]), ("private", ["salary_notes.md", "contacts.csv"])]  # fmt: skip
LOCKED = ["LICENSE.txt", "release-notes-v1.0.md", "signed_contract.pdf", "checksums.sha256"]


def initial_setup(P):
    import os

    root = HOME / P["root"]
    private = root / P["private"]["name"]
    write_files(root, P["scripts"] + P["others"] + ([P["locked"]] if P["locked"] else []))
    write_files(private, P["private"]["files"])
    for spec in P["scripts"] + P["others"] + ([P["locked"]] if P["locked"] else []):
        os.chmod(root / spec["name"], 0o644)
    for spec in P["private"]["files"]:
        os.chmod(private / spec["name"], 0o644)
    os.chmod(private, 0o755)


def _fix(P, folder_mode):
    import os

    root = HOME / P["root"]
    for spec in P["scripts"]:
        os.chmod(root / spec["name"], 0o755)
    os.chmod(root / P["private"]["name"], folder_mode)
    if P["locked"]:
        os.chmod(root / P["locked"]["name"], 0o444)


def golden_patch(P):
    _fix(P, 0o700)


def near_miss(P):
    # chmod 750 instead of 700: the group can still list and read the private folder.
    _fix(P, 0o750)


def reward(P):
    import os
    import stat

    root = HOME / P["root"]

    def mode(path):
        return stat.S_IMODE(os.stat(path, follow_symlinks=False).st_mode)

    def intact(folder, spec):
        path = folder / spec["name"]
        return path.is_file() and not path.is_symlink() and sha256_of(path) == spec["sha256"]

    @precondition("other project files are unchanged and not made executable")
    def others_kept():
        return all(intact(root, spec) and mode(root / spec["name"]) & 0o111 == 0 for spec in P["others"])

    weights = P["weights"]

    @component("every .sh script is rwxr-xr-x (755) with its content unchanged", weights["scripts"])
    def scripts_executable():
        return sum(intact(root, s) and mode(root / s["name"]) == 0o755 for s in P["scripts"]) / len(P["scripts"])

    @component(f"{P['private']['name']}/ is private to its owner (700) and keeps its files", weights["private"])
    def folder_private():
        private = root / P["private"]["name"]
        files_ok = all(intact(private, spec) for spec in P["private"]["files"])
        return private.is_dir() and not private.is_symlink() and mode(private) == 0o700 and files_ok

    if P["locked"]:

        @component(f"{P['locked']['name']} is read-only for everyone (444)", weights["locked"])
        def read_only():
            return intact(root, P["locked"]) and mode(root / P["locked"]["name"]) == 0o444


class Permissions(Family):
    id = "files.permissions"
    apps = ("files",)
    difficulty = Difficulty.EASY
    leaves = ("files/permissions/make_executable", "files/permissions/private_folder",
              "files/permissions/read_only")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.SCIENCE, Domain.OFFICE_ADMIN)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC, Scenario.PERSONAL)
    helpers = (fake_content, sha256_of, write_files, _fix)
    templates = {
        Wording.IMPERATIVE: "In ~/{root}, make every .sh script executable (rwxr-xr-x, 755) and make the "
        "{private}/ folder accessible only to its owner (rwx------, 700).{locked} Don't make any other file "
        "executable.",
        Wording.REQUEST: "Can you fix the permissions in ~/{root}? The shell scripts ({scripts}) should be "
        "executable (755), and {private}/ should be private to me (700).{locked} Other files stay as they are.",
        Wording.CONTEXTUAL: "As {persona}, I copied ~/{root} from a USB stick and the permissions are wrong. "
        "The .sh scripts need to run (mode 755) and nobody but me may open {private}/ (mode 700).{locked} "
        "Leave the other files non-executable.",
        Wording.GOAL: "Goal: in ~/{root}, the scripts {scripts} have mode 755, the folder {private}/ has mode "
        "700 with its files intact,{locked_goal} and no other file is executable.",
        Wording.PROBLEM_FIX: "Running ./{first_script} in ~/{root} fails with 'Permission denied', and "
        "{private}/ is readable by everyone. Fix it: all .sh scripts 755, {private}/ 700.{locked} Other files "
        "must not become executable.",
    }

    def draw(self, rng: random.Random) -> dict:
        private_name, private_files = rng.choice(PRIVATE)
        scripts = [make_file(rng, n, high=4000) for n in rng.sample(SCRIPTS, rng.randint(2, 4))]
        others = [make_file(rng, n, high=6000) for n in rng.sample(OTHERS, rng.randint(2, 3))]
        locked = make_file(rng, rng.choice(LOCKED), high=8000) if rng.random() < 0.5 else None
        weights = {"scripts": 0.4, "private": 0.3, "locked": 0.3} if locked else {"scripts": 0.5, "private": 0.5}
        return {
            "root": f"Projects/{rng.choice(TOOLS)}",
            "scripts": scripts,
            "others": others,
            "private": {"name": private_name, "files": [make_file(rng, n, high=2000) for n in private_files]},
            "locked": locked,
            "weights": weights,
        }

    def words(self, P: dict) -> dict[str, str]:
        locked = P["locked"]["name"] if P["locked"] else None
        return {
            "root": P["root"],
            "private": P["private"]["name"],
            "scripts": ", ".join(s["name"] for s in P["scripts"]),
            "first_script": P["scripts"][0]["name"],
            "locked": f" Also make {locked} read-only for everyone (r--r--r--, 444)." if locked else "",
            "locked_goal": f" {locked} has mode 444," if locked else "",
        }

    def context(self, P: dict) -> str:
        locked = f"; {P['locked']['name']} 0644 -> 0444" if P["locked"] else ""
        return (
            f"~/{P['root']}: scripts {[s['name'] for s in P['scripts']]} mode 0644 -> expected 0755; folder "
            f"{P['private']['name']}/ (files {[f['name'] for f in P['private']['files']]}) 0755 -> expected 0700"
            f"{locked}; other files {[o['name'] for o in P['others']]} stay 0644. Contents must not change."
        )
