"""The built site in a real headless browser, as a person would use it.

Serves the site built by ``mkdocs build --strict`` over HTTP, opens it in Chromium (Debian's
``chromium`` package, driven by Playwright), types a symbol into the search box and follows the
result to its API entry. Skipped when no Chromium is installed. Set ``CELLAX_DOCS_SCREENSHOTS``
to a folder to keep the screenshots.
"""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import shutil
import threading

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str | None:
    for name in (os.environ.get("CELLAX_BROWSER"), *BROWSERS):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served_site(built_site):
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def browser():
    executable = find_browser()
    if executable is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


def screenshot(page, name: str, tmp_path: pathlib.Path) -> None:
    folder = pathlib.Path(os.environ.get("CELLAX_DOCS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name))


def test_search_finds_an_op_and_its_api_entry(browser, served_site, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    console = []
    page.on("console", lambda message: console.append(message.text))

    page.goto(served_site + "/")
    assert page.title().startswith("cellax")
    assert page.locator("nav.md-nav--primary").get_by_text("Migrating from MindSpore").count()
    search = page.locator("input.md-search__input")
    search.click()
    # a result leads to the op's entry on the cellax.ops API page
    link = page.locator(
        '.md-search-result a[href*="api/cellax.ops/"][href*="#cellax.ops.interpolate"]'
    )
    # The search index is built in the page by a web worker; what is typed before it is ready
    # finds nothing, so type again (as a person would) until results show, for up to 2 min.
    timeout_error = pytest.importorskip("playwright.sync_api").TimeoutError
    for _ in range(40):
        search.fill("")
        search.press_sequentially("interpolate")
        try:
            link.first.wait_for(timeout=3_000)
            break
        except timeout_error:
            continue
    else:
        meta = page.locator(".md-search-result__meta").inner_text()
        raise AssertionError(f"no search result; the box says {meta!r}; console: {console}")
    assert "interpolate" in link.first.inner_text()
    screenshot(page, "search.png", tmp_path)
    link = link.first

    link.click()
    page.wait_for_url("**/api/cellax.ops/**")
    entry = page.locator('[id="cellax.ops.interpolate"]')
    entry.wait_for()
    # the signature, rendered from the code, answers "does it take recompute_scale_factor?"
    signature = entry.locator("xpath=following-sibling::*[1]").inner_text()
    assert "recompute_scale_factor=None" in signature, signature
    screenshot(page, "api.png", tmp_path)
    assert not errors, errors


def test_api_page_of_nn_shows_cell_methods(browser, served_site, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(served_site + "/api/cellax.nn/#cellax.nn.Cell.load_state_dict")
    entry = page.locator('[id="cellax.nn.Cell.load_state_dict"]')
    entry.wait_for()
    assert entry.is_visible()
    assert page.locator("input.md-search__input").is_visible()
