"""The locks pin what Muster installs: every range of pyproject.toml, met by one hashed release.

An application installed from ranges gets whatever was newest that day, so a fresh machine can fail
where yesterday's passed; the locks (refreshed by `.ci/lock`) make every install the same.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
RUN_LOCK = ROOT / "requirements.lock"
TEST_LOCK = ROOT / "requirements-test.lock"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def pins(lock: Path) -> dict[str, list[tuple[Version, Marker | None]]]:
    """Each locked project with its versions (a universal lock may pin one per Python version)."""
    found: dict[str, list[tuple[Version, Marker | None]]] = {}
    for line in lock.read_text().splitlines():
        match = PIN.match(line)
        if match:
            marker = Marker(match["marker"]) if match["marker"] else None
            found.setdefault(canonicalize_name(match["name"]), []).append((Version(match["version"]), marker))
    return found


def project() -> dict[str, object]:
    data: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return data


def requirements(*, test: bool) -> list[Requirement]:
    data = project()
    spec = data["project"]
    groups = data["dependency-groups"]
    assert isinstance(spec, dict) and isinstance(groups, dict)
    wanted = [*spec["dependencies"], *groups["build"]]
    if test:
        wanted += spec["optional-dependencies"]["test"]
    return [Requirement(line) for line in wanted]


@pytest.mark.parametrize(("lock", "test"), [(RUN_LOCK, False), (TEST_LOCK, True)])
def test_every_range_is_met_by_a_locked_release(lock: Path, test: bool) -> None:
    locked = pins(lock)
    for requirement in requirements(test=test):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is not in {lock.name}: run `bash .ci/lock`"
        for version, _ in locked[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"{lock.name} pins {name}=={version}, outside {requirement}: run `bash .ci/lock`"
            )


def test_the_test_lock_keeps_the_bots_own_pins() -> None:
    """The suite tests the releases the bot runs on."""
    run, test = pins(RUN_LOCK), pins(TEST_LOCK)
    for name, versions in run.items():
        assert sorted(map(str, test.get(name, []))) == sorted(map(str, versions)), name


@pytest.mark.parametrize("lock", [RUN_LOCK, TEST_LOCK])
def test_every_pin_carries_its_hashes(lock: Path) -> None:
    """pip then checks each file it installs (hash-checking mode), and refuses anything unpinned."""
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.read_text())
    for block in blocks:
        if PIN.match(block.splitlines()[0]):
            assert "--hash=sha256:" in block, block.splitlines()[0]


def test_every_install_is_from_a_lock() -> None:
    readme = (ROOT / "README.md").read_text()
    then_muster = ".venv/bin/pip install -q --no-deps --no-build-isolation -e ."
    for lock in ("requirements.lock", "requirements-test.lock"):
        assert f"pip install -q -r {lock} && {then_muster}" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q -r requirements-test.lock" in ci and "-e '.[test]'" not in ci
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install -r requirements.lock" in dockerfile
    assert "pip install --no-deps --no-build-isolation ." in dockerfile
