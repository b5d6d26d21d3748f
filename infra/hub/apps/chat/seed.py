"""Deterministic default chat workspace: fixed ids, fixed timestamps, no randomness."""

from __future__ import annotations

from typing import Any

USERS = [  # id, name, handle, title, status, presence, colour
    ("u_ana", "Ana Torres", "ana", "Product Manager", "Planning Q3", "active", "#5c7cfa"),
    ("u_ben", "Ben Okafor", "ben", "Backend Engineer", "", "active", "#12b886"),
    ("u_chen", "Chen Wei", "chen", "Frontend Engineer", "Heads down until 3pm", "away", "#f76707"),
    ("u_dara", "Dara Singh", "dara", "Product Designer", "", "active", "#ae3ec9"),
    ("u_eli", "Eli Novak", "eli", "Support Lead", "On call", "active", "#e03131"),
    ("u_fay", "Fay Morgan", "fay", "Engineering Manager", "", "away", "#1c7ed6"),
    ("u_gus", "Gus Lindqvist", "gus", "QA Engineer", "Testing 4.2", "active", "#2f9e44"),
    ("u_hana", "Hana Ito", "hana", "Marketing", "", "away", "#d6336c"),
]
EVERYONE = [u[0] for u in USERS]

CHANNELS = [  # id, name, topic, purpose, private, archived, members, creator, created
    ("c_general", "general", "Company-wide announcements", "Announcements and news for everyone",
     False, False, EVERYONE, "u_fay", "2023-01-09T09:00:00Z"),
    ("c_random", "random", "Water cooler", "Non-work banter", False, False, EVERYONE, "u_fay", "2023-01-09T09:01:00Z"),
    ("c_engineering", "engineering", "Release 4.2 freeze on Friday", "Engineering discussion",
     False, False, ["u_ana", "u_ben", "u_chen", "u_fay", "u_gus"], "u_fay", "2023-02-14T10:00:00Z"),
    ("c_design", "design", "Design critiques: Tuesdays 2pm", "Design reviews and assets",
     False, False, ["u_ana", "u_chen", "u_dara", "u_hana"], "u_dara", "2023-03-01T11:00:00Z"),
    ("c_launch", "launch-q3", "Q3 launch war room", "Planning the Q3 launch", True, False,
     ["u_ana", "u_fay", "u_hana", "u_dara"], "u_ana", "2024-05-20T08:30:00Z"),
    ("c_support", "support", "Escalations go here", "Customer escalations", False, False,
     ["u_ana", "u_ben", "u_eli", "u_gus"], "u_eli", "2023-04-03T09:00:00Z"),
    ("c_offsite", "offsite-2023", "", "Planning the 2023 offsite", False, True,
     ["u_ana", "u_fay", "u_hana"], "u_hana", "2023-06-01T09:00:00Z"),
]

DMS = [("d_ben", ["u_ana", "u_ben"]), ("d_chen", ["u_ana", "u_chen"]), ("d_fay", ["u_ana", "u_fay"])]

