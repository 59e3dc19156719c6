import fcntl

import pytest

from ._site import build


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, request):
    """The site built with ``mkdocs build --strict`` (as ``make docs``), once per test run.

    Under pytest-xdist the workers share one build: the first builds it under a lock into the
    run's common temporary folder, the others wait and reuse it.
    """
    root = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # an xdist worker
        root = root.parent  # this run's folder, shared by its workers
    site, log = root / "docs-site", root / "docs-site.log"
    with open(root / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not log.exists():
            result = build(site)
            log.write_text(f"{result.returncode}\n{result.stdout}{result.stderr}")
    returncode, output = log.read_text().split("\n", 1)
    assert returncode == "0", output
    return site
