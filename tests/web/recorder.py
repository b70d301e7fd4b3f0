"""Read the page at the very moment the client draws, so that a test sees every state a game
went through, however fast the bots play.

A test that polls the page sees only the states that happen to be on screen when it looks:
under load the bots can play two tiles between two looks, and a hand can be over before the
test has seen enough of it. `Recorder` installs a MutationObserver before the page loads:
whenever the children of an element matching `watched` change, `read(target)` runs in the
observer's callback, a microtask at the end of the task that made the change (one message
from the server, or one input event), with the page's layout as it is then. The results
wait in the page, in order, until the test takes them. The toasts' texts are kept the same
way, each as it is shown (a later toast cannot hide an earlier one from the test).
"""

from __future__ import annotations

import json
from typing import Any

INSTALL = """(() => {{
  const read = {read};
  const watched = {watched};
  window.testRenders = [];
  window.testToasts = [];
  new MutationObserver((records) => {{
    let changed = null;
    for (const record of records) {{
      const target = record.target;
      if (target.id === "toast") {{
        for (const node of record.addedNodes) window.testToasts.push(node.textContent);
      }} else if (!changed && target.matches && target.matches(watched) && target.isConnected) {{
        changed = target;
      }}
    }}
    if (changed) window.testRenders.push(read(changed));
  }}).observe(document, {{ childList: true, subtree: true }});
}})();"""


class Recorder:
    """What `read` returned after every change under `watched`, and every toast, on `page`.
    Create it before the page's first navigation."""

    def __init__(self, page: Any, watched: str, read: str) -> None:
        self.page = page
        self.renders: list[Any] = []
        self.toasts: list[str] = []
        page.add_init_script(INSTALL.format(read=read, watched=json.dumps(watched)))

    def take(self) -> list[Any]:
        """The renders since the last `take()` (also appended to `renders`)."""
        new: list[Any] = self.page.evaluate("(known) => window.testRenders.slice(known)", len(self.renders))
        self.renders += new
        return new

    def wait_for_toast(self, pattern: str, after: int) -> None:
        """Wait until a toast shown after the first `after` ones matches the JS regex `pattern`."""
        self.page.wait_for_function(
            f"(after) => window.testToasts.slice(after).some((text) => {pattern}.test(text))", arg=after
        )

    def toast_count(self) -> int:
        count: int = self.page.evaluate("() => window.testToasts.length")
        return count
