print("chat")
