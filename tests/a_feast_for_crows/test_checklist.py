"""docs/rules-a-feast-for-crows.md stays true: every rule it numbers (F001...) names tests, and every
test it names exists in tests/a_feast_for_crows/ (a ``*`` standing for any ending)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKLIST = (ROOT / "docs" / "rules-a-feast-for-crows.md").read_text("utf-8")
TESTS = "\n".join(p.read_text("utf-8") for p in (ROOT / "tests" / "a_feast_for_crows").glob("test_*.py"))
OTHERS = (ROOT / "tests" / "cards" / "test_arryn.py").read_text("utf-8")


def rules() -> dict[str, str]:
    """Each rule's id and its text, up to the next rule or heading."""
    parts = re.split(r"^- \*\*(F\d+b?)\*\* ", CHECKLIST, flags=re.M)[1:]
    return {parts[i]: re.split(r"^#", parts[i + 1], flags=re.M)[0] for i in range(0, len(parts), 2)}


def test_every_rule_of_the_checklist_names_its_tests():
    found = rules()
    assert len(found) == 29 and "F001" in found and "F046" in found
    assert [r for r, text in found.items() if "Test" not in text] == []


def test_every_test_the_checklist_names_exists():
    named = set(re.findall(r"`(?:tests/[\w/]+\.py::)?(test_\w+\*?)`", CHECKLIST))
    defined = set(re.findall(r"^def (test_\w+)", TESTS + OTHERS, flags=re.M))
    missing = [n for n in sorted(named)
               if not any(d.startswith(n[:-1]) if n.endswith("*") else d == n for d in defined)]
    assert missing == []


def test_every_rule_the_code_names_is_in_the_checklist():
    from adjudicator.engine.events import rule_of

    code = "\n".join(p.read_text("utf-8") for p in (ROOT / "adjudicator").rglob("*.py"))
    named = set(re.findall(r"\bF\d{3}\b", code))
    assert named and named <= set(rules())
    assert rule_of("Hold Court is not met: you control King's Landing (F042)") == "F042"
