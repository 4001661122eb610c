"""Refactors against an editor: no line a user saves during or after an apply is lost.

A generated vault (``v``) whose hub has ``--inbound`` linking notes, driven through the real
CLI (one ``python -m gno_cli.main`` process per command):

1. Editor during apply (``--rounds``): ``gno rename v/<hub> h<n> --yes --json`` runs while an
   editor thread appends a line to three linking notes in turn every ``--interval`` seconds
   (what an autosave does; ``--mode replace`` saves by writing a temporary file and renaming
   it over instead); the three are a quarter, half and three quarters down the commit's order. The editor starts when the apply's journal appears, after a delay that
   differs per round (so each phase of the commit is hit: staging, the swaps, after the commit
   point), and stops when the process exits. ``gno update`` first, each round: the previous
   round's saves would block the plan (``sync_pending``) before the commit is reached.
2. Kill then edit (``--kills``): ``gno rename --yes`` is SIGKILLed once the first linking note
   was replaced (its hash is the journal's ``after``); a line is appended to that note; ``gno
   update --json`` recovers. The line must still be in the note and the recovery must report
   the note (``recoveredEdits``) with the version from before the rename beside it.

Counts: every line the editor wrote is looked for in its note at the end of the round; a line
that is not there is lost. Prints the rounds with their outcome and the totals; exits 1 when a
line is lost. ``--code DIR`` runs another checkout's CLI (``/tmp/old``: the figures before).

Usage: python benchmarks/refactor_races.py [--inbound 1500] [--rounds 10] [--kills 3]
       [--interval 0.001] [--mode append|replace] [--code DIR] [--work DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: Editor start delays after the journal appears (seconds), one per round, in turn.
DELAYS = (0.0, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
EDITED = 3


class Vault:
    def __init__(self, work: Path, inbound: int, code: Path) -> None:
        self.notes = work / "v"
        self.journals = work / "data" / "refactor-journal"
        self.env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(work / "config"),
            "GNO_DATA_DIR": str(work / "data"),
            "GNO_CACHE_DIR": str(work / "cache"),
            "PYTHONPATH": str(code),
        }
        self.code = str(code)  # the working folder too: ``-m`` puts it first on the path
        self.hub = "hub.md"
        self.notes.mkdir(parents=True)
        (self.notes / self.hub).write_text("# Hub\n\nThe hub.\n")
        for i in range(inbound):
            (self.notes / f"n{i:04d}.md").write_text(
                f"# Note {i}\n\nAbout note {i}: see [[hub]] and [[hub|the hub]].\n"
            )
        # Spread over the commit's order, so the editor saves while other files are swapped.
        spread = [max(1, inbound * (k + 1) // (EDITED + 1)) for k in range(EDITED)]
        self.edited = [self.notes / f"n{i:04d}.md" for i in spread]
        self.gno("init", str(self.notes), "--name", "v")
        self.gno("update")

    def gno(self, *argv: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "gno_cli.main", *argv],
            env=self.env,
            cwd=self.code,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode not in (0, 1):
            raise SystemExit(f"gno {' '.join(argv)} failed: {done.stderr}")
        return done

    def rename(self, name: str) -> subprocess.Popen[str]:
        argv = ["rename", f"v/{self.hub}", name, "--yes", "--json"]
        return subprocess.Popen(
            [sys.executable, "-m", "gno_cli.main", *argv],
            env=self.env,
            cwd=self.code,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def journal(self) -> dict[str, Any] | None:
        try:
            names = [n for n in os.listdir(self.journals) if n.endswith(".json")]
        except FileNotFoundError:
            return None
        for name in names:
            try:
                return dict(json.loads((self.journals / name).read_text()))
            except (OSError, ValueError):
                continue  # being replaced
        return None


class Editor(threading.Thread):
    """Appends (or write-and-renames) a numbered line to the edited notes in turn."""

    def __init__(self, vault: Vault, tag: str, delay: float, interval: float, mode: str) -> None:
        super().__init__(daemon=True)
        self.vault, self.tag, self.delay = vault, tag, delay
        self.interval, self.mode = interval, mode
        self.stop = threading.Event()
        self.written: list[tuple[Path, str]] = []

    def run(self) -> None:
        while self.vault.journal() is None and not self.stop.is_set():
            time.sleep(0.0002)
        time.sleep(self.delay)
        n = 0
        while not self.stop.is_set():
            path = self.vault.edited[n % EDITED]
            line = f"editor {self.tag} line {n}\n"
            save(path, line, self.mode)
            self.written.append((path, line))
            n += 1
            time.sleep(self.interval)


def save(path: Path, line: str, mode: str) -> None:
    if mode == "append":
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line)
        return
    data = path.read_text("utf-8") + line
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(data, "utf-8")
    os.replace(temp, path)


def lost(written: list[tuple[Path, str]]) -> int:
    texts: dict[Path, str] = {}
    missing = 0
    for path, line in written:
        if path not in texts:
            texts[path] = path.read_text("utf-8")
        missing += line not in texts[path]
    return missing


def editor_rounds(vault: Vault, rounds: int, interval: float, mode: str) -> int:
    total_lost = total_written = 0
    outcomes: dict[str, int] = {}
    for r in range(rounds):
        vault.gno("update")
        delay = DELAYS[r % len(DELAYS)]
        editor = Editor(vault, f"r{r}", delay, interval, mode)
        editor.start()
        started = time.perf_counter()
        process = vault.rename(f"h{r}")
        out, err = process.communicate()
        seconds = time.perf_counter() - started
        time.sleep(0.01)
        editor.stop.set()
        editor.join()
        try:
            result = json.loads(out)
        except ValueError:
            raise SystemExit(f"rename printed no JSON: {err}") from None
        status = result.get("status", "?")
        if status in ("applied", "applied_with_sync_pending"):
            vault.hub = result["target"]["relPath"]
        outcomes[status] = outcomes.get(status, 0) + 1
        missing = lost(editor.written)
        total_lost += missing
        total_written += len(editor.written)
        print(
            f"  round {r}: editor from +{delay * 1000:.0f} ms after the journal, "
            f"{len(editor.written)} lines saved, {status} "
            f"({result.get('filesystem', {}).get('state', '?')}) in {seconds:.2f} s, "
            f"{missing} lines lost",
            flush=True,
        )
    summary = ", ".join(f"{n} {s}" for s, n in sorted(outcomes.items()))
    print(f"editor during apply: {total_written} lines saved, {total_lost} lost ({summary})")
    return total_lost


def kill_after_first_replace(vault: Vault, name: str) -> tuple[Path | None, str]:
    """Start a rename and SIGKILL it once its first linking note was replaced: that note, or
    None (with why) when the process finished first."""
    process = vault.rename(name)
    try:
        journal = None
        while journal is None or journal.get("state") != "committing":
            if process.poll() is not None:
                return None, "finished before committing"
            journal = vault.journal()
        first = next(
            c for c in journal["changes"] if c["before"] is not None and c["after"] is not None
        )
        path = vault.notes / first["relPath"]
        while hashlib.sha256(path.read_bytes()).hexdigest() != first["after"]:
            if process.poll() is not None:
                return None, "finished before the kill"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        return path, "killed"
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def kill_rounds(vault: Vault, kills: int) -> int:
    total_lost = total_kept = done = 0
    for k in range(kills):
        vault.gno("update")
        path, how = kill_after_first_replace(vault, f"k{k}")
        if path is None:
            if (vault.notes / f"k{k}.md").exists():
                vault.hub = f"k{k}.md"
            print(f"  kill {k}: {how}, not counted")
            continue
        done += 1
        line = f"saved after kill {k}\n"
        save(path, line, "append")
        updated = vault.gno("update", "--json")
        kept = json.loads(updated.stdout).get("recoveredEdits") or []
        reported = [e for e in kept if e["relPath"] == path.name]
        copies = [
            e["conflictCopy"]
            for e in reported
            if e.get("conflictCopy") and (vault.notes / e["conflictCopy"]).exists()
        ]
        completed = (vault.notes / f"k{k}.md").exists()  # killed after the commit point
        if completed:
            vault.hub = f"k{k}.md"
        missing = line not in path.read_text("utf-8")
        total_lost += missing
        total_kept += len(reported)
        journal_left = vault.journal() is not None
        print(
            f"  kill {k}: {path.name} rewritten then killed; edit appended; gno update "
            f"{'completed the rename' if completed else 'rolled back'}: "
            f"{int(missing)} lines lost, {len(kept)} kept edits reported "
            f"({len(copies)} conflict copies beside), journal left: {journal_left}",
            flush=True,
        )
    print(
        f"kill -9 then edit: {done} rounds, {total_lost} lines lost, "
        f"{total_kept} conflicts reported for the edited note"
    )
    return total_lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inbound", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.001)
    parser.add_argument("--mode", choices=("append", "replace"), default="append")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose CLI runs")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gno-races-", dir=args.work))
    try:
        started = time.perf_counter()
        vault = Vault(work, args.inbound, args.code.resolve())
        print(
            f"{args.inbound} notes linking v/hub.md, indexed in "
            f"{time.perf_counter() - started:.1f} s; code: {args.code}; editor: {args.mode} "
            f"every {args.interval * 1000:g} ms to {EDITED} linking notes"
        )
        lost_lines = editor_rounds(vault, args.rounds, args.interval, args.mode)
        lost_lines += kill_rounds(vault, args.kills)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"lines lost in all: {lost_lines}")
    return 1 if lost_lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
