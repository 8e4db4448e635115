// The emoji the picker offers, by group, and the ones used last (kept per browser). Any single emoji can be sent
// or reacted with (§9.2 `bad_emoji` only refuses what is not exactly one); these are the ones a click away.

const GROUPS = [
  ['smileys', '😀 😃 😄 😁 😆 😅 🤣 😂 🙂 🙃 😉 😊 😇 🥰 😍 🤩 😘 😗 😋 😛 😜 🤪 😝 🤗 🤭 🤫 🤔 🤐 🤨 😐 😑 😶 😏 😒 🙄 😬 😌 😔 😪 😴 😷 🤒 🤕 🤢 🥵 🥶 😵 🤯 🤠 🥳 😎 🤓 🧐 😕 😟 🙁 😮 😯 😲 😳 🥺 😦 😧 😨 😰 😥 😢 😭 😱 😖 😣 😞 😓 😩 😫 🥱 😤 😡 😠 🤬 😈 💀 💩 🤡 👻 👽 🤖'],
  ['people', '👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 👏 🙌 👐 🤲 🤝 🙏 ✍️ 💪 🦾 👀 🧠 👶 🧒 👦 👧 🧑 👩 👨 🧓 👴 👵 🙋 🙅 🙆 🤷 🤦 💁 🙇'],
  ['nature', '🐶 🐱 🐭 🐹 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🐤 🦆 🦉 🐝 🦋 🐌 🐞 🐢 🐍 🐙 🐬 🐳 🌵 🌲 🌴 🌱 🌿 🍀 🍁 🌷 🌹 🌻 🌸 🌞 🌝 🌙 ⭐ 🌟 ⚡ 🔥 🌈 ☀️ ⛅ ☁️ 🌧️ ❄️ ☃️ 🌊'],
  ['food', '🍏 🍎 🍐 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥥 🥝 🍅 🥑 🥦 🌽 🥕 🥐 🍞 🧀 🥚 🍳 🥞 🥓 🍔 🍟 🍕 🌭 🌮 🍜 🍣 🍱 🥟 🍚 🍙 🍰 🎂 🍩 🍪 🍫 🍿 ☕ 🍵 🧋 🍺 🍻 🥂 🍷'],
  ['activities', '⚽ 🏀 🏈 ⚾ 🎾 🏐 🏓 🏸 🥅 ⛳ 🎣 🥊 🎽 🛹 ⛷️ 🏂 🏋️ 🚴 🏊 🧘 🎯 🎮 🎲 🧩 🎨 🎬 🎤 🎧 🎹 🥁 🎸 🎉 🎊 🎁 🎈 🏆 🥇 🚗 🚕 🚌 🚆 🚲 ✈️ 🚀 ⛵ 🏠 🏖️ 🏔️ 🗽 🗼'],
  ['objects', '⌚ 📱 💻 ⌨️ 🖥️ 🖨️ 📷 📹 📺 📻 ⏰ 💡 🔦 📚 📖 📝 ✏️ 📎 📌 📅 📈 📊 📋 🗂️ 📦 ✉️ 📮 🔒 🔑 🔨 🧰 💊 💰 💳 💎 🛒 🧸 🎓 👓 👔 👕 👗 👟 👑 ☂️'],
  ['symbols', '❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💯 ✅ ☑️ ✔️ ❌ ❎ ➕ ➖ ❓ ❗ ‼️ ⁉️ 💤 💢 💬 💭 🔔 🎵 ♻️ ⚠️ 🚫 ⛔ 🆗 🆒 🆕 🔝 🔜 1️⃣ 2️⃣ 3️⃣ 🇨🇳 🇫🇷 🇺🇸'],
].map(([name, list]) => ({ name, emoji: list.split(' ') }));

export const EMOJI_GROUPS = Object.freeze(GROUPS);

const RECENT_KEY = 'swiftchat.recentEmoji';
const MAX_RECENT = 16;

export function recentEmoji() {
  try {
    const recent = JSON.parse(localStorage.getItem(RECENT_KEY));
    return Array.isArray(recent) ? recent.filter((emoji) => typeof emoji === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** Puts an emoji first among the recent ones. */
export function useEmoji(emoji) {
  const recent = [emoji, ...recentEmoji().filter((other) => other !== emoji)].slice(0, MAX_RECENT);
  localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
}
