#if canImport(SwiftUI)
import ChatAppModel
import ChatClient
import SwiftUI

/// The SwiftChat app: a sign-in screen, then WeChat's four tabs.
@main
struct SwiftChatApp: App {
    @State private var model = AppModel()

    var body: some Scene {
        WindowGroup {
            if self.model.user == nil {
                LoginView(model: self.model)
            } else {
                MainTabView(model: self.model)
            }
        }
    }
}

/// Server, username and password; register or sign in.
struct LoginView: View {
    let model: AppModel
    @State private var server = "http://127.0.0.1:8080"
    @State private var username = ""
    @State private var password = ""
    @State private var busy = false

    var body: some View {
        Form {
            Section("Server") {
                TextField("http://host:8080", text: self.$server)
                    .autocorrectionDisabled()
            }
            Section("Account") {
                TextField("Username", text: self.$username)
                    .autocorrectionDisabled()
                SecureField("Password", text: self.$password)
            }
            if let error = self.model.signInError {
                Text(error).foregroundStyle(.red).font(.footnote)
            }
            HStack {
                Button("Sign in") { self.go(register: false) }
                Spacer()
                Button("Create account") { self.go(register: true) }
            }
            .disabled(self.busy || self.username.isEmpty || self.password.isEmpty)
        }
        .navigationTitle("SwiftChat")
    }

    private func go(register: Bool) {
        guard let address = ServerAddress(self.server) else { return }
        self.busy = true
        Task {
            await self.model.signIn(
                server: address, username: self.username, password: self.password, register: register)
            self.busy = false
        }
    }
}
#endif
