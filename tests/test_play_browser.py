"""The page in a real headless browser: Debian's Chromium, driven by Selenium, against a server on a free port.

A person's path through it: play by clicking a column and see the agent's answer on the board,
take the move back, switch the analysis on for a known position and read values that agree with
``connectx solve --analyze``, upload an episode and find the move that threw the game away flagged.
The tests skip, saying why, when Chromium or its driver is not installed. ``CONNECTX_CHROMIUM`` and
``CONNECTX_CHROMEDRIVER``, when set, name another Chromium and its driver (say another release, unpacked
beside the machine's, or a wrapper that runs a container's), so that the tests can be run on each.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from connectx.agents.core.position import Position
from connectx.analysis.game_analysis import GameAnalysis, PlyAnalysis, analyze_game
from connectx.analysis.games import game_from_digits, game_from_episode
from connectx.analysis.html_page import CELL, render_html
from connectx.analysis.solved_cache import SolvedCache
from connectx.cli.main import main
from connectx.evaluation.engine import BoardConfig, make_environment
from connectx.play.api import value_json
from connectx.play.column_values import ColumnAnalyst
from connectx.play.http_app import Server, make_server
from connectx.solver.score_range import ScoreRange

pytestmark = pytest.mark.games

CHROMIUM = os.environ.get("CONNECTX_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = os.environ.get("CONNECTX_CHROMEDRIVER") or shutil.which("chromedriver")
NO_BROWSER = (
    "no browser for the browser tests: install Debian's chromium and chromium-driver "
    "(apt-get install -y chromium chromium-driver)"
)
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,1000",
)
PHONE = (375, 667)
"""A phone's screen in CSS pixels: width, height."""
WAIT = 120.0
"""Seconds to wait for the page to show something: generous for a loaded machine; a pass never waits that long."""

if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip(NO_BROWSER, allow_module_level=True)

from selenium import webdriver  # noqa: E402 (only once a browser is known to be there)
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with make_server(
        "127.0.0.1", 0, analysis_seconds=2.0, analyst=ColumnAnalyst(SolvedCache(None, None))
    ).in_background() as running:
        yield running


PHONE_FLAGS = ("--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process")
"""A phone's Chromium keeps a sandboxed frame in its page's process: Chrome on Android isolates only the sites a
person logs in to, not every site as on a desk. It is also what works on every Chromium the tests meet: with a
frame in a process of its own, Chromium 150's emulated touch sends the click that ends a tap into the frame at
the wrong point (off by the frame's own offset in the window, so a tap on a link there never follows it; the touch
events themselves land right, and Chromium 156 gets the click right too). That is the browser's fault, not the
page's: a person's finger on a phone is not emulated."""


def chromium(mobile: dict[str, Any] | None = None) -> Iterator[WebDriver]:
    """A headless Chromium, a desk's window or, given Chromium's ``mobileEmulation``, a phone's screen."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS + (PHONE_FLAGS if mobile is not None else ()):
        options.add_argument(flag)
    if mobile is not None:
        options.add_experimental_option("mobileEmulation", mobile)
    with tempfile.TemporaryDirectory(prefix="connectx-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        # The driver's path given, Selenium Manager (which would download drivers) never runs.
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    yield from chromium()


@pytest.fixture(scope="module")
def phone() -> Iterator[WebDriver]:
    """A phone: a 375x667 screen with touch."""
    yield from chromium({"deviceMetrics": {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 2.0, "touch": True}})


@pytest.fixture(scope="module")
def flagged_episode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Kaggle episode on a 5x4 board, 3 in a row, whose ply 4 threw X's win away: X could win in column 1 and
    played 5, and O won."""
    env = make_environment(BoardConfig(4, 5, 3), ["first", "second"])
    for ply, column in enumerate([0, 1, 0, 1, 4, 1]):
        env.step([column, None] if ply % 2 == 0 else [None, column])
    episode = tmp_path_factory.mktemp("episodes") / "episode.json"
    episode.write_text(json.dumps(env.toJSON()))
    return episode


