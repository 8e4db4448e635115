"""Folding vectors: the page's store.js folds edits, deletes and reactions into messages as the shared vectors
in Tests/Fixtures/folding/ say."""

import json
import os
import unittest

from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


FOLDING_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "folding")


# Delivers each case of a folding vector to a fresh Store of the page's own store.js, step by step with the methods
# the client uses (a live frame: applyLiveEvent; a history page: applyHistoryPage), and reads the room's messages
# back. Returns {file: {delivery: messages, or {error}}}.
FOLDING_JS = """
const [vectors, done] = [arguments[0], arguments[arguments.length - 1]];
import('/js/store.js').then(({ Store }) => {
  const results = {};
  for (const [file, vector] of Object.entries(vectors)) {
    results[file] = {};
    for (const delivery of vector.deliveries) {
      try {
        const store = new Store({ id: 'C0000000-0000-0000-0000-00000000000C', username: 'cat', displayName: 'Cat' });
        const roomID = vector.events[0].room;
        store.upsertRoom({ id: roomID, kind: 'group', name: 'Folding', latestSeq: 0, lastReadSeq: 0, unreadCount: 0 });
        delivery.steps.forEach((step, index) => {
          for (const event of step.live ?? []) store.applyLiveEvent(structuredClone(event), { live: true });
          if (step.page) store.applyHistoryPage(roomID, { messages: structuredClone(step.page), hasMore: false }, { newest: index === 0 });
        });
        results[file][delivery.name] = store.orderedMessages(roomID).map((message) => ({
          seq: message.seq,
          text: message.text,
          editedAt: message.editedAt ?? null,
          deleted: message.deleted ?? false,
          reactions: message.reactions ?? [],
          pinned: message.pinned ?? false,
        }));
      } catch (error) {
        results[file][delivery.name] = { error: String(error?.stack ?? error) };
      }
    }
  }
  done(results);
}, (error) => done({ error: String(error) }));
"""


class FoldingVectorTests(WebClientTestCase):
    """Issue 11: store.js folds edits, deletes and reactions into messages as the shared vectors in
    Tests/Fixtures/folding/ say, whichever way the events arrive (live, twice, in pages, pages out of order)."""

    def test_every_delivery_of_every_folding_vector_shows_the_expected_messages(self):
        vectors = {}
        for name in sorted(os.listdir(FOLDING_DIR)):
            if name.endswith(".json"):
                with open(os.path.join(FOLDING_DIR, name), encoding="utf-8") as file:
                    vectors[name] = json.load(file)
        self.assertEqual(len(vectors), 5, f"the vectors in {FOLDING_DIR}")
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        results = page.driver.execute_async_script(FOLDING_JS, vectors)
        self.assertNotIn("error", results, "store.js could not be imported")
        for name, vector in vectors.items():
            for delivery in vector["deliveries"]:
                with self.subTest(vector=name, delivery=delivery["name"]):
                    self.assert_folded(f"{name}, delivery {delivery['name']!r}", results[name][delivery["name"]],
                                       vector["expected"])

    def assert_folded(self, where, shown, expected):
        if isinstance(shown, dict):
            self.fail(f"{where}: store.js threw {shown.get('error')}")
        self.assertEqual([message["seq"] for message in shown], [message["seq"] for message in expected],
                         f"{where}: the seqs of the messages")
        for message, wanted in zip(shown, expected):
            for field in ("text", "editedAt", "deleted", "reactions", "pinned"):
                # A vector leaves `pinned` out for a message that is not pinned.
                wanted_value = wanted.get("pinned", False) if field == "pinned" else wanted[field]
                self.assertEqual(message[field], wanted_value, f"{where}: message {wanted['seq']}, field {field!r}")


if __name__ == "__main__":
    unittest.main()
