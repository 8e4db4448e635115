#if canImport(SwiftUI)
import ChatAppModel
import SwiftUI

/// The chat list: avatar, name, last message, time and unread badge; most recent first; searchable.
struct ChatListView: View {
    let model: AppModel
    @State private var query = ""

    private var rows: [ChatRow] {
        let rows = self.model.chats.rows
        guard !self.query.isEmpty else { return rows }
        return rows.filter {
            $0.name.localizedCaseInsensitiveContains(self.query)
                || $0.preview.localizedCaseInsensitiveContains(self.query)
        }
    }

    var body: some View {
        VStack(spacing: 0) {
            ConnectionBanner(model: self.model)
            List(self.rows) { row in
                NavigationLink(value: row.id) { ChatRowView(row: row) }
            }
            .listStyle(.plain)
            .refreshable { await self.model.refreshRooms() }
        }
        .searchable(text: self.$query)
        .navigationTitle("Chats")
        .navigationDestination(for: String.self) { room in ChatDetailView(model: self.model, room: room) }
    }
}

struct ChatRowView: View {
    let row: ChatRow

    var body: some View {
        HStack(alignment: .top) {
            AvatarView(initials: self.row.initials, color: self.row.avatarColor)
                .overlay(alignment: .topTrailing) {
                    if self.row.unread > 0 {
                        Text(self.row.unread > 99 ? "99+" : "\(self.row.unread)")
                            .font(.caption2.bold())
                            .foregroundStyle(.white)
                            .padding(.horizontal, 5)
                            .background(.red, in: Capsule())
                            .offset(x: 8, y: -6)
                    }
                }
            VStack(alignment: .leading, spacing: 2) {
                HStack {
                    Text(self.row.name).font(.body)
                    Spacer()
                    if self.row.lastActivity > 0 {
                        Text(Date(timeIntervalSince1970: Double(self.row.lastActivity) / 1000), style: .time)
                            .font(.caption).foregroundStyle(.secondary)
                    }
                }
                Text(self.row.lastSender.map { "\($0): \(self.row.preview)" } ?? self.row.preview)
                    .font(.subheadline).foregroundStyle(.secondary).lineLimit(1)
            }
        }
    }
}
#endif
