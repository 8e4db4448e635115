// A reference chat server for scripts/bench.sh --peers, modelled on the chat example of
// github.com/gorilla/websocket (examples/chat): one hub goroutine owns the set of clients, and each client has a
// read pump and a write pump. See ../README.md for where it differs from the example and why.
package main

// Hub keeps the set of connected clients and relays every message to all of them, the sender included.
// Only the run goroutine touches clients, so it needs no lock.
type Hub struct {
	clients    map[*Client]bool
	broadcast  chan []byte
	register   chan *Client
	unregister chan *Client
}

func newHub() *Hub {
	return &Hub{
		clients:    make(map[*Client]bool),
		broadcast:  make(chan []byte),
		register:   make(chan *Client),
		unregister: make(chan *Client),
	}
}

func (h *Hub) run() {
	for {
		select {
		case client := <-h.register:
			h.clients[client] = true
		case client := <-h.unregister:
			if _, ok := h.clients[client]; ok {
				delete(h.clients, client)
				close(client.send)
			}
		case message := <-h.broadcast:
			for client := range h.clients {
				select {
				case client.send <- message:
				default:
					// As in the example: a client whose queue is full is too slow to keep up, so it is
					// dropped (its write pump sends a close frame) rather than holding up everyone else.
					close(client.send)
					delete(h.clients, client)
				}
			}
		}
	}
}
