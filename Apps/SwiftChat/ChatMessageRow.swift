#if canImport(SwiftUI)
import ChatAppModel
import SwiftUI

/// One bubble, after the SwiftUI tutorial's `ChatMessageRow`: mine on the right in green, others' on the left in
/// white with the sender's name; a clock while pending, a red retry button when failed; edits, deletes, replies,
/// attachments and reactions as the §9 timeline gives them.
struct ChatMessageRow: View {
    let item: MessageItem
    let retry: () -> Void

    var body: some View {
        HStack(alignment: .bottom, spacing: 6) {
            if self.item.isMine { Spacer(minLength: 48) }
            if self.item.isMine { self.status }
            VStack(alignment: self.item.isMine ? .trailing : .leading, spacing: 2) {
                if !self.item.isMine {
                    Text(self.item.sender).font(.caption).foregroundStyle(.secondary)
                }
                self.bubble
                if let reactions = self.item.message?.reactions, !reactions.isEmpty {
                    HStack { ForEach(reactions, id: \.emoji) { Text("\($0.emoji) \($0.users.count)").font(.caption) } }
                }
            }
            if !self.item.isMine { Spacer(minLength: 48) }
        }
    }

    private var bubble: some View {
        VStack(alignment: .leading, spacing: 4) {
            if let quote = self.item.message?.replyTo {
                Text("\(quote.sender.name): \(quote.text)")
                    .font(.caption).foregroundStyle(.secondary).lineLimit(2)
            }
            if self.item.message?.deleted == true {
                Text("Message deleted").italic().foregroundStyle(.secondary)
            } else {
                if !self.item.text.isEmpty { Text(self.item.text) }
                ForEach(self.item.message?.attachments ?? [], id: \.id) { attachment in
                    Label(attachment.name, systemImage: attachment.contentType.hasPrefix("image/") ? "photo" : "doc")
                        .font(.footnote)
                }
            }
            if let date = self.item.message?.date {
                HStack(spacing: 4) {
                    if self.item.message?.editedAt != nil { Text("edited") }
                    Text(Date(timeIntervalSince1970: Double(date) / 1000), style: .time)
                }
                .font(.caption2).foregroundStyle(.secondary)
            }
        }
        .padding(10)
        .background(
            self.item.isMine ? Color(red: 0.58, green: 0.93, blue: 0.41) : .white, in: RoundedRectangle(cornerRadius: 8)
        )
    }

    @ViewBuilder private var status: some View {
        switch self.item.delivery {
        case .sent: EmptyView()
        case .pending: Image(systemName: "clock").foregroundStyle(.secondary)
        case .failed:
            Button(action: self.retry) { Image(systemName: "exclamationmark.circle.fill").foregroundStyle(.red) }
                .accessibilityLabel("Retry")
        }
    }
}
#endif
