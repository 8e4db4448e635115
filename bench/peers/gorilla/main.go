package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	defaultPort := os.Getenv("PORT")
	if defaultPort == "" {
		defaultPort = "8080"
	}
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.String("port", defaultPort, "port to listen on (default: $PORT, else 8080)")
	flag.Parse()

	hub := newHub()
	go hub.run()
	// /chat is the path chat-bench loads; /ws is the example's own.
	for _, path := range []string{"/chat", "/ws"} {
		http.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { serveWs(hub, w, r) })
	}
	server := &http.Server{
		Addr:              net.JoinHostPort(*host, *port),
		ReadHeaderTimeout: 3 * time.Second,
	}
	log.Printf("gorilla chat hub listening on %s (/chat, /ws)", server.Addr)
	log.Fatal(server.ListenAndServe())
}
