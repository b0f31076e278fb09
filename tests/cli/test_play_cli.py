"""``xeri play`` and ``xeri history`` from the command line: options, errors, plain mode."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xeri import cli, saves
from xeri.bots import LEVELS
from xeri.commands.play import default_level

SRC = str(Path(__file__).resolve().parents[2] / "src")


def run_plain(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
              args: list[str], answers: str) -> tuple[int, str, str]:
    monkeypatch.setenv("XERI_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    rc = cli.main(args)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("args, says", [
    (["play", "--players", "5"], "invalid choice"),
    (["play", "--option", "rounds"], "--option takes NAME=VALUE"),
    (["play", "--option", "roundz=3"], "did you mean 'rounds'"),
    (["play", "--option", "rounds=many"], "must be an integer"),
    (["play", "--target", "0"], "option target must be"),
    (["play", "--ruleset", "poker"], "unknown ruleset"),
    (["play", "--level", "grandmaster"], "unknown bot"),
    (["play", "--seed", "x"], "invalid int value"),
    (["play", "--name", "A", "--name", "B"], "--name given 2 times for 1"),
    (["play", "--resume", "--players", "3"], "drop --players"),
    (["play", "--resume"], "no unfinished match"),
    (["--bogus"], "unrecognized arguments"),
])
def test_a_malformed_option_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   args: list[str], says: str) -> None:
    rc, out, err = run_plain(monkeypatch, capsys, tmp_path, args, "")
    assert rc == 2
    assert says in err and err.count("\n") == 1, err
    assert out == ""
    assert not list((tmp_path / "matches").glob("*.json"))  # nothing was started or saved


def test_no_arguments_starts_a_match_in_plain_mode(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, [], "1\n")
    assert rc == 0
    assert out.startswith("--- Round 1 --- dealer: You\n")
    assert "Your turn (You):" in out and "You play " in out
    data = json.loads(next((tmp_path / "matches").glob("*.json")).read_text())
    assert data["play"]["bots"][0]["level"] == default_level()
    assert data["ruleset"]["name"] == "classic"


def test_default_level_is_hard_or_the_last() -> None:
    assert default_level() == ("hard" if "hard" in LEVELS else list(LEVELS)[-1])


def test_rule_options_reach_the_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    args = ["play", "--ruleset", "berman", "--option", "xeri_points=25", "--option", "hand_size=4",
            "--players", "3", "--target", "77", "--level", "random", "--name", "Ann", "--seed", "4", "--no-seen"]
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, args, "seen\nseen on\nseen\nSeen  OFF\nseen\n1\n")
    assert rc == 0
    off = "error: the seen-cards aid is switched off: type 'seen on' to show it"
    assert out.count(off) == 2
    assert out.index("The seen-cards aid is now on.") < out.index("Seen: ") < out.index("now off.")
    data = json.loads(next((tmp_path / "matches").glob("*.json")).read_text())
    r = data["ruleset"]
    assert (r["name"], r["xeri_points"], r["hand_size"], r["players"]) == ("berman", 25, 4, 3)
    assert (r["match_end"], r["target"], data["seed"]) == ("target", 77, 4)
    assert [s["name"] for s in data["seats"]] == ["Ann", "Rival 1", "Rival 2"]


def test_the_same_seed_plays_the_same_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    args = ["play", "--seed", "9", "--option", "rounds=1", "--level", "random"]
    first = run_plain(monkeypatch, capsys, tmp_path / "a", args, "1\n" * 40)[1]
    second = run_plain(monkeypatch, capsys, tmp_path / "b", args, "1\n" * 40)[1]
    strip = [ln for ln in first.splitlines() if "Saved: " not in ln]
    assert strip == [ln for ln in second.splitlines() if "Saved: " not in ln]
    assert "Match over:" in first


def test_history_lists_saved_matches(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    run_plain(monkeypatch, capsys, tmp_path, ["play", "--seed", "1", "--option", "rounds=1", "--name", "Ann"],
              "1\n" * 40)
    run_plain(monkeypatch, capsys, tmp_path, ["play", "--seed", "2", "--players", "4", "--name", "Bo"], "1\n")
    (tmp_path / "matches" / "broken.json").write_text("{not json")
    monkeypatch.setenv("COLUMNS", "200")
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, ["history"], "")
    assert rc == 0
    assert "Ann vs Computer" in out and "classic (rounds=1)" in out and " won" in out
    assert "Bo & Partner vs Rival 1 & Rival 2" in out and "classic (players=4)" in out and "unfinished" in out
    assert "unreadable" in out
    assert "xeri replay FOLDER/FILE" in out and ".json" in out


def test_history_of_an_empty_folder(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, ["history"], "")
    assert rc == 0 and "No saved matches" in out


def test_resume_a_named_file_and_refuse_a_finished_one(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run_plain(monkeypatch, capsys, tmp_path, ["play", "--seed", "5", "--option", "rounds=1"], "1\n")
    path = saves.newest_unfinished(tmp_path / "matches")
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, ["play", "--resume", str(path)], "1\n" * 40)
    assert rc == 0 and "Continuing the match" in out and "Match over" in out
    rc, _, err = run_plain(monkeypatch, capsys, tmp_path, ["play", "--resume", str(path)], "")
    assert rc == 2 and "is finished" in err


def test_plain_mode_as_a_real_pipe(tmp_path: Path) -> None:
    """The real program, input piped: one line per event, no prompts waiting, exit 0."""
    env = dict(os.environ, XERI_DATA_DIR=str(tmp_path), NO_COLOR="1", PYTHONPATH=SRC)
    proc = subprocess.run([sys.executable, "-m", "xeri", "--seed", "3", "--option", "rounds=1", "--level", "random"],
                          input="1\n" * 200, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "--- Round 1 --- dealer: You"
    assert "\x1b" not in proc.stdout
    played = sum(ln.startswith("You play ") for ln in lines)
    assert played and played % 24 == 0  # whole rounds of 24 cards each (a tied round adds another)
    assert any(ln.startswith("Match over:") for ln in lines)


def test_an_unusable_data_folder_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    for command in ("play", "history"):
        rc, _, err = run_plain(monkeypatch, capsys, tmp_path, [command, "--data-dir", str(tmp_path / "file")], "")
        assert rc == 2 and "cannot use the data folder" in err and err.count("\n") == 1


def test_a_failed_save_stops_with_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    def disk_full(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.os, "replace", disk_full)
    rc, _, err = run_plain(monkeypatch, capsys, tmp_path, ["play"], "1\n")
    assert rc == 2 and "cannot save the match" in err and "No space left" in err and err.count("\n") == 1
    assert not list((tmp_path / "matches").iterdir())  # no temporary file is left behind


def test_without_numpy_the_strong_level_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """``pip install xeri`` has no NumPy: the strong level says what to install, and ``xeri rules`` says it too.

    A process where ``import numpy`` fails, as in an install without it; the other levels still play.
    """
    env = dict(os.environ, XERI_DATA_DIR=str(tmp_path), NO_COLOR="1", PYTHONPATH=SRC)
    code = "import sys; sys.modules['numpy'] = None\nfrom xeri.cli import main\nsys.exit(main(sys.argv[1:]))\n"

    def xeri(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code, *args], input="1\n" * 200, capture_output=True, text=True,
                              env=env, timeout=60)

    for level in ("strong", "learned"):
        refused = xeri("play", "--level", level, "--seed", "3")
        assert refused.returncode == 2
        assert refused.stderr.splitlines() == [
            "xeri: error: the learned bot (the strong level) needs numpy: pip install 'xeri[learned]'"]
        assert refused.stdout == "" and not list(tmp_path.rglob("*.json"))  # nothing started, nothing saved
    rules = xeri("rules")
    assert rules.returncode == 0
    line = next(ln for ln in rules.stdout.splitlines() if ln.strip().startswith("strong"))
    assert "learned" in line and "over hard" in line and "needs numpy: pip install 'xeri[learned]'" in line
    hard = xeri("play", "--level", "hard", "--seed", "3", "--option", "rounds=1")
    assert hard.returncode == 0 and "Match over:" in hard.stdout


def test_rules_and_play_help_list_every_level_with_its_margin(capsys: pytest.CaptureFixture[str]) -> None:
    from xeri.bots.registry import LEVEL_MARGINS

    assert cli.main(["rules"]) == 0
    lines = [ln.split() for ln in capsys.readouterr().out.splitlines()]
    listed = [words[:2] for words in lines if words and words[0] in LEVELS]
    assert listed == [[level, spec] for level, spec in LEVELS.items()]
    assert [level for level, _ in listed] == ["easy", "medium", "hard", "strong", "master"]
    assert not any("needs numpy" in " ".join(words) for words in lines)  # numpy is here
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "easy, medium, hard, strong, master" in help_text
    assert all(" ".join(margin.split()) in help_text for margin in LEVEL_MARGINS.values())


def test_resume_prints_a_save_s_names_escaped(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """A save is anyone's file: a name holding ESC [2K must not erase a line of the terminal (issue 26, item 11)."""
    run_plain(monkeypatch, capsys, tmp_path, ["play", "--seed", "5", "--option", "rounds=1"], "1\n")
    path = saves.newest_unfinished(tmp_path / "matches")
    text = path.read_text(encoding="utf-8")
    assert '"Computer"' in text
    path.write_text(text.replace('"Computer"', '"Evil\\u001b[2K\\u001b[1A"'), encoding="utf-8")
    rc, out, _ = run_plain(monkeypatch, capsys, tmp_path, ["play", "--resume", str(path)], "1\n" * 40)
    assert rc == 0 and "Match over" in out
    assert "\x1b" not in out and "Evil\\x1b[2K\\x1b[1A" in out