def tap(browser: WebDriver, element: Any) -> None:
    """A finger's tap on the element (a touch pointer, as a phone sends it)."""
    actions = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def tap_in_frame(browser: WebDriver, element: Any) -> None:
    """A finger's tap on ``element`` of the analysis frame the browser's context is in, at the point of the window
    where it is shown. ChromeDriver places a frame's element by the frame's own viewport, which for a frame as
    tall as its page is the whole page, and refuses a tap there as out of bounds once that point is past the
    window: the driver's limit, not the page's. A point of the window, given from the top page, is what a finger
    touches, and it works on every Chromium the tests meet."""
    x, y = browser.execute_script(
        """const box = arguments[0].getBoundingClientRect();
        return [(box.left + box.right) / 2, (box.top + box.bottom) / 2];""",
        element,
    )
    browser.switch_to.default_content()
    try:
        left, top = browser.execute_script("""const frame = document.getElementById("upload-page"),
            box = frame.getBoundingClientRect(); return [box.left + frame.clientLeft, box.top + frame.clientTop];""")
        actions = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to_location(round(left + x), round(top + y)).pointer_down().pointer_up()
        actions.perform()
    finally:
        browser.switch_to.frame(browser.find_element(By.ID, "upload-page"))


def wait_for(browser: WebDriver, condition: Callable[[WebDriver], Any]) -> Any:
    return WebDriverWait(browser, WAIT, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)).until(
        condition
    )


def stones(browser: WebDriver) -> dict[tuple[int, int], str]:
    """The stones on the page's board by (row, column), row 0 on top: ``x`` or ``o`` (read in one go: the page
    redraws the board after every answer)."""
    cells = browser.execute_script("""
        return Array.from(document.querySelectorAll("#board .cell.x, #board .cell.o")).map((cell) =>
            [Number(cell.dataset.row), Number(cell.parentElement.dataset.column), cell.classList.contains("x")]);
    """)
    return {(row, column): "x" if is_x else "o" for row, column, is_x in cells}


VALUES_SCRIPT = """Array.from(document.querySelectorAll("#values .value")).map((cell) => ({
    text: cell.innerText.replace(/\\s+/g, " ").trim(), score: cell.dataset.score ?? null,
    lower: cell.dataset.lower ?? null}))"""
"""The analysis row above the board, column by column, as a script's expression."""


def values(browser: WebDriver) -> list[dict[str, Any]]:
    """The analysis row above the board, column by column: its text and its proven range and exact score."""
    return browser.execute_script(f"return {VALUES_SCRIPT};")


def status(browser: WebDriver) -> str:
    return browser.find_element(By.ID, "status").text


def shown(browser: WebDriver, element_id: str) -> Any:
    """The element once it is displayed (for ``wait_for``), else None."""
    element = browser.find_element(By.ID, element_id)
    return element if element.is_displayed() else None


def page_width(browser: WebDriver) -> int:
    """How wide the page's content is, in CSS pixels: wider than the screen, it runs past the right edge."""
    return browser.execute_script("return document.documentElement.scrollWidth;")


def words_broken_in_cells(browser: WebDriver, selector: str) -> list[str]:
    """The words of the table cells under ``selector`` that are drawn across two lines (broken inside the word):
    a range over one word gives one box per line it is drawn on."""
    return browser.execute_script(
        """
        const broken = [];
        for (const cell of document.querySelectorAll(arguments[0])) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                for (const word of text.data.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(text, word.index);
                    range.setEnd(text, word.index + word[0].length);
                    const lines = new Set(Array.from(range.getClientRects()).map((box) => Math.round(box.top)));
                    if (lines.size > 1) broken.push(word[0]);
                }
            }
        }
        return broken;
    """,
        selector,
    )


def test_play_by_clicking_then_take_back(server: Server, browser: WebDriver) -> None:
    browser.get(server.url + "?opponent=negamax")
    wait_for(browser, lambda page: status(page).startswith("Your move"))
    assert stones(browser) == {}
    browser.find_element(By.CSS_SELECTOR, '#board .column[data-column="3"]').click()
    wait_for(browser, lambda page: len(stones(page)) == 2 and status(page).startswith("Your move"))
    board = stones(browser)
    assert board[5, 3] == "x"
    moves = browser.find_element(By.ID, "moves").text
    assert moves.startswith("Moves: 4") and len(moves) == len("Moves: 44")
    reply = int(moves[-1]) - 1
    assert board[4 if reply == 3 else 5, reply] == "o"  # the agent's stone, where its column's bottom was
    assert "pos=4" + moves[-1] in browser.current_url  # the position is in the address, to share
    take_back = browser.find_element(By.ID, "take-back")
    assert take_back.is_enabled()
    take_back.click()
    wait_for(browser, lambda page: stones(page) == {} and not page.find_element(By.ID, "take-back").is_enabled())
    assert status(browser).startswith("Your move")


