"""Languages: Simplified Chinese chosen on the sign-in screen, full-width punctuation and one term for reply,
Traditional Chinese, and every key translated."""

import os
import re
import unittest

from harness import PASSWORD, REPO
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


LANGUAGE_FOR_JS = """
const done = arguments[arguments.length - 1];
import('/js/strings.js').then((strings) => done(Object.fromEntries(arguments[0].map((tag) => [tag, strings.languageFor(tag)]))),
  (error) => done({ error: String(error) }));
"""


class ChineseTests(WebClientTestCase):
    """Issue 15, defect 8: Simplified Chinese done right, chosen on the sign-in screen; Traditional falls back."""

    def test_gh15_language_on_sign_in_full_width_punctuation_one_term_for_reply(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob")
        room_id = self.direct_room(bob, ann)
        self.socket(ann).send_message(room_id, "你好")
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-language"), "the language picker on the sign-in screen")
        page.find("#auth-username").send_keys(bob["user"]["username"])
        page.js("const s = document.getElementById('auth-language'); s.value = 'zh-CN'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.find(".auth-title").text == "登录 SwiftChat", "the sign-in screen in Chinese")
        self.assertEqual(page.find("#auth-switch").text, "没有账号？注册")
        self.assertEqual(page.find("#auth-username").get_attribute("value"), bob["user"]["username"], "what was typed stays")
        page.find("#auth-switch").click()
        self.assertEqual(page.find("label[for=auth-display-name]").text, "昵称（可选）")
        page.find("#auth-switch").click()
        page.find("#auth-password").send_keys(PASSWORD)
        page.find("#auth-submit").click()
        page.wait_for(lambda d: page.find("#tab-chats").text.startswith("聊天"), "the Chats tab called 聊天")

        self.open_chat(page, room_id)
        self.wait_for_texts(page, ["你好"], "the message")
        seq = self.seq_of(page, "你好")
        self.open_message_menu(page, seq)
        self.assertEqual(page.find('#message-menu [data-action="reply"]').text, "回复")
        page.find('#message-menu [data-action="reply"]').click()
        self.assertTrue(page.find(".composer-context-title").text.startswith("回复 "), "the composer says 回复 too")

        # Issue 34, defect 7: a recalled message, in Chinese.
        self.socket(ann).request({"type": "delete", "room": room_id, "target": seq})
        recall_line = f'#messages .recall-line[data-seq="{seq}"]'
        page.wait_for(lambda d: page.find(recall_line).text == "“Ann Lee”撤回了一条消息", "the recall line in Simplified Chinese")

        tags = page.driver.execute_async_script(LANGUAGE_FOR_JS, ["zh-CN", "zh", "zh-SG", "zh-Hans-CN", "zh-TW", "zh-HK", "zh-Hant", "en-GB"])
        self.assertEqual(tags, {"zh-CN": "zh-CN", "zh": "zh-CN", "zh-SG": "zh-CN", "zh-Hans-CN": "zh-CN",
                                "zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-Hant": "zh-Hant", "en-GB": "en"})

        # Traditional Chinese has its own table.
        page.go("#/me")
        page.js("const s = document.getElementById('language'); s.value = 'zh-Hant'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.find("#tab-discover").text.startswith("探索"), "the tabs in Traditional Chinese")
        self.assertEqual(page.find("#sign-out").text, "登出")
        self.open_chat(page, room_id)
        page.wait_for(lambda d: page.find(recall_line).text == "「Ann Lee」收回了一則訊息", "the recall line in Traditional Chinese")

    def test_gh15_chinese_strings_use_full_width_punctuation_and_cover_every_key(self):
        def read(name):
            with open(os.path.join(REPO, "Public", "js", name), encoding="utf-8") as file:
                return file.read()
        source = read("strings.js")
        tables = {"en": source[source.index("  en: {"):source.index("'zh-CN': {")],
                  "zh-CN": source[source.index("'zh-CN': {"):source.index("'zh-Hant': ZH_HANT")],
                  "zh-Hant": read("strings.zh-Hant.js")}
        entries = {name: dict(re.findall(r"^\s*(\w+): '(.*)',$", table, re.M)) for name, table in tables.items()}
        for name in ("zh-CN", "zh-Hant"):
            self.assertEqual(set(entries[name]), set(entries["en"]), f"the keys of {name}")
            half_width = [value for value in entries[name].values()
                          if re.search(r"[\u4e00-\u9fff]", value) and re.search(r"[,?:()!;]", re.sub(r"\{\w+\}", "", value))]
            self.assertEqual(half_width, [], f"{name} strings with half-width punctuation")
            self.assertNotIn("微信", tables[name])


if __name__ == "__main__":
    unittest.main()
