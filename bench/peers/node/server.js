// A reference chat server for scripts/bench.sh --peers: the broadcast server of the `ws` package's README
// ("Server broadcast", the sender included), relaying every text frame verbatim to every open connection.
//
// Usage: node server.js [port]   (default: $PORT, else 8080; $HOST, else 127.0.0.1)
// WebSocket paths: /chat (what chat-bench loads) and /ws.
//
// `ws` comes from Debian's node-ws, which installs it in /usr/share/nodejs. Debian's own nodejs looks there; a
// Node from elsewhere (nodesource) does not, so run it with NODE_PATH=/usr/share/nodejs (scripts/bench.sh does).
'use strict';

const http = require('http');

let WebSocket;
try {
  WebSocket = require('ws');
} catch (error) {
  console.error('cannot load the ws module: install Debian\'s node-ws and run with NODE_PATH=/usr/share/nodejs');
  process.exit(1);
}

const port = Number(process.argv[2] || process.env.PORT || 8080);
const host = process.env.HOST || '127.0.0.1';
const paths = new Set(['/chat', '/ws']);

// Plain HTTP requests get a 404; only upgrades on the two paths become WebSockets.
const server = http.createServer((request, response) => {
  response.writeHead(404);
  response.end();
});
// noServer so that one server can accept two paths; ws still tracks its clients in wss.clients. Compression is
// off, as it is by default in ws 8 for servers.
const wss = new WebSocket.WebSocketServer({ noServer: true, perMessageDeflate: false });

server.on('upgrade', (request, socket, head) => {
  const path = new URL(request.url, 'http://localhost').pathname;
  if (!paths.has(path)) {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
});

wss.on('connection', (ws) => {
  // A reset connection emits 'error' before 'close'; without a listener Node would stop the process.
  ws.on('error', () => {});
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      return;
    }
    // Like the README's example: no per-client limit, so a slow reader's frames queue in memory.
    for (const client of wss.clients) {
      if (client.readyState === WebSocket.OPEN) {
        client.send(data, { binary: false });
      }
    }
  });
});

server.listen(port, host, () => {
  console.log(`node ws broadcast server listening on ${host}:${port} (/chat, /ws)`);
});
