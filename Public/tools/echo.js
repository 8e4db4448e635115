// The star-sign tutorial's HTML test page for the /echo relay (docs/PROTOCOL.md §3): connect with an id, send a
// message, log every frame that arrives (text or binary; star-sign JSON is decoded). Reconnects like the iOS client,
// with a status light: blue-green when connected, grey when not.

const STAR_SIGNS = ['aries', 'taurus', 'gemini', 'cancer', 'leo', 'virgo', 'libra', 'scorpio', 'sagittarius', 'capricorn', 'aquarius', 'pisces'];
const SYMBOLS = ['♈', '♉', '♊', '♋', '♌', '♍', '♎', '♏', '♐', '♑', '♒', '♓'];
const MESSAGE_TYPE = { text: 0, image: 1 };
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8_000;

const $ = (id) => document.getElementById(id);
const idInput = $('client-id');
const autoReconnect = $('auto-reconnect');
const connectButton = $('connect-button');
const messageInput = $('message');
const signSelect = $('star-sign');
const sendButton = $('send-button');
const light = $('status-light');
const log = $('log');

let socket = null;
let wantConnected = false;
let failedAttempts = 0;
let retryTimer = null;

for (const [index, name] of STAR_SIGNS.entries()) {
  const option = document.createElement('option');
  option.value = String(index);
  option.textContent = `${SYMBOLS[index]} ${name} (star-sign JSON)`;
  signSelect.append(option);
}

function echoURL(id) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/echo/?id=${encodeURIComponent(id)}`;
}

function addLog(kind, text) {
  const entry = document.createElement('li');
  entry.className = `log-${kind}`;
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  const body = document.createElement('span');
  body.textContent = text;
  entry.append(time, body);
  log.append(entry);
  entry.scrollIntoView({ block: 'nearest' });
}

function setStatus(state) {
  const label = { online: 'Connected', connecting: 'Connecting…', offline: 'Disconnected' }[state];
  light.dataset.state = state;
  light.setAttribute('aria-label', label);
  light.title = label;
  sendButton.disabled = state !== 'online';
  connectButton.textContent = state === 'offline' && !wantConnected ? 'Connect' : 'Disconnect';
}

function connect() {
  const id = idInput.value.trim();
  if (!id) return;
  clearTimeout(retryTimer);
  const url = echoURL(id);
  setStatus('connecting');
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  socket = ws;
  ws.addEventListener('open', () => {
    failedAttempts = 0;
    setStatus('online');
    addLog('info', `connected to ${url}`);
  });
  ws.addEventListener('message', (event) => addLog('in', describe(event.data)));
  ws.addEventListener('close', (event) => {
    if (socket !== ws) return;
    socket = null;
    setStatus('offline');
    addLog('info', `connection closed (${event.code})`);
    if (wantConnected && autoReconnect.checked) scheduleReconnect();
  });
}

function scheduleReconnect() {
  failedAttempts += 1;
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failedAttempts - 1));
  const delay = ceiling / 2 + Math.random() * (ceiling / 2);
  addLog('info', `reconnecting in ${(delay / 1000).toFixed(1)} s`);
  retryTimer = setTimeout(connect, delay);
}

function disconnect() {
  wantConnected = false;
  clearTimeout(retryTimer);
  socket?.close(1000);
  setStatus('offline');
}

/** A received frame as one log line: star-sign JSON is decoded, anything else shown as it came. */
function describe(data) {
  const binary = data instanceof ArrayBuffer;
  const text = binary ? new TextDecoder().decode(data) : data;
  const prefix = binary ? `binary, ${data.byteLength} bytes: ` : '';
  try {
    const message = JSON.parse(text);
    if (message && typeof message === 'object' && 'type' in message && 'text' in message) {
      const sign = Number.isInteger(message.tag) ? SYMBOLS[message.tag] ?? '' : '';
      const who = `${sign} ${message.name ?? '?'}`.trim();
      if (message.type === MESSAGE_TYPE.image) return `${prefix}${who} sent an image (${String(message.text).length} base64 characters)`;
      return `${prefix}${who}: ${message.text}`;
    }
  } catch {
    // not JSON: shown raw below
  }
  return `${prefix}${text}`;
}

$('connect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (socket || wantConnected) {
    disconnect();
  } else {
    wantConnected = true;
    connect();
  }
});

$('send-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const text = messageInput.value;
  const tag = signSelect.value === '' ? null : Number(signSelect.value);
  const frame = tag === null
    ? text
    : JSON.stringify({ tag, name: STAR_SIGNS[tag], text, type: MESSAGE_TYPE.text });
  socket.send(frame);
  addLog('out', frame);
});

$('clear-log').addEventListener('click', () => log.replaceChildren());

// Like the tutorial's page: connect as soon as it loads.
wantConnected = true;
connect();