def test_analysis_values_agree_with_connectx_solve(
    server: Server, browser: WebDriver, capsys: pytest.CaptureFixture
) -> None:
    digits = "5554224333234511764415115"  # positions/Test_L2_R1; column 5 is full
    browser.get(server.url + f"?opponent=human&pos={digits}")
    wait_for(browser, lambda page: len(stones(page)) == len(digits))
    browser.find_element(By.ID, "analysis-switch").click()

    def all_shown(page: WebDriver) -> list[dict[str, Any]] | None:  # the values stream in; the note says when done
        # The note and the cells in one script: read apart, the final values could land between the two reads.
        note, cells = page.execute_script(
            f"return [document.getElementById('analysis-note').innerText, {VALUES_SCRIPT}];"
        )
        done = "Every value is exact." in note
        return cells if done and sum(cell["lower"] is not None for cell in cells) == 6 else None

    shown = wait_for(browser, all_shown)
    assert main(["solve", "--analyze", "--scores", digits]) == 0
    solved = capsys.readouterr().out.split()
    assert solved[0] == digits
    for cell, expected in zip(shown, solved[1:], strict=True):
        if expected == "-":
            assert cell["text"] == "full" and cell["score"] is None
            continue
        assert cell["score"] == expected
        score = int(expected)
        word = "win " if score > 0 else "loss " if score < 0 else "draw"
        assert cell["text"].startswith(word)
    assert "Every value is exact." in browser.find_element(By.ID, "analysis-note").text


def test_an_uploaded_episode_shows_the_flagged_move(server: Server, browser: WebDriver, flagged_episode: Path) -> None:
    episode = json.loads(flagged_episode.read_text())
    expected = {ply.ply for ply in analyze_game(game_from_episode(episode), 2.0, cache=SolvedCache(None, None)).flagged}
    assert 4 in expected
    browser.set_window_size(1280, 800)
    try:
        browser.get(server.url + "?opponent=human")
        wait_for(browser, lambda page: status(page).startswith("Player 1"))
        browser.find_element(By.ID, "upload").send_keys(str(flagged_episode))
        wait_for(browser, lambda page: shown(page, "upload-page"))  # the stream is done
        flagged = browser.find_elements(By.CSS_SELECTOR, "#upload-moves tr.flagged")
        assert {int(str(row.get_attribute("data-ply"))) for row in flagged} == expected
        row = browser.find_element(By.CSS_SELECTOR, '#upload-moves tr[data-ply="4"]')
        assert row.text.split()[:2] == ["4", "X"] and "changed the outcome; best: 1; punished by O 2" in row.text
        assert "ply 4 (X 5)" in browser.find_element(By.ID, "upload-summary").text
        assert 'id="ply-4"' in str(browser.find_element(By.ID, "upload-page").get_attribute("srcdoc"))
        # On a desk the moves are a table: one line a move, under its headings, and nothing past the right edge.
        assert browser.find_element(By.CSS_SELECTOR, "#upload-moves thead").is_displayed()
        cell_tops = {cell.rect["y"] for cell in row.find_elements(By.TAG_NAME, "td")}
        assert len(cell_tops) == 1
        assert words_broken_in_cells(browser, "#upload-moves td") == []
        assert page_width(browser) <= browser.execute_script("return window.innerWidth;")
    finally:
        browser.set_window_size(1100, 1000)


def test_a_bad_request_shows_an_error_and_the_page_goes_on(server: Server, browser: WebDriver) -> None:
    browser.get(server.url + "?opponent=negamax&rows=20")
    error = wait_for(
        browser,
        lambda page: page.find_element(By.ID, "error") if page.find_element(By.ID, "error").is_displayed() else None,
    )
    assert error.text.startswith("rows 20: choose a whole number from") and error.text.endswith("to 12")
    rows = browser.find_element(By.ID, "rows")
    rows.clear()
    rows.send_keys("6")
    browser.find_element(By.ID, "new-game").click()
    wait_for(
        browser,
        lambda page: status(page).startswith("Your move") and not page.find_element(By.ID, "error").is_displayed(),
    )


