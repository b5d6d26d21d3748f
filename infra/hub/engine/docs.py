"""The documents an engine app ships, written from its definition: SCHEMA.md (the state's shape, for
people and reward authors) and SKILL.md's app-independent part (how scripts reach the hub, how the
engine's UI changes state, its bitter lessons) for the LLM roles. An app's own knowledge goes in
SKILL.md's "App notes", which `skill_md` keeps when it rewrites the rest.
"""

from __future__ import annotations

from infra.hub.engine.definition import AppDefinition, FieldDef, FieldType

NOTES = "## App notes"


def _type(f: FieldDef) -> str:
    if f.type is FieldType.ENUM:
        return " \\| ".join(f.options)
    if f.type in (FieldType.REF, FieldType.REFS):
        return f"{f.type} → {f.to}" + (" or null" if f.optional else "")
    return f.type.value


def _state_table(d: AppDefinition) -> list[str]:
    rows = ["| Key | Fields | Notes |", "|---|---|---|"]
    rows.append(f"| `current_user` | a `{d.people}` id | seed `{d.seed.current_user}` |")
    for name, e in d.entities.items():
        fields = ", ".join(f"`{k}`{'*' if f.required else ''}: {_type(f)}" for k, f in e.fields.items())
        prefix = e.id_prefix or name[0]
        seeded = len(d.seed.records.get(name, {})) + d.seed.generate.get(name, 0)
        rows.append(f"| `{name}.<id>` | {fields} | {e.label}; ids `{prefix}` + 4 digits; {seeded} seeded |")
    rows.append(f"| {', '.join(f'`{v}`' for v in d.volatile)} | | **volatile** (not in `/go`'s diff) |")
    return rows


def schema_md(d: AppDefinition) -> str:
    lines = [
        f"# {d.title} (hub app `{d.name}`): state schema",
        "",
        f"{d.description} Modelled on the {d.category.lower()} category; built by the app engine from",
        f"`infra/hub/apps/{d.name}/definition.yaml` (this file is generated from it: `cuagym hub docs {d.name}`).",
        "",
        *_state_table(d),
        "",
        "`*` required. Dates are `YYYY-MM-DD`, datetimes `YYYY-MM-DDTHH:MM:SSZ`, money a number in "
        f"{d.currency} kept to cents. Every ref must name an existing record, and `current_user` one of "
        f"the {d.people} (422 otherwise). The app's clock is fixed at `{d.seed.now}`: the UI stamps new "
        "records with it.",
        "",
        "## Views",
        "",
        *[
            f"- `#/{v.id}` **{v.label}** ({v.archetype.value} of {v.entity}"
            + (f", columns by {v.group}" if v.group else "")
            + (f", by {v.date}" if v.date else "")
            + ")"
            for v in d.views
        ],
        "",
        "## Actions (buttons on a record's detail)",
        "",
        *[_action_line(a) for a in d.actions],
        *([] if d.actions else ["(none)"]),
        "",
        "## Observable state changes",
        "",
        *_changes_table(d),
        "",
    ]
    return "\n".join(lines)


def _changes_table(d: AppDefinition) -> list[str]:
    return [
        "| UI | What changes |",
        "|---|---|",
        "| a control in a record's detail | `<entity>.<id>.<field>` |",
        "| New <record> (dialog) | `<entity>.<new id>` with the fields given, stamps from the app's clock |",
        *[_action_line(a).replace("- **", "| ").replace("**", " |", 1) + " |" for a in d.actions],
    ]


def _action_line(a) -> str:
    effects = [f"sets {', '.join(f'`{k}`={v}' for k, v in a.set.items())}" if a.set else ""]
    effects += [f"adds to {', '.join(f'`{k}`' for k in a.inc)}" if a.inc else ""]
    if a.create:
        effects.append(f"adds a `{a.create['entity']}` record ({', '.join(a.create.get('fields', {}))})")
    effects += ["deletes the record" if a.delete else ""]
    when = f" when {', '.join(f'{k} in {list(v)}' for k, v in a.when.items())}" if a.when else ""
    return f"- **{a.label}** on {a.entity}{when}: {'; '.join(e for e in effects if e)}"


