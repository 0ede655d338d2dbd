"""The page a student's browser loads: textual-serve's own page, with every asset it names
served by this server.

textual-serve's template loads its font from fonts.googleapis.com: a classroom without the
internet waited on it, and every student's browser told a third party who and where they were.
This is the same page (the same element ids and data attributes textual.js reads) with the
font taken from the copy textual-serve ships in its static folder, declared with
``@font-face``; the server also sends a Content-Security-Policy that allows nothing from any
other host (server.py).
"""

from __future__ import annotations

from typing import Any

import jinja2

FONT = "fonts/RobotoMono-VariableFont_wght.ttf"  # in textual-serve's static folder
FONT_ITALIC = "fonts/RobotoMono-Italic-VariableFont_wght.ttf"

PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{ application.name }}</title>
    <link rel="stylesheet" href="{{ config.static.url }}css/xterm.css" />
    <style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}{{ font }}") format("truetype");
        font-weight: 100 700;
        font-style: normal;
        font-display: swap;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}{{ font_italic }}") format("truetype");
        font-weight: 100 700;
        font-style: italic;
        font-display: swap;
      }
    </style>
    <script src="{{ config.static.url }}js/textual.js"></script>
    <style>
      body { background: #0c181f; }
      .dialog-container {
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }
      .shade {
        position: absolute; width: 100%; height: 100%; background: #0c181f;
        background-image: url("{{ config.static.url }}images/background.png");
      }
      .intro {
        width: 640px; height: 240px; font-size: 16px; z-index: 20;
        font-family: "Roboto Mono", menlo, monospace; text-align: center; opacity: 1;
        color: rgba(255, 255, 255, 0.95); background-color: #12232d; display: flex;
        align-items: center; justify-content: center; margin: 32px;
      }
      body.-first-byte .intro-dialog, body.-first-byte .intro-dialog .shade {
        opacity: 0; transition: opacity 0.3s ease-out; display: none;
      }
      body .textual-terminal { opacity: 0; transition: opacity 0.3s ease-out; }
      body.-first-byte .textual-terminal { opacity: 1; transition: opacity 0.3s ease-out; }
      body Button {
        padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95);
        border: none; font-family: "Roboto Mono", menlo, monospace; margin: 16px;
        display: block;
      }
      Button:hover { background: #ac5af4; cursor: pointer; }
      .closed-dialog { opacity: 0; display: none; }
      body.-closed .closed-dialog { opacity: 1; display: flex; }
      #start { display: none; }
      #start.-delay { display: flex; }
    </style>
    <script>
      function getStartUrl() {
        const url = new URL(window.location.href);
        const params = new URLSearchParams(url.search);
        params.delete("delay");
        return url.pathname + "?" + params.toString();
      }
      function refresh() { window.location.href = getStartUrl(); }
      document.addEventListener("DOMContentLoaded", function () {
        for (const button of document.querySelectorAll("button[data-restart]")) {
          button.addEventListener("click", refresh);
        }
      });
    </script>
    {{ extra_head | safe }}
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div>{{ application.name }}</div>
        <button type="button" data-restart id="start">Start</button>
      </div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div class="message">Session ended.</div>
        <button type="button" data-restart>Restart</button>
      </div>
    </div>
    <div
      id="terminal"
      class="textual-terminal"
      data-session-websocket-url="{{ app_websocket_url }}"
      data-font-size="{{ font_size }}"
    ></div>
  </body>
</html>
"""

_TEMPLATE = jinja2.Environment(autoescape=True).from_string(PAGE)


def render_page(context: dict[str, Any], extra_head: str = "") -> str:
    """The page for one tab: ``context`` as textual-serve's template takes it (font_size,
    app_websocket_url, config.static.url, application.name); ``extra_head`` is trusted HTML
    (our own script) added at the end of the head."""
    return _TEMPLATE.render(**context, font=FONT, font_italic=FONT_ITALIC, extra_head=extra_head)


__all__ = ["PAGE", "render_page"]