def test_the_page_fits_a_phone_and_marks_the_winning_line(server: Server, browser: WebDriver) -> None:
    browser.set_window_size(375, 800)
    try:
        browser.get(server.url + "?opponent=human&rows=12&columns=12&inarow=4")
        wait_for(browser, lambda page: status(page).startswith("Player 1"))
        browser.find_element(By.ID, "analysis-switch").click()
        wait_for(browser, lambda page: sum(cell["lower"] is not None for cell in values(page)) == 12)
        layout = browser.execute_script("""
            const right = (id) => document.getElementById(id).getBoundingClientRect().right;
            const labels = Array.from(document.querySelectorAll("#values .value")).map((cell) => {
                const box = cell.getBoundingClientRect();
                return [box.left, box.right];
            });
            return {width: window.innerWidth, page: document.documentElement.scrollWidth,
                    board: right("board"), values: right("values"), labels: labels};
        """)
        assert layout["page"] <= layout["width"] and max(layout["board"], layout["values"]) <= layout["width"]
        for (_, right), (left, _) in zip(layout["labels"], layout["labels"][1:], strict=False):
            assert right <= left + 0.5  # side by side, none over the next
        browser.get(server.url + "?opponent=human&pos=445566")
        wait_for(browser, lambda page: len(stones(page)) == 6)
        browser.find_element(By.CSS_SELECTOR, '#board .column[data-column="6"]').click()
        result = wait_for(
            browser,
            lambda page: (
                page.find_element(By.ID, "result") if page.find_element(By.ID, "result").is_displayed() else None
            ),
        )
        assert "Player 1 wins" in result.text
        winning = browser.execute_script("""
            return Array.from(document.querySelectorAll("#board .cell.winning")).map((cell) =>
                [Number(cell.dataset.row), Number(cell.parentElement.dataset.column)]);
        """)
        assert sorted(map(tuple, winning)) == [(5, 3), (5, 4), (5, 5), (5, 6)]
    finally:
        browser.set_window_size(1100, 1000)


def test_on_a_phone_the_board_and_its_controls_fill_the_first_screen_and_a_value_shows_its_words_when_tapped(
    server: Server, phone: WebDriver
) -> None:
    phone.get(server.url + "?opponent=human&pos=445566")
    wait_for(phone, lambda page: len(stones(page)) == 6)
    phone.find_element(By.ID, "analysis-switch").click()
    wait_for(phone, lambda page: " to move." in page.find_element(By.ID, "analysis-note").text)
    first_screen = ["board", "take-back", "analysis-switch", "seconds"]
    bottoms = phone.execute_script(
        "return arguments[0].map((id) => document.getElementById(id).getBoundingClientRect().bottom);", first_screen
    )
    assert max(bottoms) <= PHONE[1], dict(zip(first_screen, bottoms, strict=True))
    assert page_width(phone) <= PHONE[0]
    value = phone.find_element(By.CSS_SELECTOR, '#values .value[data-column="6"]')
    tap(phone, value)
    words = wait_for(phone, lambda page: shown(page, "value-words"))
    assert words.text.startswith("column 7: win in 1")  # the words, not the short "win 1" above the board
    assert words.rect["y"] >= value.rect["y"] + value.rect["height"] - 1  # under the value, the value still seen
    tap(phone, value)
    wait_for(phone, lambda page: not page.find_element(By.ID, "value-words").is_displayed())
    tap(phone, phone.find_element(By.CSS_SELECTOR, '#board .column[data-column="6"]'))
    banner = wait_for(phone, lambda page: shown(page, "result"))
    assert "Player 1 wins" in banner.text
    assert page_width(phone) <= PHONE[0] and banner.rect["x"] + banner.rect["width"] <= PHONE[0]


