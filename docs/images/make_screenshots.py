"""Remake the screenshots of the game for people: ``.venv/bin/python docs/images/make_screenshots.py``.

Needs tmux, Debian's chromium and chromium-driver, and the dev dependencies (Selenium).

* ``terminal-game.png``: ``play_in_terminal`` in a tmux pane, a few moves and ``h``, captured with
  its colours (``tmux capture-pane -e``), turned into HTML and photographed by headless Chromium;
* ``page-analysis.png``: the page mid-game against ``solver`` with the analysis switched on;
* ``page-upload.png``: the analysis of an uploaded episode (negamax against random), flagged moves in red;
* ``page-phone.png``: the page's first screen on a phone (375x667, touch), the analysis on and a value tapped.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY))

from connectx.evaluation.engine import BoardConfig, run_game  # noqa: E402
from connectx.play.http_app import make_server  # noqa: E402

IMAGES = REPOSITORY / "docs" / "images"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
SGR = re.compile(r"\x1b\[([0-9;]*)m")
COLOURS = {
    30: "#000",
    31: "#c33",
    32: "#3a3",
    33: "#cc3",
    34: "#36c",
    35: "#c3c",
    36: "#3cc",
    37: "#ccc",
    90: "#666",
    91: "#ff5f4f",
    92: "#5f5",
    93: "#ffd84a",
    94: "#69f",
    95: "#f6f",
    96: "#6ff",
    97: "#fff",
}

TERMINAL_GAME = """
import sys, tempfile
from pathlib import Path
from connectx.evaluation.engine import BoardConfig
from connectx.play.terminal import play_in_terminal
out = Path(tempfile.mkdtemp())
sys.exit(play_in_terminal("negamax:seed=3", 0, BoardConfig(), out / "run", colour=True))
"""


def ansi_to_html(text: str) -> str:
    """Terminal text with SGR colour codes as HTML spans (bold, underline, 16 colours: what the game uses)."""
    state: dict[str, object] = {}
    parts = []
    position = 0
    for match in SGR.finditer(text):
        parts.append(_span(text[position : match.start()], state))
        position = match.end()
        for code in [int(c) for c in (match.group(1) or "0").split(";") if c]:
            if code == 0:
                state = {}
            elif code == 1:
                state["bold"] = True
            elif code == 4:
                state["underline"] = True
            elif code in COLOURS:
                state["fg"] = COLOURS[code]
            elif 40 <= code <= 47:
                state["bg"] = COLOURS[code - 10]
            elif code == 39:
                state.pop("fg", None)
            elif code == 49:
                state.pop("bg", None)
    parts.append(_span(text[position:], state))
    return "".join(parts)


def _span(text: str, state: dict[str, object]) -> str:
    if not text:
        return ""
    style = ";".join(
        filter(
            None,
            [
                f"color:{state['fg']}" if "fg" in state else "",
                f"background:{state['bg']}" if "bg" in state else "",
                "font-weight:bold" if state.get("bold") else "",
                "text-decoration:underline" if state.get("underline") else "",
            ],
        )
    )
    return f'<span style="{style}">{html.escape(text)}</span>' if style else html.escape(text)


def browser(phone: bool = False) -> webdriver.Chrome:
    """Headless Chromium in a 1100x1000 window, or with ``phone`` a 375x667 touch screen."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp()}")
    if phone:
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": 375, "height": 667, "pixelRatio": 1.0, "touch": True}}
        )
    else:
        options.add_argument("--window-size=1100,1000")
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def terminal_capture() -> str:
    """The tmux pane after a few moves and a hint, with its escape codes."""
    session = "connectx-screenshot"
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    subprocess.run(
        [
            "tmux",
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "92",
            "-y",
            "46",
            "-c",
            str(REPOSITORY),
            f"{REPOSITORY / '.venv/bin/python'} -c '{TERMINAL_GAME}'; sleep 60",
        ],
        check=True,
    )
    try:
        for keys in ("4", "4", "3", "5", "2", "h"):
            time.sleep(3)
            subprocess.run(["tmux", "send-keys", "-t", session, keys, "Enter"], check=True)
        time.sleep(6)
        return subprocess.run(
            ["tmux", "capture-pane", "-e", "-p", "-S", "-100", "-t", session],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def screenshot_terminal(driver: webdriver.Chrome) -> None:
    lines = terminal_capture().rstrip("\n").splitlines()
    body = ansi_to_html("\n".join(lines[-40:]))
    page = Path(tempfile.mkdtemp()) / "terminal.html"
    page.write_text(
        '<html><body style="margin:0;background:#1e1e1e"><pre style="margin:0;padding:14px;'
        'color:#ddd;font:15px/1.17 DejaVu Sans Mono,monospace;display:inline-block">'
        f"{body}</pre></body></html>"
    )
    driver.get(page.as_uri())
    driver.find_element(By.TAG_NAME, "pre").screenshot(str(IMAGES / "terminal-game.png"))


def screenshot_page(driver: webdriver.Chrome, url: str) -> None:
    wait = WebDriverWait(driver, 300, poll_frequency=0.2)
    driver.get(url + "?opponent=solver")
    wait.until(lambda page: page.find_element(By.ID, "status").text.startswith("Your move"))
    for column in (3,):
        stones = len(driver.find_elements(By.CSS_SELECTOR, "#board .cell.x, #board .cell.o"))
        driver.find_element(By.CSS_SELECTOR, f'#board .column[data-column="{column}"]').click()
        wait.until(
            lambda page, before=stones: (
                len(page.find_elements(By.CSS_SELECTOR, "#board .cell.x, #board .cell.o")) == before + 2
            )
        )
    driver.find_element(By.ID, "analysis-switch").click()
    wait.until(lambda page: " to move." in page.find_element(By.ID, "analysis-note").text)  # the values streamed in
    time.sleep(0.5)
    driver.find_element(By.TAG_NAME, "html").screenshot(str(IMAGES / "page-analysis.png"))


def screenshot_upload(driver: webdriver.Chrome, url: str) -> None:
    env = run_game(["negamax:seed=1", "kaggle:random"], BoardConfig(), seed=4)
    episode = Path(tempfile.mkdtemp()) / "episode.json"
    episode.write_text(json.dumps(env.toJSON()))
    driver.set_window_size(1100, 1700)
    driver.get(url + "?opponent=human")
    wait = WebDriverWait(driver, 600, poll_frequency=0.5)
    wait.until(lambda page: page.find_element(By.ID, "status").text.startswith("Player 1"))
    driver.find_element(By.ID, "upload").send_keys(str(episode))
    wait.until(lambda page: page.find_element(By.ID, "upload-page").is_displayed())
    time.sleep(1)
    driver.find_element(By.ID, "upload-section").screenshot(str(IMAGES / "page-upload.png"))


def screenshot_phone(url: str) -> None:
    driver = browser(phone=True)
    try:
        wait = WebDriverWait(driver, 300, poll_frequency=0.2)
        driver.get(url + "?opponent=solver&pos=4")
        wait.until(lambda page: page.find_element(By.ID, "status").text.startswith("Your move"))
        driver.find_element(By.ID, "analysis-switch").click()
        wait.until(lambda page: " to move." in page.find_element(By.ID, "analysis-note").text)
        driver.find_element(By.CSS_SELECTOR, '#values .value[data-column="2"]').click()
        wait.until(lambda page: page.find_element(By.ID, "value-words").is_displayed())
        driver.save_screenshot(str(IMAGES / "page-phone.png"))
    finally:
        driver.quit()


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    driver = browser()
    with make_server("127.0.0.1", 0, analysis_seconds=2.0).in_background() as server:
        try:
            screenshot_terminal(driver)
            screenshot_page(driver, server.url)
            screenshot_upload(driver, server.url)
        finally:
            driver.quit()
        screenshot_phone(server.url)
    for name in ("terminal-game.png", "page-analysis.png", "page-upload.png", "page-phone.png"):
        print(f"wrote {IMAGES / name}")


if __name__ == "__main__":
    main()
