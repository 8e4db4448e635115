import Foundation

/// The data directory holds every message and password digest: readable by the server's user only.
enum DataDirectory {
    /// Creates the directory (0700) and the database file (0600) if missing, and narrows both, and SQLite's
    /// `-wal` and `-shm` files, if they are wider. SQLite gives the files it creates beside a database the
    /// database file's mode, so creating that file first decides theirs too. Without a `database` (on PostgreSQL)
    /// only the directory, which holds attachments.
    static func prepare(_ directory: String, database: String? = nil) throws {
        let files = FileManager.default
        try files.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        guard let database else { return }
        if !files.fileExists(atPath: database) {
            guard files.createFile(atPath: database, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: database])
            }
        }
        for path in [database, database + "-wal", database + "-shm"] where files.fileExists(atPath: path) {
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }
}