def test_on_a_phone_an_upload_reads_without_broken_words_and_its_error_shows_where_the_person_looks(
    server: Server, phone: WebDriver, flagged_episode: Path, tmp_path: Path
) -> None:
    phone.get(server.url + "?opponent=human")
    wait_for(phone, lambda page: status(page).startswith("Player 1"))
    open_uploaded_analysis(phone, flagged_episode)
    row = phone.find_element(By.CSS_SELECTOR, '#upload-moves tr[data-ply="4"]')
    assert "punished by O 2" in row.text
    assert words_broken_in_cells(phone, "#upload-moves td") == []
    assert page_width(phone) <= PHONE[0]
    frame = phone.find_element(By.ID, "upload-page")
    phone.switch_to.frame(frame)
    try:  # the analysis page in its frame scrolls one way only, its title whole, its graph's words readable
        inside = phone.execute_script("""
            const page = document.documentElement, label = document.querySelector("#graph-rows text");
            return {width: page.clientWidth, content: page.scrollWidth,
                    title: document.querySelector("h1").getBoundingClientRect().right,
                    label: parseFloat(getComputedStyle(label).fontSize) * label.getScreenCTM().a};
        """)
        value = phone.find_element(By.CSS_SELECTOR, "#ply-4 g.column-value")  # a column's value on ply 4's board
        label = value.find_element(By.CSS_SELECTOR, "text.value")  # where a finger goes for it
        scroll_to_middle(phone, label)
        assert phone.execute_script(
            """  // anywhere in its column, on the board too, is the value's to take
            const label = arguments[0].querySelector("text.value").getBoundingClientRect();
            const board = arguments[0].ownerSVGElement.getBoundingClientRect();
            return [[label.left + 1, label.top + 1], [label.right - 1, label.bottom - 1],
                    [(label.left + label.right) / 2, (board.top + board.bottom) / 2]].every(([x, y]) => {
                const hit = document.elementFromPoint(x, y);
                return hit !== null && hit.closest("g.column-value") === arguments[0];
            });
        """,
            value,
        )
        tap_in_frame(phone, label)
        words = wait_for(phone, lambda page: page.find_element(By.CSS_SELECTOR, "#ply-4 p.words"))
        wait_for(phone, lambda page: words.is_displayed())
        said = str(value.find_element(By.TAG_NAME, "title").get_attribute("textContent"))
        assert words.text == said and said.startswith("column ")  # the words, not the short value on the board
        tap_in_frame(phone, label)
        wait_for(phone, lambda page: not words.is_displayed())
    finally:
        phone.switch_to.default_content()
    assert inside["content"] <= inside["width"] and inside["title"] <= inside["width"]
    assert inside["label"] >= 10, inside

    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"configuration": {"rows": 6}}')
    phone.find_element(By.ID, "upload").send_keys(str(corrupt))
    said = wait_for(phone, lambda page: page.find_element(By.CSS_SELECTOR, "#upload-section #upload-status.failed"))
    assert said.text.startswith("corrupt.json: not a ConnectX episode") and said.is_displayed()
    assert not phone.find_element(By.ID, "error").is_displayed()
    assert phone.find_element(By.ID, "upload-summary").text.startswith("episode.json:")  # the previous result stays
    assert phone.find_element(By.CSS_SELECTOR, '#upload-moves tr[data-ply="4"]').is_displayed()
    assert phone.find_element(By.ID, "upload-page").is_displayed()


ANALYSIS_LINKS = (  # what is pressed in the uploaded analysis, words its link says, the section it moves to
    ("#ply-2 .steps a:last-child", "next →", "ply-3"),
    ("#ply-3 .steps a:first-child", "← previous", "ply-2"),
    ('#moves a[href="#ply-4"]', "4", "ply-4"),  # a move in the table
    ('svg.graph a[href="#ply-3"] rect.band', "ply 3, O to move: ", "ply-3"),  # a ply's band on the evaluation graph
    ('svg.graph a[href="#ply-4"] circle', "X 5 changed the outcome", "ply-4"),  # a flagged move's dot on it
    ('#moves a[href="#ply-4"]', "4", "ply-4"),  # the fragment the page already has: it moves there again
    ("#ply-4 .steps a:nth-child(2)", "moves", "moves"),
)


def open_uploaded_analysis(browser: WebDriver, episode: Path) -> Any:
    """Uploads ``episode`` on the play page and scrolls to its analysis, as a person does; the analysis frame once
    it is as tall as its page. Chromium renders a frame of another origin (the sandboxed frame's is its own)
    only once it is on the screen, so only then does the frame's page know its height and tell it."""
    browser.find_element(By.ID, "upload").send_keys(str(episode))
    frame = wait_for(browser, lambda page: shown(page, "upload-page"))
    browser.execute_script("arguments[0].scrollIntoView();", frame)
    wait_for(browser, lambda page: frame.size["height"] > 1000)
    return frame


def scroll_to_middle(browser: WebDriver, element: Any) -> None:
    """Scrolls the play page to bring ``element``, in the analysis frame the browser's context is in, to the
    window's middle (the frame is as tall as its page: the play page is what scrolls)."""
    place = browser.execute_script("return arguments[0].getBoundingClientRect().top;", element)
    browser.switch_to.default_content()
    try:
        browser.execute_script(
            "window.scrollTo(0, arguments[0].getBoundingClientRect().top + scrollY + arguments[1] - innerHeight / 2);",
            browser.find_element(By.ID, "upload-page"),
            place,
        )
    finally:
        browser.switch_to.frame(browser.find_element(By.ID, "upload-page"))


def in_frame(browser: WebDriver, script: str, *arguments: Any) -> Any:
    """What ``script`` returns run in the analysis frame (the browser's context is the play page's before and
    after)."""
    browser.switch_to.frame(browser.find_element(By.ID, "upload-page"))
    try:
        return browser.execute_script(script, *arguments)
    finally:
        browser.switch_to.default_content()


