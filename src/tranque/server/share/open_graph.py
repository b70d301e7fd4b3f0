"""The client's page with a shared thing's Open Graph tags in its head.

A chat app (WhatsApp, Telegram, ...) that is pasted a link fetches the page and reads its
`og:*` and `twitter:*` tags, without running any script: so the page at a share URL is the
client's own page (web_page.py) with its title and these tags written in by the server. A
person who opens the link gets the app, which opens the shared game or tournament
(web/js/main.js turns the path into the app's route). Every value is escaped: names are the
players' own.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

TITLE = "<title>Tranque · Dominó</title>"


@dataclass(frozen=True)
class OpenGraph:
    title: str
    description: str
    url: str  # absolute: the share URL itself
    image: str | None  # absolute: the card's PNG; None: no card (the site's tags only)
    image_alt: str = ""


def tags(found: OpenGraph) -> str:
    """The head's tags for `found`.

    >>> print(tags(OpenGraph("¡Ganó <Ana>!", "Ana 100", "https://x/partida/t.1", "https://x/c.png")))
    <meta property="og:type" content="website">
      <meta property="og:site_name" content="Tranque">
      <meta property="og:title" content="¡Ganó &lt;Ana&gt;!">
      <meta property="og:description" content="Ana 100">
      <meta property="og:url" content="https://x/partida/t.1">
      <meta property="og:image" content="https://x/c.png">
      <meta property="og:image:type" content="image/png">
      <meta property="og:image:width" content="1200">
      <meta property="og:image:height" content="630">
      <meta property="og:image:alt" content="">
      <meta name="twitter:card" content="summary_large_image">
      <meta name="twitter:title" content="¡Ganó &lt;Ana&gt;!">
      <meta name="twitter:description" content="Ana 100">
      <meta name="twitter:image" content="https://x/c.png">
    """
    pairs = [
        ("property", "og:type", "website"),
        ("property", "og:site_name", "Tranque"),
        ("property", "og:title", found.title),
        ("property", "og:description", found.description),
        ("property", "og:url", found.url),
    ]
    if found.image is not None:
        pairs += [
            ("property", "og:image", found.image),
            ("property", "og:image:type", "image/png"),
            ("property", "og:image:width", "1200"),
            ("property", "og:image:height", "630"),
            ("property", "og:image:alt", found.image_alt),
        ]
    pairs += [
        ("name", "twitter:card", "summary_large_image" if found.image is not None else "summary"),
        ("name", "twitter:title", found.title),
        ("name", "twitter:description", found.description),
    ]
    if found.image is not None:
        pairs.append(("name", "twitter:image", found.image))
    return "\n  ".join(
        f'<meta {attribute}="{name}" content="{html.escape(value, quote=True)}">'
        for attribute, name, value in pairs
    )


def with_open_graph(page: str, found: OpenGraph) -> str:
    """The client's `page` titled `found.title`, with `found`'s tags at the end of its head."""
    page = page.replace(TITLE, f"<title>{html.escape(found.title, quote=False)}</title>", 1)
    return page.replace("</head>", f"  {tags(found)}\n</head>", 1)
