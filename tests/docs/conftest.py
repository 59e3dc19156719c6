import pytest

from ._site import build


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built with ``mkdocs build --strict`` (as ``make docs``) into a temp folder."""
    site = tmp_path_factory.mktemp("site")
    result = build(site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site