def analysis_view(browser: WebDriver) -> dict[str, Any]:
    """Where the analysis is: the frame's address and title, the section its address names, and how far that
    section is from the top of the window (the frame's top in the window plus the section's in the frame)."""
    view = in_frame(
        browser,
        """
        const target = document.querySelector(":target");
        return {address: location.href, title: document.title, target: target ? target.id : null,
                top: target ? target.getBoundingClientRect().top : null};
    """,
    )
    if view["top"] is not None:
        view["top"] += browser.execute_script("""const frame = document.getElementById("upload-page");
            return frame.getBoundingClientRect().top + frame.clientTop;""")
    return view


def moved_to(section: str) -> Callable[[WebDriver], dict[str, Any] | None]:
    """A wait's condition: the view once the frame's address names ``section`` and that is at the window's top."""

    def condition(page: WebDriver) -> dict[str, Any] | None:
        view = analysis_view(page)
        return view if view["target"] == section and abs(view["top"]) < 1 else None

    return condition


def shown_in_frame(browser: WebDriver, selector: str) -> Any:
    """The first element under ``selector`` that is displayed, in the frame the browser's context is in (the
    graph is drawn twice, whole and in rows, and a screen's width shows one)."""
    return next(element for element in browser.find_elements(By.CSS_SELECTOR, selector) if element.is_displayed())


@pytest.mark.parametrize("device", ["browser", "phone"])
def test_links_in_an_uploaded_analysis_move_within_it(
    server: Server, flagged_episode: Path, device: str, request: pytest.FixtureRequest
) -> None:
    """Previous, next, the moves and the graph bring their ply to the top of the window, on a desk (a mouse's
    click) and on a phone (a finger's tap); the page scrolls, never the frame, which never leaves the analysis."""
    browser: WebDriver = request.getfixturevalue(device)
    browser.get(server.url + "?opponent=human")
    wait_for(browser, lambda page: status(page).startswith("Player 1"))
    address = browser.current_url
    frame = open_uploaded_analysis(browser, flagged_episode)
    for selector, words, section in ANALYSIS_LINKS:
        browser.switch_to.frame(frame)
        try:
            link = shown_in_frame(browser, selector)
            said = browser.execute_script("return arguments[0].closest('a').textContent;", link)
            assert words in said, (selector, said)
            scroll_to_middle(browser, link)
        finally:
            browser.switch_to.default_content()
        before = analysis_view(browser)
        assert before["target"] != section or abs(before["top"]) >= 1  # not where the link leads yet
        browser.switch_to.frame(frame)
        try:
            if device == "phone":
                tap_in_frame(browser, link)
            else:
                link.click()
        finally:
            browser.switch_to.default_content()
        view = wait_for(browser, moved_to(section))
        assert view["address"] == f"about:srcdoc#{section}", (selector, view)
        assert view["title"] == "Analysis of 121252"
        assert in_frame(browser, "return document.documentElement.scrollTop;") == 0  # the frame never scrolls
    assert browser.current_url == address and browser.find_element(By.ID, "upload-page").is_displayed()


def wide_values() -> list[ScoreRange]:
    """The widest short values of a 7x6 board's first position, one a column: estimates, bounds, slow outcomes."""
    anything = ScoreRange(-21, 21)
    return [
        anything.estimated(0.0, 12),
        anything.estimated(-0.9, 12),
        ScoreRange(0, 21),
        ScoreRange(-21, 0),
        ScoreRange.exactly(-3),
        ScoreRange(1, 21),
        ScoreRange(-21, -1),
    ]


ESTIMATES = ("~win d8", "~loss d8", "~even d8")
"""Every leaning an estimate can show: each page explains them all."""


def assert_apart(labels: list[dict[str, Any]]) -> None:
    """Neighbouring values' texts are at least half their font's size apart (more than a space, about a third of
    it, so that two values never read as one) and each stays inside its own column."""
    for label, after in zip(labels, labels[1:], strict=False):
        assert after["left"] - label["right"] >= 0.5 * label["em"], (label, after)
    for label in labels:
        assert label["cellLeft"] - 0.5 <= label["left"] and label["right"] <= label["cellRight"] + 0.5, label


PAGE_LABELS = """return Array.from(document.querySelectorAll("#values .value")).map((cell) => {
    const text = document.createRange();
    text.selectNodeContents(cell);
    const box = text.getBoundingClientRect(), column = cell.getBoundingClientRect();
    return {text: cell.innerText, left: box.left, right: box.right, cellLeft: column.left, cellRight: column.right,
            em: parseFloat(getComputedStyle(cell).fontSize)};
});"""
"""The play page's values above the board: each one's text box, its column's box and its font size."""


