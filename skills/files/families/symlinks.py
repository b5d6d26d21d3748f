"""Files: make Desktop shortcuts as symbolic links to deep folders (not copies of them)."""

from __future__ import annotations

import random

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# (target folder under home, link names people give it, a file it holds)
TARGETS = [
    ("Documents/Thesis/drafts/v3", ["thesis", "Thesis draft"], "chapter2.docx"),
    ("Projects/website/src/content/posts", ["posts", "blog-posts"], "2024-05-hello.md"),
    ("Documents/Finance/2024/receipts", ["receipts", "Receipts 2024"], "march.pdf"),
    ("Pictures/Camera/2024/summer", ["summer-photos", "Summer"], "IMG_0042.jpg"),
    ("Projects/lab/experiments/run-17/results", ["results", "run17"], "metrics.csv"),
    ("Documents/Clients/Acme/contracts", ["acme-contracts", "Acme"], "msa_signed.pdf"),
    ("Music/Podcasts/episodes/raw", ["raw-episodes", "Podcast raw"], "ep12.wav"),
]  # fmt: skip
PLACES = ["Desktop", "Desktop", "Documents/Shortcuts"]


def initial_setup(P):
    for link in P["links"]:
        write_files(HOME / link["target"], [link["file"]])
    (HOME / P["place"]).mkdir(parents=True, exist_ok=True)


def _link(P, copy_last):
    import os
    import shutil

    for i, link in enumerate(P["links"]):
        at = HOME / P["place"] / link["name"]
        if copy_last and i == len(P["links"]) - 1:
            shutil.copytree(HOME / link["target"], at)
        else:
            os.symlink(os.path.relpath(HOME / link["target"], at.parent), at)


def golden_patch(P):
    _link(P, copy_last=False)


def near_miss(P):
    # The last shortcut is a copy of the folder: it looks right in the file manager but goes stale.
    _link(P, copy_last=True)


def reward(P):
    import os

    @precondition("the target folders still hold their files, unchanged")
    def targets_intact():
        return all(sha256_of(HOME / link["target"] / link["file"]["name"]) == link["file"]["sha256"]
                   for link in P["links"])  # fmt: skip

    weight = round(1.0 / len(P["links"]), 4)
    for link in P["links"]:

        @component(f"{P['place']}/{link['name']} is a symbolic link to ~/{link['target']}", weight)
        def linked(link=link):
            at = HOME / P["place"] / link["name"]
            through = at / link["file"]["name"]
            points_right = at.is_symlink() and os.path.realpath(at) == os.path.realpath(HOME / link["target"])
            return points_right and through.is_file() and sha256_of(through) == link["file"]["sha256"]


class Symlinks(Family):
    id = "files.symlinks"
    apps = ("files",)
    difficulty = Difficulty.EASY
    leaves = ("files/links/symlink",)
    domains = (Domain.OFFICE_ADMIN, Domain.EDUCATION, Domain.SCIENCE, Domain.ARTS_MEDIA)
    scenarios = (Scenario.PERSONAL, Scenario.COMMERCIAL, Scenario.EDUCATIONAL)
    helpers = (fake_content, sha256_of, write_files, _link)
    templates = {
        Wording.IMPERATIVE: "In ~/{place}, create symbolic links {links}. They must be links to the folders, "
        "not copies.",
        Wording.REQUEST: "Could you put shortcuts in ~/{place} to folders I use every day? I need symbolic "
        "links {links}. Please don't copy the folders.",
        Wording.CONTEXTUAL: "As {persona}, I waste time clicking through deep folders. Make symbolic links in "
        "~/{place}: {links}, so that changes made through a link land in the real folder.",
        Wording.GOAL: "Goal: ~/{place} contains symbolic links {links}; the target folders are unchanged and "
        "not duplicated.",
        Wording.PROBLEM_FIX: "Getting to my working folders takes too many clicks. Fix it by adding symbolic "
        "links in ~/{place}: {links} (links, not copies).",
    }

    def draw(self, rng: random.Random) -> dict:
        links = []
        for target, names, filename in rng.sample(TARGETS, rng.randint(2, 3)):
            links.append({"target": target, "name": rng.choice(names), "file": make_file(rng, filename)})
        return {"place": rng.choice(PLACES), "links": links}

    def words(self, P: dict) -> dict[str, str]:
        parts = [f"'{link['name']}' pointing to ~/{link['target']}" for link in P["links"]]
        return {"place": P["place"], "links": ", ".join(parts[:-1]) + " and " + parts[-1]}

    def context(self, P: dict) -> str:
        expected = {f"~/{P['place']}/{link['name']}": f"~/{link['target']}" for link in P["links"]}
        return (
            f"The target folders exist, each with one file ({[link['file']['name'] for link in P['links']]}); "
            f"~/{P['place']} exists without the links. Expected symbolic links (relative or absolute): {expected}."
        )
