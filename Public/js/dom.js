// The one way views build DOM. Text always goes in as text nodes, so user data can never become markup.

/**
 * Creates an element. `props` may hold:
 *   className, text (textContent), dataset {}, style {}, on {event: handler}, and any attribute
 *   (aria-*, role, type, …; `true` sets an empty attribute, `false`/null/undefined leaves it out).
 * `children` are nodes or strings (strings become text nodes); null/false children are skipped.
 */
export function el(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') element.className = value;
    else if (name === 'text') element.textContent = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'style') Object.assign(element.style, value);
    else if (name === 'on') for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler);
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `parent` with `children`. */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An inline SVG icon from path data (decorative: hidden from assistive technology). */
export function icon(paths, { size = 24, filled = false } = {}) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('icon', filled ? 'icon-filled' : 'icon-stroked');
  for (const d of [paths].flat()) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

/** Path data for the app's icons (24×24, drawn as strokes unless filled). */
export const ICONS = {
  chats: ['M4 5h16v11H9l-5 4z'],
  contacts: ['M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z', 'M2.5 20c.8-3.6 3.3-5.5 6.5-5.5s5.7 1.9 6.5 5.5', 'M16 4.5a3.3 3.3 0 0 1 0 6.4', 'M18 14.7c2 .7 3.1 2.4 3.5 5.3'],
  discover: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M15.5 8.5l-2 5-5 2 2-5z'],
  me: ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 21c.9-4.2 4-6.5 8-6.5s7.1 2.3 8 6.5'],
  back: ['M15 5l-7 7 7 7'],
  chevron: ['M9 5l7 7-7 7'],
  send: ['M4 12l16-8-6 16-2.5-6.5z', 'M11.5 13.5L20 4'],
  image: ['M4 5h16v14H4z', 'M4 16l5-5 4 4 3-3 4 4', 'M15.5 9.5a1 1 0 1 0 0-.01'],
  more: ['M6 12h.01', 'M12 12h.01', 'M18 12h.01'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  search: ['M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M16 16l4.5 4.5'],
  down: ['M6 9l6 6 6-6'],
  up: ['M6 15l6-6 6 6'],
  emoji: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M8 14c.9 1.5 2.3 2.3 4 2.3s3.1-.8 4-2.3', 'M9 9.5h.01', 'M15 9.5h.01'],
  attach: ['M20.5 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8'],
  file: ['M6 3h8l5 5v13H6z', 'M14 3v5h5'],
  download: ['M12 4v11', 'M7 10l5 5 5-5', 'M5 20h14'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 11v6', 'M12 7.5h.01'],
  muted: ['M4 9h4l5-4v14l-5-4H4z', 'M17 9l5 6', 'M22 9l-5 6'],
  plus: ['M12 5v14', 'M5 12h14'],
  newChat: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 8v8', 'M8 12h8'],
  pin: ['M9 3h6', 'M10 3v6l-4 5h12l-4-5V3', 'M12 14v7'],
};