def test_on_a_phone_neighbouring_values_above_the_board_never_run_together(server: Server, phone: WebDriver) -> None:
    phone.get(server.url + "?opponent=human")
    wait_for(phone, lambda page: status(page).startswith("Player 1"))
    start = Position.from_moves("")
    wide: list[dict[str, Any]] = []
    for value in wide_values():
        drawn = value_json(value, start)
        assert drawn is not None
        wide.append(drawn)
    phone.execute_script("drawValues(arguments[0], [4]);", wide)  # the page's own drawing, given the widest values
    labels = phone.execute_script(PAGE_LABELS)
    assert [label["text"].split("\n") for label in labels] == [value["lines"] for value in wide]
    assert_apart(labels)
    footer = phone.find_element(By.TAG_NAME, "footer").text
    assert all(estimate in footer for estimate in ESTIMATES), footer
    phone.get(server.url + "?opponent=human&pos=44")  # and the values an analysis of a real position shows
    wait_for(phone, lambda page: len(stones(page)) == 2)
    phone.find_element(By.ID, "analysis-switch").click()
    wait_for(phone, lambda page: " to move." in page.find_element(By.ID, "analysis-note").text)
    assert_apart(phone.execute_script(PAGE_LABELS))


def test_on_a_phone_neighbouring_values_on_the_analysis_pages_boards_never_run_together(
    phone: WebDriver, tmp_path: Path
) -> None:
    analysis_file = tmp_path / "analysis.html"
    analysis = GameAnalysis(game_from_digits("4"), (PlyAnalysis(0, 3, tuple(wide_values())),))
    analysis_file.write_text(render_html(analysis))
    phone.get(analysis_file.as_uri())
    labels = phone.execute_script(
        """
        return Array.from(document.querySelectorAll("#ply-0 text.value")).map((label) => {
            const box = label.getBoundingClientRect(), board = label.ownerSVGElement.getBoundingClientRect();
            const scale = label.getScreenCTM().a, x = Number(label.getAttribute("x")), half = arguments[0] / 2 * scale;
            return {text: label.textContent, left: box.left, right: box.right, cellLeft: board.left + x * scale - half,
                    cellRight: board.left + x * scale + half, em: parseFloat(label.getAttribute("font-size")) * scale};
        });
    """,
        CELL,
    )
    assert len(labels) == 7 and page_width(phone) <= PHONE[0]
    assert_apart(labels)
    legend = phone.find_element(By.CSS_SELECTOR, "p.legend").text
    assert all(estimate in legend for estimate in ESTIMATES), legend
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#ply-0 .steps a:last-child"))  # the file's own links work too
    wait_for(phone, lambda page: page.execute_script("return location.hash;") == "#final")
    assert phone.current_url == analysis_file.as_uri() + "#final"


FINGER = 24
"""CSS pixels a tap target spans at least each way: a finger's width (WCAG 2.2's minimum target size)."""

TAP_TARGETS = """return Array.from(document.querySelectorAll("a, g.column-value")).filter((target) => {
    const box = target.getBoundingClientRect();
    return box.width > 0 && box.height > 0;  // shown: the graph drawn for the other width is not
}).map((target) => {
    const box = target.getBoundingClientRect();
    return {what: target.getAttribute("href") || target.querySelector("title").textContent,
            text: target.textContent.slice(0, 30), width: box.width, height: box.height};
});"""
"""The analysis page's tap targets as shown: every link (the steps, the moves, the graph's plies) and every column's
value, each with its box in CSS pixels."""


def assert_fit_for_a_finger(targets: list[dict[str, Any]]) -> None:
    assert targets
    small = [target for target in targets if min(target["width"], target["height"]) < FINGER]
    assert small == [], small


PAGE_TAP_TARGETS = """return Array.from(document.querySelectorAll(
        "a, button, select, input:not([type=checkbox]), label.switch, #values .value, #board .column"))
    .filter((target) => target.getBoundingClientRect().width > 0).map((target) => {
        const box = target.getBoundingClientRect();
        return {what: target.id || target.className, width: box.width, height: box.height};
    });"""
"""The play page's tap targets as shown, each with its box in CSS pixels: a switch's box is tapped through its label."""


