"""``report --adjudicate`` in a real browser (Selenium + Debian's chromium-driver).

The test opens the offline page, picks an annotator for every worklist word
(alternating between the options), clicks both download buttons, and checks
that the downloaded CoNLL-U equals what ``synagree adjudicate --decisions``
writes from the downloaded decisions file.  Skipped, with the reason, when
selenium or a headless Chromium with its driver is not installed
(``apt-get install -y chromium chromium-driver``; ``pip install selenium``).
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Callable, List, Tuple

import pytest

from synagree.cli.main import main

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

ROW = "{}\tw{}\t_\t_\t_\t_\t{}\t{}\t_\tGloss=x"  # MISC kept before the provenance


def conll(*sents) -> str:
    return "".join("\n".join(ROW.format(i, i, h, r) for i, (h, r) in enumerate(x, 1)) + "\n\n"
                   for x in sents)


def browser(download: Path):
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (binary and driver):
        pytest.skip("no headless browser: apt-get install -y chromium chromium-driver")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-gpu"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {"download.default_directory": str(download),
                                           "download.prompt_for_download": False})
    service = webdriver.ChromeService(executable_path=driver)
    try:
        return webdriver.Chrome(options=opts, service=service)
    except Exception as e:  # a browser that does not start is an environment problem
        pytest.skip(f"the browser did not start: {str(e).splitlines()[0]}")


def click(drv, element_id: str) -> None:
    """Click a button as a user would, scrolled clear of the page's sticky menu."""
    el = drv.find_element("id", element_id)
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()


def wait_for(path: Path, seconds: float = 30.0) -> Path:
    end = time.time() + seconds
    while time.time() < end:
        if path.exists() and path.stat().st_size > 0:
            return path
        time.sleep(0.2)
    raise AssertionError(f"{path.name} was not downloaded")


def write(tmp_path: Path, texts, suffix: str) -> List[str]:
    paths = []
    for name, t in zip("abc", texts):
        p = tmp_path / f"{name}{suffix}"
        p.write_text(t)
        paths.append(str(p))
    return paths


def choose_and_download(tmp_path: Path, paths: List[str], pick: Callable[[int, int], int],
                        button: str, name: str) -> Tuple[Path, Path]:
    """The report page, a choice (``pick(k, options)``) for every worklist row, and
    both downloads: the adjudicated file and the decisions."""
    page = tmp_path / "report.html"
    assert main(["report", *paths, "--adjudicate", "-o", str(page), "-q"]) == 0
    download = tmp_path / "downloads"
    download.mkdir()
    drv = browser(download)
    try:
        drv.get(page.as_uri())
        selects = drv.find_elements("css selector", "select.adj-choice")
        assert len(selects) >= 2
        select = pytest.importorskip("selenium.webdriver.support.ui").Select
        for k, el in enumerate(selects):  # click through every disagreement
            drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            choice = select(el)
            choice.select_by_index(pick(k, len(choice.options)))
        click(drv, button)
        adjudicated = wait_for(download / name)
        click(drv, "adj-decisions")
        decisions = wait_for(download / "decisions.json")
    finally:
        drv.quit()
    return adjudicated, decisions


def same_as_adjudicate(tmp_path: Path, paths: List[str], adjudicated: Path, decisions: Path,
                       suffix: str) -> str:
    """The download equals ``adjudicate --decisions``, which differs from the consensus."""
    gold = tmp_path / f"gold{suffix}"
    assert main(["adjudicate", *paths, "-o", str(gold), "--decisions", str(decisions),
                 "-q"]) == 0
    assert adjudicated.read_text(encoding="utf-8") == gold.read_text(encoding="utf-8")
    plain = tmp_path / f"plain{suffix}"
    assert main(["adjudicate", *paths, "-o", str(plain), "-q"]) == 0
    assert plain.read_text() != gold.read_text()
    return gold.read_text()


@pytest.mark.slow
def test_report_downloads_match_adjudicate_decisions(tmp_path):
    texts = [conll([(2, "nsubj"), (0, "root"), (2, "obj")], [(0, "root"), (1, "obj")],
                   [(2, "det"), (3, "nsubj"), (0, "root")]),
             conll([(2, "nsubj"), (0, "root"), (2, "iobj")], [(0, "root"), (1, "obj")],
                   [(3, "det"), (3, "nsubj"), (0, "root")]),
             conll([(0, "root"), (1, "dep"), (1, "obj")], [(2, "nsubj"), (0, "root")],
                   [(2, "amod"), (0, "root"), (2, "obj")])]
    paths = write(tmp_path, texts, ".conllu")
    conllu, decisions = choose_and_download(tmp_path, paths, lambda k, n: 1 + k % (n - 1),
                                            "adj-conllu", "adjudicated.conllu")
    gold = same_as_adjudicate(tmp_path, paths, conllu, decisions, ".conllu")
    assert "\tGloss=x|Adjudication=by:curator;" in gold


@pytest.mark.slow
def test_report_downloads_match_adjudicate_decisions_on_bracketed_input(tmp_path):
    texts = ["(S (NP D N) (VP V (NP D N)))\n(S (X a b) c)\n(S (A a) b)\n",
             "(S (NP D N) (VP V (NP D N)))\n(S a (Y b c))\n(S a (B b))\n",
             "(S (NP D) (VP N V (NP D N)))\n(S (X a b) c)\n(S a b)\n"]
    paths = write(tmp_path, texts, ".tree")
    trees, decisions = choose_and_download(tmp_path, paths, lambda k, n: n - 1 - k % 2,
                                           "adj-trees", "adjudicated.tree")
    same_as_adjudicate(tmp_path, paths, trees, decisions, ".tree")
