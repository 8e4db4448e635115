import ChatClient