LESSONS = """## Bitter lessons

1. **`set` cannot remove seeded records.** It deep-merges the patch into the seeded world, record by
   record, so the seeded records are always there. Give new records fresh ids (after the seed's) and
   write checks that hold with the seeded ones present: they are the records a task must not disturb.
2. **The clock is fixed.** The UI stamps new records with the app's `now` (see SCHEMA.md), not the
   wall clock. Identify new records by id difference (`added_ids`), never by their stamp.
3. **New ids follow the UI's rule.** Prefix + (largest number in use + 1), four digits: a golden patch
   that picks another id still validates, but the diff then differs from what the agent's clicks make.
4. **Refs are checked, titles are not unique.** Every ref must name an existing record (422
   otherwise), but two records may share a title. Instructions name records by title, so give the
   records a task names titles no other record has; rewards compare ids.
5. **Lists are atomic in the diff.** `tags` and `refs` fields appear as one entry with the whole old
   and new list; test membership in `current_state`.
6. **Volatile keys never show up.** Navigation writes nothing, `ui` is left out of the diff, so "the
   agent looked at a record" is not verifiable: score the state, not the path to it.
7. **`set_current` replaces everything.** Without `merge: true` the posted state is the whole new state
   and must validate; read `/state`, change it, post the full object, as the UI does.
8. **An unknown or expired sid is not an error.** `/go` for a sid with no session answers the seed with
   an empty diff; make "the task's records are in `initial_state`" a precondition.
9. **Actions are shortcuts, not the only way.** An action button sets the same fields the detail's
   controls set; a reward checks the resulting fields, never which button was used.
"""


def skill_md(d: AppDefinition, notes: str = "") -> str:
    """SKILL.md for `d`: generated sections, then `notes` (the app's own, kept across rewrites)."""
    body = [
        f"# {d.title} (hub app `{d.name}`)",
        "",
        f"Knowledge for the LLM roles that synthesise {d.category.lower()} tasks. The agent works in the",
        f"browser on the hub's mock app (`<hub>/{d.name}/?sid=S`, routes `#/<view>/<record id>`), built by the",
        "app engine from its definition; scripts talk to the hub's state API with `requests` and the",
        "standard library only. SCHEMA.md beside the definition lists every field.",
        "",
        "## State in brief",
        "",
        *_state_table(d),
        "",
        "## Reaching the hub (every script)",
        "",
        "```python",
        "import os, requests",
        "",
        'HUB = os.environ.get("CUAGYM_HUB_URL", "__CUAGYM_HUB_URL__").rstrip("/")',
        'SID = os.environ.get("CUAGYM_SID", "__CUAGYM_SID__")',
        f'go = requests.get(f"{{HUB}}/{d.name}/go", params={{"sid": SID}}, timeout=30).json()',
        "```",
        "",
        "## Generator and Discriminator",
        "",
        f'- **initial_setup.py** posts `{{"action": "set", "state": PATCH}}` to `{{HUB}}/{d.name}/post?sid=S`:',
        "  the patch is deep-merged into the seed and becomes the baseline. **golden_patch.py** reads",
        "  `/state`, changes what the task asks the way the UI would, and posts the whole state with",
        "  `set_current`.",
        "- **reward.py** reads `/go` (`initial_state`, `current_state`, `state_diff`): new records are ids",
        "  absent from `initial_state`; edited fields are diff paths `<entity>.<id>.<field>`.",
        "",
        *_changes_table(d),
        "",
        LESSONS,
        NOTES,
        "",
        notes.strip() or "(none yet)",
        "",
    ]
    return "\n".join(body)


def app_notes(skill_text: str) -> str:
    """The hand-written "App notes" of an existing SKILL.md (empty if it has none)."""
    return skill_text.split(NOTES, 1)[1] if NOTES in skill_text else ""
