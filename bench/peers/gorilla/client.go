package main

import (
	"log"
	"net/http"
	"time"

	"github.com/gorilla/websocket"
)

// The example's timings, unchanged.
const (
	// Time allowed to write a message to the peer.
	writeWait = 10 * time.Second
	// Time allowed to read the next pong message from the peer.
	pongWait = 60 * time.Second
	// Send pings to the peer with this period. Must be less than pongWait.
	pingPeriod = (pongWait * 9) / 10
	// The largest message accepted. The example allows 512 bytes; chat-bench's frames are a JSON envelope
	// around up to 4 KiB of text, so this is raised to 64 KiB.
	maxMessageSize = 64 << 10
	// Messages queued for one client before the hub drops it (the example's value).
	sendQueue = 256
)

// The example's buffer sizes: they are most of an idle connection's memory, so they stay as people run them.
var upgrader = websocket.Upgrader{
	ReadBufferSize:  1024,
	WriteBufferSize: 1024,
}

// Client is the middleman between one WebSocket connection and the hub.
type Client struct {
	hub  *Hub
	conn *websocket.Conn
	// Messages waiting to be written to this connection.
	send chan []byte
}

// readPump passes the connection's text frames to the hub. It runs in its own goroutine, the only reader of
// the connection.
func (c *Client) readPump() {
	defer func() {
		c.hub.unregister <- c
		c.conn.Close()
	}()
	c.conn.SetReadLimit(maxMessageSize)
	c.conn.SetReadDeadline(time.Now().Add(pongWait))
	c.conn.SetPongHandler(func(string) error { c.conn.SetReadDeadline(time.Now().Add(pongWait)); return nil })
	for {
		kind, message, err := c.conn.ReadMessage()
		if err != nil {
			// The example logs every close but these two; a normal close (every chat-bench client's) is
			// expected too, and 10,000 log lines would cost the server CPU.
			expected := []int{websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseAbnormalClosure}
			if websocket.IsUnexpectedCloseError(err, expected...) {
				log.Printf("read: %v", err)
			}
			break
		}
		// Relayed verbatim. The example trims spaces and turns line breaks into spaces, because it joins
		// queued messages with line breaks (see writePump); this relay keeps every frame as it was sent.
		if kind == websocket.TextMessage {
			c.hub.broadcast <- message
		}
	}
}

// writePump writes the hub's messages and the keepalive pings to the connection. It runs in its own
// goroutine, the only writer of the connection.
func (c *Client) writePump() {
	ticker := time.NewTicker(pingPeriod)
	defer func() {
		ticker.Stop()
		c.conn.Close()
	}()
	for {
		select {
		case message, ok := <-c.send:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if !ok {
				// The hub closed the queue.
				c.conn.WriteMessage(websocket.CloseMessage, []byte{})
				return
			}
			// One frame per message. The example instead appends every message already queued to the same
			// frame, separated by line breaks: fewer writes, but a receiver then gets several chat messages
			// in one frame, which a load generator that counts frames (chat-bench) would miss.
			if err := c.conn.WriteMessage(websocket.TextMessage, message); err != nil {
				return
			}
		case <-ticker.C:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		}
	}
}

// serveWs upgrades the request to a WebSocket and registers the new client with the hub.
func serveWs(hub *Hub, w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		log.Println(err)
		return
	}
	client := &Client{hub: hub, conn: conn, send: make(chan []byte, sendQueue)}
	client.hub.register <- client
	// Each pump in its own goroutine, so that the hub never waits on a socket.
	go client.writePump()
	go client.readPump()
}
