// The colour theme: the system's (default), light or dark, kept per browser. The style sheet's colours are
// light-dark() pairs, so setting `color-scheme` on the root element is all a switch takes.

const STORAGE_KEY = 'swiftchat.theme';
export const THEMES = ['system', 'light', 'dark'];

export function currentTheme() {
  const saved = localStorage.getItem(STORAGE_KEY);
  return THEMES.includes(saved) ? saved : 'system';
}

export function applyTheme(theme = currentTheme()) {
  const chosen = THEMES.includes(theme) ? theme : 'system';
  localStorage.setItem(STORAGE_KEY, chosen);
  document.documentElement.dataset.theme = chosen;
  document.documentElement.style.colorScheme = chosen === 'system' ? 'light dark' : chosen;
}
