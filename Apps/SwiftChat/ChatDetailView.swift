#if canImport(SwiftUI)
import ChatAppModel
import SwiftUI

/// One conversation: bubbles, respectful autoscroll with a "new messages" pill, older pages on scrolling up,
/// a typing line and the input bar.
struct ChatDetailView: View {
    let model: AppModel
    let room: String
    @State private var conversation: ConversationModel?
    @State private var draft = ""

    var body: some View {
        VStack(spacing: 0) {
            ConnectionBanner(model: self.model)
            if let conversation = self.conversation {
                MessagesList(conversation: conversation)
                InputBar(draft: self.$draft) { text in
                    conversation.send(text)
                } onType: {
                    conversation.userTyped()
                }
            } else {
                ProgressView().frame(maxHeight: .infinity)
            }
        }
        .navigationTitle(self.model.chats.rows.first { $0.id == self.room }?.name ?? self.room)
        .task { self.conversation = await self.model.open(room: self.room) }
        .onDisappear { self.model.close(room: self.room) }
    }
}

struct MessagesList: View {
    let conversation: ConversationModel

    var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                LazyVStack(spacing: 8) {
                    if self.conversation.hasMoreHistory {
                        ProgressView()
                            .onAppear { Task { await self.conversation.loadOlder() } }
                    }
                    ForEach(self.conversation.items) { item in
                        ChatMessageRow(item: item) { self.conversation.retry(item) }
                            .id(item.id)
                    }
                    // The bottom sentinel: visible means the reader is at the bottom (follow new messages).
                    Color.clear.frame(height: 1)
                        .id("bottom")
                        .onAppear { self.conversation.isAtBottom = true }
                        .onDisappear { self.conversation.isAtBottom = false }
                }
                .padding(.horizontal)
            }
            .overlay(alignment: .bottom) {
                VStack {
                    TimelineView(.periodic(from: .now, by: 1)) { _ in
                        let names = self.conversation.typingNames()
                        if !names.isEmpty {
                            Text("\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") typing…")
                                .font(.caption).foregroundStyle(.secondary)
                        }
                    }
                    if self.conversation.unseenCount > 0 {
                        Button(
                            "\(self.conversation.unseenCount) new message\(self.conversation.unseenCount == 1 ? "" : "s") ↓"
                        ) {
                            self.conversation.jumpToLatest()
                        }
                        .buttonStyle(.borderedProminent)
                        .clipShape(Capsule())
                    }
                }
                .padding(.bottom, 8)
            }
            .onChange(of: self.conversation.scrollRequest?.serial) {
                guard let id = self.conversation.scrollRequest?.id else { return }
                withAnimation { proxy.scrollTo(id, anchor: .bottom) }
            }
        }
        .background(Color(white: 0.93))
    }
}

struct InputBar: View {
    @Binding var draft: String
    let onSend: (String) -> Void
    let onType: () -> Void

    var body: some View {
        HStack {
            TextField("Message", text: self.$draft, axis: .vertical)
                .textFieldStyle(.roundedBorder)
                .lineLimit(1...5)
                .onChange(of: self.draft) { if !self.draft.isEmpty { self.onType() } }
                .onSubmit(self.send)
            Button("Send", action: self.send)
                .disabled(self.draft.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
        .padding(8)
    }

    private func send() {
        self.onSend(self.draft)
        self.draft = ""
    }
}
#endif
