/// The version every component of this build reports: `--version`, `GET /api/v1/config`, the
/// `swiftchat_build_info` metric, the release archive's name and outbound requests' `User-Agent`. Written here only;
/// `CHANGELOG.md` says what each version changed, and `scripts/release.sh` reads it from this file.
public enum SwiftChatVersion {
    public static let current = "0.6.0"
}
