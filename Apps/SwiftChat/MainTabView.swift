#if canImport(SwiftUI)
import ChatAppModel
import SwiftUI

/// Chats / Contacts / Discover / Me, as in the WeChat-style tutorial; the unread total badges the Chats tab.
struct MainTabView: View {
    let model: AppModel

    var body: some View {
        TabView {
            NavigationStack { ChatListView(model: self.model) }
                .tabItem { Label("Chats", systemImage: "message") }
                .badge(Int(self.model.chats.totalUnread))
            NavigationStack { ContactsView(model: self.model) }
                .tabItem { Label("Contacts", systemImage: "person.2") }
            NavigationStack { DiscoverView() }
                .tabItem { Label("Discover", systemImage: "safari") }
            NavigationStack { MeView(model: self.model) }
                .tabItem { Label("Me", systemImage: "person") }
        }
    }
}

/// The connection's status under the navigation bar, hidden while connected.
struct ConnectionBanner: View {
    let model: AppModel

    var body: some View {
        if !self.model.statusText.isEmpty {
            Text(self.model.statusText)
                .font(.footnote)
                .frame(maxWidth: .infinity)
                .padding(6)
                .background(.yellow.opacity(0.3))
        }
    }
}

/// People I share a direct room with.
struct ContactsView: View {
    let model: AppModel

    var body: some View {
        List(self.model.chats.rows.filter { $0.kind == .direct }) { row in
            NavigationLink(value: row.id) {
                HStack {
                    AvatarView(initials: row.initials, color: row.avatarColor)
                    Text(row.name)
                }
            }
        }
        .navigationTitle("Contacts")
        .navigationDestination(for: String.self) { room in ChatDetailView(model: self.model, room: room) }
    }
}

/// A placeholder tab, as in the tutorial.
struct DiscoverView: View {
    var body: some View {
        List {
            Label("Moments", systemImage: "camera")
            Label("Scan", systemImage: "qrcode.viewfinder")
        }
        .navigationTitle("Discover")
    }
}

/// My profile and signing out.
struct MeView: View {
    let model: AppModel

    var body: some View {
        List {
            if let user = self.model.user {
                HStack {
                    AvatarView(initials: user.initials, color: user.avatarColor)
                    VStack(alignment: .leading) {
                        Text(user.displayName).font(.headline)
                        Text("@\(user.username)").foregroundStyle(.secondary)
                    }
                }
            }
            Button("Sign out", role: .destructive) { Task { await self.model.signOut() } }
        }
        .navigationTitle("Me")
    }
}

/// A round avatar with initials on the user's colour.
struct AvatarView: View {
    let initials: String
    let color: String?

    var body: some View {
        Text(self.initials)
            .font(.subheadline.bold())
            .foregroundStyle(.white)
            .frame(width: 40, height: 40)
            .background(Color(hex: self.color ?? "#07C160"), in: RoundedRectangle(cornerRadius: 6))
    }
}

extension Color {
    /// `#RRGGBB`.
    init(hex: String) {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0x07C160
        self.init(
            red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
            blue: Double(value & 0xFF) / 255)
    }
}
#endif