def test_on_a_phone_every_tap_target_fits_a_finger_and_an_uploaded_analysis_scrolls_with_the_page(
    server: Server, phone: WebDriver, flagged_episode: Path
) -> None:
    phone.get(server.url + "?opponent=human&pos=44")
    wait_for(phone, lambda page: len(stones(page)) == 2)
    phone.find_element(By.ID, "analysis-switch").click()
    wait_for(phone, lambda page: " to move." in page.find_element(By.ID, "analysis-note").text)
    controls = phone.execute_script(PAGE_TAP_TARGETS)
    assert {"switch", "take-back", "seconds", "share", "upload"} <= {target["what"] for target in controls}
    assert sum(target["what"].startswith("value") for target in controls) == 7
    assert_fit_for_a_finger(controls)
    frame = open_uploaded_analysis(phone, flagged_episode)

    def whole(page: WebDriver) -> dict[str, Any] | None:  # the frame as tall as the page it shows, nothing to scroll
        inside = in_frame(
            page,
            """const root = document.documentElement;
            return {content: root.scrollHeight, window: root.clientHeight, overflow: getComputedStyle(root).overflowY,
                    bodyOverflow: getComputedStyle(document.body).overflowY};""",
        )
        return inside if inside["content"] <= inside["window"] and inside["window"] > PHONE[1] else None

    inside = wait_for(phone, whole)
    assert frame.size["height"] >= inside["content"]
    phone.execute_script("window.postMessage({analysis: 'height', height: 150}, '*');")  # not the frame's word
    assert (
        phone.execute_script(
            "return new Promise((done) => setTimeout(() => "
            "done(document.getElementById('upload-page').offsetHeight), 200));"
        )
        > PHONE[1]
    )
    page = phone.execute_script("return [document.documentElement.scrollHeight, innerHeight];")
    assert page[0] > page[1] + inside["content"] // 2  # the play page is what scrolls, the analysis with it
    targets = in_frame(phone, TAP_TARGETS)
    assert {target["what"] for target in targets} >= {"#ply-3", "#moves", "#final"}
    assert sum(target["what"].startswith("column ") for target in targets) > 6  # the values on several boards
    graph = in_frame(phone, "return document.querySelector('#graph-rows').getBoundingClientRect().height;")
    assert graph > 0
    assert_fit_for_a_finger(targets)


def test_on_a_phone_a_long_games_graph_comes_in_rows_whose_plies_fit_a_finger(phone: WebDriver, tmp_path: Path) -> None:
    digits = "555422433323451176441511512223"  # 30 plies, each with the same made-up values: it is the drawing
    game = game_from_digits(digits)
    values = tuple(ScoreRange(-21, 21).estimated(0.0, 12) for _ in range(7))
    analysis = GameAnalysis(game, tuple(PlyAnalysis(ply, int(digit) - 1, values) for ply, digit in enumerate(digits)))
    analysis_file = tmp_path / "analysis.html"
    analysis_file.write_text(render_html(analysis))
    phone.get(analysis_file.as_uri())
    rows = phone.execute_script(
        "return Array.from(document.querySelectorAll('#graph-rows svg')).map((row) => "
        "row.getBoundingClientRect().width);"
    )
    assert len(rows) == 3 and min(rows) > PHONE[0] / 2  # 10 plies a row, each row the page's width
    assert not phone.find_element(By.ID, "graph").is_displayed()
    targets = phone.execute_script(TAP_TARGETS)
    assert sum(target["what"].startswith("#ply-") for target in targets) >= 30
    assert_fit_for_a_finger(targets)
    assert page_width(phone) <= PHONE[0]


def test_an_underline_means_best_on_the_board_and_in_the_analysis(
    server: Server, browser: WebDriver, flagged_episode: Path
) -> None:
    browser.get(server.url + "?opponent=human&pos=445566")
    wait_for(browser, lambda page: len(stones(page)) == 6)
    browser.find_element(By.ID, "analysis-switch").click()
    wait_for(browser, lambda page: "Every value is exact." in page.find_element(By.ID, "analysis-note").text)
    underlined = browser.execute_script("""return Array.from(document.querySelectorAll("#values .value"))
        .filter((cell) => getComputedStyle(cell).textDecorationLine.includes("underline"))
        .map((cell) => Number(cell.dataset.column));""")
    assert underlined == [2, 6]  # columns 3 and 7 win at once: the best ones, and only they
    footer = browser.find_element(By.TAG_NAME, "footer").text
    assert "The best columns' values are bold and underlined" in footer

    open_uploaded_analysis(browser, flagged_episode)
    marked = in_frame(
        browser,
        """const marks = (selector) => Array.from(document.querySelectorAll(selector))
        .map((label) => getComputedStyle(label).textDecorationLine.includes("underline")
                        && getComputedStyle(label).fontWeight === "700");
        return {best: marks("#ply-4 text.value"), legend: document.querySelector("p.legend").textContent};""",
    )
    # Ply 4: X could win in column 1 and played 5. Column 1 is the best, and only it is underlined (and bold).
    assert marked["best"] == [True, False, False, False, False]
    assert "bold and underlined: the best columns" in marked["legend"]
    assert "a dashed ring: where the move played lands" in marked["legend"]
