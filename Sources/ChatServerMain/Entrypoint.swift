import ArgumentParser
import ChatServer

/// `chat-server`: everything lives in `ChatServer`; this target only names the entry point.
@main
extension ServerCommand {}
