"""Messages between people: a direct chat with typing, "Read" and images; reply, edit, delete and react, and
their failures retried or discarded; links, emoji, copy, quotes, ↑ to edit and drafts."""

import os
import tempfile
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import png_bytes, unique_name
from webcase import FRAME_RECORDER_JS, WebClientTestCase, arm_sabotage, long_press, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


# Drops one image on the chat and pastes another into the composer, as a person would from another program.
DROP_AND_PASTE_IMAGES_JS = """
const done = arguments[arguments.length - 1];
const canvas = document.createElement('canvas');
canvas.width = 40;
canvas.height = 30;
canvas.getContext('2d').fillRect(0, 0, 40, 30);
canvas.toBlob((blob) => {
  const dropped = new DataTransfer();
  dropped.items.add(new File([blob], 'dropped.png', { type: 'image/png' }));
  document.querySelector('.chat-view').dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
  const pasted = new DataTransfer();
  pasted.items.add(new File([blob], 'pasted.png', { type: 'image/png' }));
  document.getElementById('composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }));
  done();
}, 'image/png');
"""


class DirectChatTests(WebClientTestCase):
    def test_two_users_message_type_read_and_send_an_image(self):
        ann_name, bob_name = unique_name("ann"), unique_name("bob")
        ann = self.browser()
        self.register_in_ui(ann, ann_name, "Ann Lee")
        bob = self.browser()
        self.register_in_ui(bob, bob_name, "Bob Chen")

        # Bob is nobody Ann knows yet: she adds him from Contacts (§6.4), then he is listed there
        ann.go("#/contacts")
        ann.click("#add-contact", "Add contact")
        ann.find("#people-search").send_keys(bob_name, Keys.ENTER)
        ann.click(f'#people-results .contact-item[data-username="{bob_name}"]', "Bob found")
        ann.click(f'#contact-list .contact-item[data-username="{bob_name}"]', "Bob in Contacts")
        ann.wait_for(lambda d: ann.find_all(".chat-view #composer-input"), "the direct chat")
        room_id = ann.find(".chat-view").get_attribute("data-room-id")
        self.assertEqual(ann.find("#chat-title").text, "Bob Chen")

        self.type_and_send(ann, "Hi Bob!")
        self.wait_for_texts(ann, ["Hi Bob!"], "Ann's first message delivered")

        self.wait_for_badge(bob, room_id, "1", "the new chat with an unread badge on Bob's side")
        bob.click(f'.chat-item[data-room-id="{room_id}"]', "the chat in Bob's list")
        self.wait_for_texts(bob, ["Hi Bob!"], "Ann's message on Bob's side")
        self.wait_for_badge(bob, room_id, None, "the badge cleared once Bob opened the chat")

        bob.find("#composer-input").send_keys("Hello")
        ann.wait_for(lambda d: "Bob Chen is typing" in ann.find("#typing-line").text, "Bob typing on Ann's side")
        self.type_and_send(bob, " Ann")
        self.wait_for_texts(ann, ["Hi Bob!", "Hello Ann"], "Bob's reply on Ann's side")
        ann.wait_for(lambda d: ann.find("#typing-line").text == "", "the typing line cleared by Bob's message")

        self.type_and_send(ann, "Are you there?")
        self.wait_for_texts(bob, ["Hi Bob!", "Hello Ann", "Are you there?"], "Ann's second message on Bob's side")

        def read_on_last(_):
            messages = self.messages(ann)
            return messages[-1]["text"] == "Are you there?" and messages[-1]["read"] \
                and sum(m["read"] for m in messages) == 1
        ann.wait_for(read_on_last, "'Read' under Ann's last message")

        # The server's room list carries how far Bob has read, so "Read" survives a reload.
        ann.driver.refresh()
        ann.wait_for(lambda d: ann.find_all("#chat-list"), "the chat list after a reload")
        ann.go("#/chats")
        ann.click(f'.chat-item[data-room-id="{room_id}"]', "the chat opened from the list after a reload")
        self.wait_for_texts(ann, ["Hi Bob!", "Hello Ann", "Are you there?"], "the chat reopened after a reload")
        ann.wait_for(read_on_last, "'Read' under Ann's last message after a reload")

        image_path = os.path.join(tempfile.mkdtemp(), "green.png")
        with open(image_path, "wb") as file:
            file.write(png_bytes())
        ann.find(".chat-view input[type=file]").send_keys(image_path)

        def image_shown(browser):
            return lambda _: any(m["images"] == [True] for m in self.messages(browser) if m["seq"])
        bob.wait_for(image_shown(bob), "the image on Bob's side")
        ann.wait_for(image_shown(ann), "the image delivered on Ann's side")
        bob.click("#messages .image-button", "the image to open")
        bob.wait_for(lambda d: bob.js("return document.getElementById('image-viewer').open"), "the image viewer")
        bob.find("#image-viewer .viewer-close").click()

        # Dropping and pasting images send them too.
        bob.driver.execute_async_script(DROP_AND_PASTE_IMAGES_JS)

        def images_delivered(browser, count):
            return lambda _: sum(len(m["images"]) for m in self.messages(browser)
                                 if m["seq"] and all(m["images"])) == count
        ann.wait_for(images_delivered(ann, 3), "the dropped and pasted images on Ann's side")
        bob.wait_for(images_delivered(bob, 3), "the dropped and pasted images delivered on Bob's side")
        self.assert_no_alerts(ann, bob)