MESSAGES = [  # id, conversation, user, ts, text, thread parent, reactions
    ("m0001", "c_general", "u_fay", "2024-06-03T08:58:00Z",
     "Good morning everyone! Reminder: all-hands is Thursday at 10:00 in the big room.", None,
     {"check": ["u_ana", "u_ben", "u_gus"]}),
    ("m0002", "c_general", "u_hana", "2024-06-03T09:20:00Z",
     "The new customer stories page is live. Feedback welcome!", None, {"heart": ["u_dara", "u_ana"]}),
    ("m0003", "c_general", "u_eli", "2024-06-03T10:05:00Z",
     "Support volume is up 12% this week, mostly password resets. Working on a help article.", None, {}),
    ("m0004", "c_general", "u_ana", "2024-06-03T10:07:00Z", "Thanks Eli, can you share the top 5 topics?", "m0003", {}),
    ("m0005", "c_general", "u_eli", "2024-06-03T10:15:00Z",
     "Sure: password reset, invoice download, SSO setup, export to CSV, seat limits.", "m0003", {"star": ["u_ana"]}),
    ("m0006", "c_general", "u_gus", "2024-06-04T09:02:00Z", "Build 4.2.0-rc1 is on staging for anyone who wants to poke at it.",
     None, {"zap": ["u_ben", "u_chen"]}),
    ("m0007", "c_random", "u_chen", "2024-06-03T12:30:00Z", "Who is up for lunch at the noodle place?", None,
     {"point_up": ["u_ben", "u_dara"]}),
    ("m0008", "c_random", "u_ben", "2024-06-03T12:31:00Z", "Count me in", None, {}),
    ("m0009", "c_random", "u_hana", "2024-06-04T15:45:00Z", "Someone left a very nice sourdough in the kitchen.", None,
     {"smile": ["u_fay", "u_gus", "u_eli"]}),
    ("m0010", "c_engineering", "u_fay", "2024-06-03T09:30:00Z",
     "Code freeze for 4.2 is Friday 17:00. Please get reviews in by Thursday.", None, {"check": ["u_ben", "u_chen"]}),
    ("m0011", "c_engineering", "u_ben", "2024-06-03T11:12:00Z",
     "The export endpoint times out on accounts with more than 50k rows. Investigating.", None, {"point_up": ["u_gus"]}),
    ("m0012", "c_engineering", "u_gus", "2024-06-03T11:20:00Z", "I can reproduce with the Acme fixture.", "m0011", {}),
    ("m0013", "c_engineering", "u_ben", "2024-06-03T14:02:00Z",
     "Root cause: missing index on events.account_id. PR is up.", "m0011", {"star": ["u_fay"]}),
    ("m0014", "c_engineering", "u_chen", "2024-06-04T10:40:00Z",
     "Frontend for the new settings page is ready for review: PR 1182.", None, {}),
    ("m0015", "c_engineering", "u_gus", "2024-06-04T16:05:00Z",
     "Regression suite is green on rc1 except two flaky upload tests.", None, {"coffee": ["u_ben"]}),
    ("m0016", "c_design", "u_dara", "2024-06-03T13:00:00Z",
     "New onboarding flow mockups are in the shared folder. Crit on Tuesday?", None, {"heart": ["u_hana"]}),
    ("m0017", "c_design", "u_chen", "2024-06-03T13:20:00Z", "Step 3 feels dense, could we split it?", "m0016", {}),
    ("m0018", "c_design", "u_dara", "2024-06-03T13:41:00Z", "Good call, I'll try a two-step version.", "m0016", {}),
    ("m0019", "c_design", "u_hana", "2024-06-04T11:00:00Z", "Need the launch banner in 3 sizes by next week.", None, {}),
    ("m0020", "c_launch", "u_ana", "2024-06-03T16:00:00Z",
     "Launch checklist draft is ready. Owners please fill in dates.", None, {"check": ["u_fay"]}),
    ("m0021", "c_launch", "u_hana", "2024-06-04T09:10:00Z", "Press embargo lifts July 9, 09:00 ET.", None, {}),
    ("m0022", "c_launch", "u_fay", "2024-06-04T09:25:00Z", "Engineering can commit to July 2 for the feature flag.", None, {}),
    ("m0023", "c_support", "u_eli", "2024-06-04T08:45:00Z",
     "Ticket 8812: Northwind cannot download May invoices. Anyone seen this?", None, {}),
    ("m0024", "c_support", "u_ben", "2024-06-04T09:05:00Z", "Looks like the PDF worker queue is stuck, restarting it.",
     "m0023", {"check": ["u_eli"]}),
    ("m0025", "c_support", "u_eli", "2024-06-04T17:30:00Z", "Weekly summary: 143 tickets, median first reply 38 min.", None, {}),
    ("m0026", "c_offsite", "u_hana", "2023-09-12T10:00:00Z", "Thanks all for a great offsite!", None, {"heart": ["u_ana"]}),
    ("m0027", "d_ben", "u_ben", "2024-06-03T15:10:00Z", "Do you have 10 minutes to talk about the export fix?", None, {}),
    ("m0028", "d_ben", "u_ana", "2024-06-03T15:12:00Z", "Yes, after my 3:30. I'll ping you.", None, {}),
    ("m0029", "d_chen", "u_chen", "2024-06-04T12:00:00Z", "Can you approve the copy for the settings page?", None, {}),
    ("m0030", "d_fay", "u_fay", "2024-06-04T18:02:00Z", "Let's move our 1:1 to Thursday.", None, {}),
    ("m0031", "c_general", "u_dara", "2024-06-04T13:15:00Z",
     "The new office plants arrived. Please don't water the cactus every day.", None, {"smile": ["u_hana", "u_chen"]}),
    ("m0032", "c_general", "u_ben", "2024-06-05T08:40:00Z",
     "Heads-up: the VPN certificate rotates tonight at 22:00. Reconnect tomorrow morning if it drops.", None,
     {"check": ["u_fay", "u_gus"]}),
    ("m0033", "c_general", "u_fay", "2024-06-05T09:05:00Z",
     "Welcome Hana's new teammate Priya, who joins marketing on Monday!", None, {"heart": ["u_hana", "u_eli", "u_ana"]}),
]


def default_state() -> dict[str, Any]:
    """The default chat workspace; the same value on every call."""
    return {
        "workspace": {"name": "Northwind Labs", "domain": "northwind-labs"},
        "current_user": "u_ana",
        "users": {uid: {"name": name, "handle": handle, "title": title, "status_text": status,
                        "presence": presence, "color": color}
                  for uid, name, handle, title, status, presence, color in USERS},
        "channels": {cid: {"name": name, "topic": topic, "purpose": purpose, "private": private,
                           "archived": archived, "starred": cid == "c_engineering", "members": list(members),
                           "created_by": creator, "created": created}
                     for cid, name, topic, purpose, private, archived, members, creator, created in CHANNELS},
        "dms": {did: {"members": list(members)} for did, members in DMS},
        "messages": {mid: {"conversation": conv, "user": user, "text": text, "ts": ts, "thread": thread,
                           "reactions": {k: list(v) for k, v in reactions.items()}, "edited": False,
                           "pinned": mid == "m0010", "files": []}
                     for mid, conv, user, ts, text, thread, reactions in MESSAGES},
        "last_read": {},
        "ui": {},
    }
