// The server's limits (GET /api/v1/config, §9.7), kept so that a client started offline still checks them, and the
// one way the client measures a message against them: in UTF-8 bytes, as the server does.

const STORAGE_KEY = 'swiftchat.config';
const DEFAULTS = Object.freeze({ maxMessageBytes: 4096, maxUploadBytes: 10 * 1024 * 1024, maxAttachments: 10 });
// The remaining count shows once a message is this close to the limit.
const SHOW_REMAINING_BELOW = 200;

export function loadLimits() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(STORAGE_KEY)) };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Keeps the limits of a /config answer; returns them. */
export function saveLimits(config) {
  const limits = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (Number.isInteger(config[key]) && config[key] > 0) limits[key] = config[key];
  localStorage.setItem(STORAGE_KEY, JSON.stringify(limits));
  return limits;
}

const encoder = new TextEncoder();

/** How a text measures up: {bytes, remaining, over, showRemaining}. */
export function measureText(text, limits) {
  const bytes = encoder.encode(text).length;
  const remaining = limits.maxMessageBytes - bytes;
  return { bytes, remaining, over: remaining < 0, showRemaining: remaining < SHOW_REMAINING_BELOW };
}
