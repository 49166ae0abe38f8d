"""Headless Chromium for the browser tests: Debian's chromium and chromium-driver through
Selenium. Without them a browser test module skips, unless LAYERCAST_REQUIRE_BROWSER is set (CI
sets it to 1), in which case it fails."""

from __future__ import annotations

import os
import tempfile
from typing import Iterator, Optional

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _missing() -> Optional[str]:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("python package selenium")
    return ", ".join(missing) or None


MISSING = _missing()


def skip_module_without_browser() -> None:
    """Call at module level: skips the module when the browser is missing and not required."""
    if MISSING and not os.environ.get("LAYERCAST_REQUIRE_BROWSER"):
        pytest.skip(f"browser tests need {MISSING} (scripts/install-deps.sh installs them)",
                    allow_module_level=True)


def chromium(width: int, height: int, mobile: Optional[dict] = None) -> Iterator:
    """Yields a headless Chromium WebDriver with a window of width × height CSS pixels at one
    device pixel each (emulating `mobile` device metrics when given); quits it afterwards."""
    if MISSING:
        pytest.fail(f"LAYERCAST_REQUIRE_BROWSER is set but {MISSING} is missing")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.TemporaryDirectory(prefix="layercast-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                f"--user-data-dir={profile.name}"):
        options.add_argument(arg)
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": mobile})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    drv.set_page_load_timeout(20)
    drv.set_script_timeout(10)
    try:
        yield drv
    finally:
        drv.quit()
        profile.cleanup()


class Console:
    """Collects the browser console (get_log empties it on every call)."""

    def __init__(self, drv):
        self.drv = drv
        self.entries: list[dict] = []

    def poll(self) -> list[dict]:
        self.entries += self.drv.get_log("browser")
        return self.entries

    def severe(self) -> list[dict]:
        return [e for e in self.poll() if e.get("level") == "SEVERE"]