class MessageActionTests(WebClientTestCase):
    def test_reply_edit_delete_and_react_show_on_the_other_side(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        ann_page, bob_page = self.signed_in(ann), self.signed_in(bob)
        self.open_chat(ann_page, room_id)
        self.open_chat(bob_page, room_id)
        self.type_and_send(ann_page, "lunch at noon?")
        self.type_and_send(ann_page, "or at one")
        self.wait_for_texts(bob_page, ["lunch at noon?", "or at one"], "Ann's messages on Bob's side")
        noon = self.seq_of(bob_page, "lunch at noon?")
        one = self.seq_of(bob_page, "or at one")

        self.choose_menu_item(bob_page, noon, "reply")
        bob_page.wait_for(lambda d: "Ann Lee" in bob_page.find(".composer-context").text, "the reply bar")
        self.type_and_send(bob_page, "noon works")
        self.wait_for_texts(ann_page, ["lunch at noon?", "or at one", "noon works"], "Bob's reply on Ann's side")
        reply = self.message_node(ann_page, self.seq_of(ann_page, "noon works"))
        self.assertEqual(reply.find_element(By.CSS_SELECTOR, ".quote-sender").text, "You", "my own message quoted")
        self.assertEqual(reply.find_element(By.CSS_SELECTOR, ".quote-text").text, "lunch at noon?")

        self.choose_menu_item(ann_page, one, "edit")
        box = ann_page.find("#composer-input")
        ann_page.wait_for(lambda d: box.get_attribute("value") == "or at one", "the message in the composer to edit")
        box.clear()
        box.send_keys("or at half past one", Keys.ENTER)
        self.wait_for_texts(bob_page, ["lunch at noon?", "or at half past one", "noon works"], "the edit on Bob's side")
        bob_page.wait_for(lambda d: self.message_node(bob_page, one).find_element(By.CSS_SELECTOR, ".edited-mark").text == "edited",
                          "the edited mark on Bob's side")

        # Issue 34, defect 7: a recalled message is a grey centred line, as in WeChat.
        self.choose_menu_item(ann_page, noon, "delete")
        recall_line = f'#messages .recall-line[data-seq="{noon}"]'
        bob_page.wait_for(lambda d: bob_page.find(recall_line).text == "Ann Lee recalled a message", "the recall line on Bob's side")
        ann_page.wait_for(lambda d: ann_page.find(recall_line).text == "You recalled a message", "the recall line on Ann's side")
        self.assertEqual(bob_page.find_all(f'#messages .message[data-seq="{noon}"]'), [], "no bubble left")
        self.assertEqual(bob_page.find(recall_line).value_of_css_property("text-align"), "center")
        self.assertEqual(self.message_node(bob_page, self.seq_of(bob_page, "noon works")).find_element(By.CSS_SELECTOR, ".quote-text").text,
                         "[Message recalled]")

        self.react_from_menu(bob_page, one, "👍")
        ann_page.wait_for(lambda d: [r.text for r in self.message_node(ann_page, one).find_elements(By.CSS_SELECTOR, ".reaction")]
                          == ["👍 1"], "Bob's reaction on Ann's side")
        bob_page.wait_for(lambda d: "mine" in self.message_node(bob_page, one).find_element(By.CSS_SELECTOR, ".reaction")
                          .get_attribute("class").split(), "Bob's own reaction marked as his")
        self.assertEqual(ann_page.alerts(), ["confirm: Recall this message? Everyone in the chat will see that you recalled it."])
        self.assert_no_alerts(bob_page)

    def test_a_failed_edit_or_reaction_shows_on_its_message_with_retry_and_discard(self):
        ann, bob, room_id, page = self.direct_chat()
        page.js(FRAME_RECORDER_JS)
        self.type_and_send(page, "see you at 8")
        self.wait_for_texts(page, ["see you at 8"], "the message delivered")
        seq = self.seq_of(page, "see you at 8")

        def failed_change(kind):
            return page.wait_for(lambda d: self.message_node(page, seq).find_element(
                By.CSS_SELECTOR, f'.change-status.failed-status[data-change="{kind}"]'), f"the failed {kind} on its message")

        arm_sabotage(page, "edit")
        self.choose_menu_item(page, seq, "edit")
        box = page.find("#composer-input")
        box.clear()
        box.send_keys("see you at 9", Keys.ENTER)
        status = failed_change("edit")
        self.assertIn("Edit not saved.", status.text)
        self.assertEqual([m["text"] for m in self.messages(page)], ["see you at 8"])

        page.click('#messages .change-status[data-change="edit"] .retry-button', "Retry under the failed edit")
        page.wait_for(lambda d: [m["text"] for m in self.messages(page)] == ["see you at 9"]
                      and not page.find_all("#messages .change-status"), "the edit saved by Retry")
        self.assertTrue(self.message_node(page, seq).find_elements(By.CSS_SELECTOR, ".edited-mark"))
        edits = [frame for frame in page.js("return window.__sentFrames") if frame["type"] == "edit"]
        self.assertEqual(len(edits), 2)
        self.assertEqual(edits[0]["clientMsgID"], edits[1]["clientMsgID"], "the retry reuses the clientMsgID")
        self.assertEqual(self.history_texts(bob, room_id), ["see you at 9"])

        arm_sabotage(page, "react")
        self.react_from_menu(page, seq, "😂")
        status = failed_change("react")
        self.assertIn("Reaction not sent.", status.text)
        page.click('#messages .change-status[data-change="react"] .discard-button', "Discard under the failed reaction")
        page.wait_for(lambda d: not page.find_all("#messages .change-status"), "the failed reaction discarded")
        self.assertEqual(page.find_all("#messages .reaction"), [])
        outbox = page.js("return JSON.parse(localStorage.getItem(`swiftchat.outbox.${arguments[0]}`))", ann["user"]["id"])
        self.assertEqual(outbox, [])
        self.assert_no_alerts(page)

    def test_a_failed_message_is_retried_with_the_same_client_msg_id(self):
        ann, bob, room_id, page = self.direct_chat()
        page.js(FRAME_RECORDER_JS)
        arm_sabotage(page, "send")
        self.type_and_send(page, "try again")
        page.wait_for(lambda d: [(m["text"], m["failed"]) for m in self.messages(page)] == [("try again", True)],
                      "the message marked failed")
        self.assertIn("Not sent", page.find("#messages .message.failed .failed-status").text)

        page.click("#messages .message.failed .retry-button", "Retry under the failed message")
        self.wait_for_texts(page, ["try again"], "the message sent by Retry")
        sends = [frame for frame in page.js("return window.__sentFrames") if frame["type"] == "send"]
        self.assertEqual([frame["text"] for frame in sends], ["try again", "try again"])
        self.assertEqual(sends[0]["clientMsgID"], sends[1]["clientMsgID"], "the retry reuses the clientMsgID")
        seq = self.seq_of(page, "try again")
        self.assertEqual(self.message_node(page, seq).get_attribute("data-client-msg-id"), sends[0]["clientMsgID"])
        self.assertEqual(self.history_texts(bob, room_id), ["try again"])


MENU_ACTIONS_JS = "return [...document.querySelectorAll('#message-menu [data-action]')].map((item) => item.dataset.action)"


class MessageMenuTests(WebClientTestCase):
    """Issue 34, defect 2: the message menu opens by a right-click, the context-menu key and a long press (the faint
    "…" was the only way in), and selects several messages to copy or recall."""

    def test_gh34_right_click_menu_key_and_long_press_open_the_menu_and_select_copies_and_recalls(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        one, two = bob_socket.send_message(room_id, "one"), bob_socket.send_message(room_id, "two")
        three = self.socket(ann).send_message(room_id, "three")
        self.mark_read(ann, room_id)
        self.mark_read(bob, room_id)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.wait_for_texts(page, ["one", "two", "three"], "the messages")
        page.js("window.__copied = null; navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };")

        ActionChains(page.driver).context_click(self.message_node(page, one).find_element(By.CSS_SELECTOR, ".message-text")).perform()
        page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the menu on a right-click")
        self.assertEqual(page.js(MENU_ACTIONS_JS), ["reply", "copy", "forward", "select", "pin", "report"], "Bob's message: no edit or recall, but Report (and Pin: anyone pins in a direct chat)")
        ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
        page.wait_for(lambda d: not page.find("#message-menu").is_displayed(), "the menu closed")

        page.js("arguments[0].focus()", self.message_node(page, three))
        ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(Keys.F10).key_up(Keys.SHIFT).perform()
        page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the menu on the context-menu key")
        self.assertEqual(page.js(MENU_ACTIONS_JS), ["reply", "copy", "forward", "edit", "select", "pin", "delete"], "my message")

        # Select: a bar instead of the composer; a click selects; recall only when every message is mine.
        page.find('#message-menu [data-action="select"]').click()
        page.wait_for(lambda d: page.find("#selection-bar").is_displayed(), "the selection bar")
        self.assertFalse(page.find("#composer").is_displayed())
        self.assertEqual(page.find("#selection-count").text, "1 selected")
        self.message_node(page, one).click()
        page.wait_for(lambda d: page.find("#selection-count").text == "2 selected", "two selected")
        self.assertFalse(page.find("#selection-recall").is_enabled(), "Bob's message cannot be recalled")
        page.find("#selection-copy").click()
        page.wait_for(lambda d: page.js("return window.__copied") == "Bob Chen: one\nYou: three", "both copied, in order")
        page.wait_for(lambda d: not page.find("#selection-bar").is_displayed(), "selecting ends after copying")

        self.choose_menu_item(page, three, "select")
        page.wait_for(lambda d: page.find("#selection-recall").is_enabled(), "my message can be recalled")
        page.find("#selection-recall").click()
        page.wait_for(lambda d: page.find_all(f'#messages .recall-line[data-seq="{three}"]'), "recalled")
        self.assertTrue(page.find("#composer").is_displayed(), "the composer is back")
        self.assertEqual(page.alerts(), ["confirm: Recall this message? Everyone in the chat will see that you recalled it."])

        # A long press on a phone.
        phone = self.phone(bob)
        self.open_chat(phone, room_id)
        self.wait_for_texts(phone, ["one", "two"], "Bob's messages")
        long_press(phone, self.message_node(phone, two).find_element(By.CSS_SELECTOR, ".bubble"))
        phone.wait_for(lambda d: phone.find("#message-menu").is_displayed(), "the menu on a long press")
        self.assertIn("delete", phone.js(MENU_ACTIONS_JS))
        self.assertEqual(phone.find_all(".reaction-who"), [])


class MessageFeatureTests(WebClientTestCase):
    """Issue 15: links, emoji (composer, any reaction, recents, who reacted), copy, quotes, ↑ to edit, drafts."""

    def test_gh15_links_are_safe_and_emoji_can_be_sent_and_reacted_with(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        seq = bob_socket.send_message(room_id, "see https://example.com/a?b=1, not javascript:alert(1) <a href=x>x</a>")
        bob_socket.send_message(room_id, "链接https://example.com/路径，还有（https://example.com/b）")
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: len(page.find_all("#messages .message-link")) == 3, "the links")
        links = page.js("return [...document.querySelectorAll('#messages a.message-link')].map((a) => [a.getAttribute('href'), a.rel, a.target, a.textContent])")
        self.assertEqual(links[0], ["https://example.com/a?b=1", "noopener noreferrer", "_blank", "https://example.com/a?b=1"])
        # Chinese leaves no space around a link: full-width punctuation ends it, as the server's preview finds it.
        self.assertEqual([link[3] for link in links[1:]], ["https://example.com/路径", "https://example.com/b"])
        self.assertEqual(page.find_all('#messages a[href^="javascript"], #messages a[href="x"]'), [])

        page.find("#composer-emoji").click()
        page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the emoji picker")
        next(b for b in page.find_all("#emoji-picker .emoji-choice") if b.text == "🍕").click()
        self.assertEqual(page.find("#composer-input").get_attribute("value"), "🍕")
        page.find("#composer-input").send_keys(Keys.ENTER)
        self.wait_for_texts(page, ["see https://example.com/a?b=1, not javascript:alert(1) <a href=x>x</a>", "链接https://example.com/路径，还有（https://example.com/b）", "🍕"], "the emoji sent")

        self.open_message_menu(page, seq)
        page.find("#more-reactions").click()
        page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the picker for reactions")
        self.assertEqual(page.find("#emoji-picker .emoji-group-title").text, "Recently used")
        self.assertEqual(page.find("#emoji-picker .emoji-choice").text, "🍕", "recent emoji first")
        next(b for b in page.find_all("#emoji-picker .emoji-choice") if b.text == "🦊").click()
        page.wait_for(lambda d: self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").text == "🦊 1", "my 🦊")
        bob_socket.request({"type": "react", "room": room_id, "target": seq, "emoji": "🦊"})
        page.wait_for(lambda d: self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").text == "🦊 2", "two 🦊")
        self.assertEqual(self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").get_attribute("title"),
                         "🦊 from You, Bob Chen")
        # A long press (the context menu on a touch screen) shows who reacted too.
        page.js("arguments[0].dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true}))",
                self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction"))
        page.wait_for(lambda d: page.find("#messages .reaction-who").text == "🦊 from You, Bob Chen", "who reacted, on a long press")

    def test_gh15_copy_quote_jump_arrow_up_edits_and_drafts_in_the_list(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        other = self.channel(bob, unique_name("Other "), [ann["user"]["username"]])["id"]
        bob_socket = self.socket(bob)
        first = bob_socket.send_message(room_id, "the original")
        seed(bob, room_id, 40, prefix="filler")
        self.mark_read(ann, room_id)
        bob_socket.send_message(room_id, "answer to this", replyTo=first)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.js("window.__copied = null; navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };")
        page.wait_for(lambda d: any(m["text"] == "answer to this" and m["seq"] for m in self.messages(page)), "the reply")
        last = self.seq_of(page, "answer to this")
        self.choose_menu_item(page, last, "copy")
        page.wait_for(lambda d: page.js("return window.__copied") == "answer to this", "copied")

        self.message_node(page, last).find_element(By.CSS_SELECTOR, ".quote").click()
        page.wait_for(lambda d: page.js("return document.activeElement.dataset.seq") == str(first), "the original in focus")
        self.assertIn("highlighted", self.message_node(page, first).get_attribute("class"))

        self.type_and_send(page, "my words")
        self.wait_for_texts(page, ["the original"] + [f"filler {n}" for n in range(1, 41)] + ["answer to this", "my words"], "sent")
        page.find("#composer-input").send_keys(Keys.ARROW_UP)
        page.wait_for(lambda d: page.find("#composer-input").get_attribute("value") == "my words", "↑ edits my last message")
        page.find("#composer-input").send_keys(" edited", Keys.ENTER)
        page.wait_for(lambda d: self.messages(page)[-1]["text"] == "my words edited", "the edit")

        page.find("#composer-input").send_keys("unfinished idea")
        self.open_chat(page, other)
        page.wait_for(lambda d: page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text == "[Draft] unfinished idea",
                      "the draft in the chat list")


if __name__ == "__main__":
    unittest.main()
