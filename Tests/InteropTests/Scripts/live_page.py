#!/usr/bin/env python3
"""Drives `rawcap live --http`'s page in headless Chromium, as a user's browser does.

Usage: live_page.py URL CHROMIUM CHROMEDRIVER

Loads the page, waits until the MJPEG stream shows frames that change, reads the rate, frame count, camera and
exposure the page shows, presses the Shoot button, waits for the page to say what was saved, and checks that the
stream goes on after the shot. Prints one JSON object with what it saw; exits non-zero with a message on stderr when
a step does not happen within its time.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# A hash of what the <img> shows now, drawn through a canvas (same origin, so the pixels are readable).
SNAPSHOT = """
const img = document.getElementById('stream');
if (!img.naturalWidth) return null;
const canvas = document.createElement('canvas');
canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
const context = canvas.getContext('2d');
context.drawImage(img, 0, 0);
const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
let hash = 0;
for (let i = 0; i < data.length; i += 7) hash = (hash * 31 + data[i]) >>> 0;
return [canvas.width, canvas.height, hash];
"""


def number(text):
    try:
        return float(text)
    except ValueError:
        return 0.0


def main():
    url, chromium, chromedriver = sys.argv[1:4]
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    # The stream is a response that never ends, so the page's load event never comes: wait for the DOM only.
    options.page_load_strategy = "eager"
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    seen = {}
    step = "loading the page"
    try:
        driver.set_page_load_timeout(30)
        driver.get(url)
        wait = WebDriverWait(driver, 30, poll_frequency=0.1)

        step = "the stream showing a frame"
        first = wait.until(lambda d: d.execute_script(SNAPSHOT))
        seen["frameSize"] = first[:2]

        step = "the stream showing a different frame"
        wait.until(lambda d: (d.execute_script(SNAPSHOT) or first)[2] != first[2])

        step = "the page showing the frame rate"
        wait.until(lambda d: number(d.find_element(By.ID, "fps").text) > 0)
        seen["fps"] = number(driver.find_element(By.ID, "fps").text)
        seen["frames"] = int(number(driver.find_element(By.ID, "frames").text))
        seen["camera"] = driver.find_element(By.ID, "camera").text
        seen["exposure"] = driver.find_element(By.ID, "exposure").text

        step = "the Shoot button's answer"
        driver.find_element(By.ID, "shutter").click()
        wait.until(lambda d: d.find_element(By.ID, "shot").text.startswith(("saved ", "failed")))
        seen["shot"] = driver.find_element(By.ID, "shot").text

        step = "the stream going on after the shot"
        before = int(number(driver.find_element(By.ID, "frames").text))
        after_shot = driver.execute_script(SNAPSHOT)
        wait.until(lambda d: int(number(d.find_element(By.ID, "frames").text)) > before)
        wait.until(lambda d: (d.execute_script(SNAPSHOT) or after_shot)[2] != after_shot[2])
        seen["framesAfterShot"] = int(number(driver.find_element(By.ID, "frames").text))
    except Exception as error:  # noqa: BLE001 - any failure is reported with the step it happened in
        print(f"live_page: no {step} ({type(error).__name__}: {error}); saw {json.dumps(seen)}", file=sys.stderr)
        return 1
    finally:
        driver.quit()
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
