"""The server's config, URL rules and request guard, without a model or a browser."""

from __future__ import annotations

import asyncio

import pytest

from pipeline.cli.main import main
from pipeline.config import load_config
from pipeline.errors import FormatError
from pipeline.serve.config import ServeConfig, is_loopback
from pipeline.serve.errors import ApiError
from pipeline.serve.urls import RequestGuard, check_url, is_public

CONFIG = "configs/serve/default.yaml"


def test_the_default_config_loads_with_overrides():
    config = load_config(ServeConfig, CONFIG, ["model=smollm2", "port=8011",
                                               "sessions.allow_private=true"])
    assert (config.port, config.spec, config.sessions.allow_private) == (8011, "smollm2", True)
    assert load_config(ServeConfig, CONFIG, ["checkpoint=runs/x"]).spec == "runs/x"


def test_a_public_bind_needs_a_token(monkeypatch):
    monkeypatch.delenv("PAGESCOUT_TOKEN", raising=False)
    with pytest.raises(FormatError, match="PAGESCOUT_TOKEN"):
        load_config(ServeConfig, CONFIG, ["host=0.0.0.0"])
    monkeypatch.setenv("PAGESCOUT_TOKEN", "t")
    assert load_config(ServeConfig, CONFIG, ["host=0.0.0.0"]).token() == "t"
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")


def test_the_cli_names_a_bad_key(capsys):
    assert main(["serve", "--config", CONFIG, "prot=1"]) == 2
    assert "did you mean 'port'" in capsys.readouterr().err


@pytest.mark.parametrize(("address", "public"), [
    ("93.184.216.34", True), ("127.0.0.1", False), ("10.1.2.3", False), ("192.168.0.1", False),
    ("169.254.169.254", False), ("::1", False), ("::ffff:127.0.0.1", False), ("0.0.0.0", False),
    ("224.0.0.1", False), ("2606:4700::1111", True), ("fe80::1%eth0", False)])
def test_public_addresses(address, public):
    assert is_public(address) is public


@pytest.mark.parametrize("url", ["file:///etc/passwd", "chrome://version", "javascript:1",
                                 "data:text/html,hi", "http://127.0.0.1:9/", "http://[::1]/",
                                 "http://localhost/", "http:///nohost"])
def test_urls_refused(url):
    with pytest.raises(ApiError) as refused:
        asyncio.run(check_url(url, allow_private=False))
    assert refused.value.status == 400 and refused.value.code == "url_not_allowed"


def test_loopback_allowed_by_config():
    asyncio.run(check_url("http://127.0.0.1:9/", allow_private=True))


class FakeRoute:
    def __init__(self, url: str) -> None:
        self.request = type("Request", (), {"url": url})()
        self.outcome = None

    async def continue_(self) -> None:
        self.outcome = "continued"

    async def abort(self, reason: str) -> None:
        self.outcome = reason


def test_the_guard_checks_every_request_a_page_makes():
    guard = RequestGuard(allow_private=False)

    async def run(url: str) -> str:
        route = FakeRoute(url)
        await guard.route(route)
        return route.outcome

    # a redirect hop or a subresource to a private address is aborted like the start URL
    assert asyncio.run(run("http://127.0.0.1:8080/admin")) == "blockedbyclient"
    assert asyncio.run(run("http://169.254.169.254/latest/meta-data/")) == "blockedbyclient"
    assert asyncio.run(run("file:///etc/passwd")) == "blockedbyclient"
    assert asyncio.run(run("data:image/png;base64,AAAA")) == "continued"
    assert len(guard.blocked) == 3 and "loopback/private" in guard.blocked[0]
