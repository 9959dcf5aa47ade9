"""Errors in the library's words, in flags only on the command line: one message, two vocabularies."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.main import main
from connectx.evaluation.cluster import ClusterLostError
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.option_words import OptionError, flag_words
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError
from connectx.evaluation.run_loop import PlayOptions
from connectx.play.http_app import ServeError, make_server


def test_a_run_directory_error_names_options_as_python_does_and_as_flags_on_the_command_line(tmp_path: Path) -> None:
    ResultsStore(tmp_path).start({"kind": "match"})
    with pytest.raises(RunDirectoryError) as error:
        ResultsStore(tmp_path).check({"kind": "match"}, resume=False)
    assert str(error.value) == (
        f"{tmp_path} already holds a run; pass resume=True to continue it or choose another out directory"
    )
    assert flag_words(error.value) == (
        f"{tmp_path} already holds a run; pass --resume to continue it or choose another --out directory"
    )


def test_facts_are_kept_as_they_are_even_with_braces_and_survive_a_trip_between_processes(tmp_path: Path) -> None:
    odd = tmp_path / "{resume}"
    odd.write_text("")
    with pytest.raises(RunDirectoryError) as error:
        ResultsStore(odd).check({}, resume=False)
    assert str(error.value).startswith(f"{odd} is a file")
    copy = pickle.loads(pickle.dumps(error.value))
    assert type(copy) is RunDirectoryError and str(copy) == str(error.value)
    assert flag_words(copy) == f"{odd} is a file, not a run directory; choose another --out directory"
    lost = ClusterLostError("lost the scheduler at {address}: rerun with {resume}", address="tcp://127.0.0.1:1")
    assert (
        flag_words(pickle.loads(pickle.dumps(lost))) == "lost the scheduler at tcp://127.0.0.1:1: rerun with --resume"
    )


def test_a_plan_speaks_in_its_fields_and_the_command_in_its_flags(capsys: pytest.CaptureFixture[str]) -> None:
    spec = AgentSpec.of("random")
    with pytest.raises(OptionError, match=r"^jobs=0: at least one worker"):
        play_match(MatchPlan(spec, spec, 2), PlayOptions(jobs=0))
    with pytest.raises(OptionError, match=r"^opening_plies=42: a 7x6 board has 42 cells"):
        MatchPlan(spec, spec, 2, opening_plies=42)
    assert main(["match", "random", "negamax", "--openings", "42"]) == 2
    assert "--openings=42: a 7x6 board has 42 cells" in capsys.readouterr().err


def test_the_page_server_has_its_own_error_in_its_own_words() -> None:
    server = make_server(port=0)
    try:
        with pytest.raises(ServeError) as error:
            make_server(port=server.port)
    finally:
        server.server_close()
    assert str(error.value).startswith(f"port={server.port} on 127.0.0.1 is in use; give another port, or port=0")
    assert flag_words(error.value).startswith(f"--port={server.port} on 127.0.0.1 is in use; give another --port")
