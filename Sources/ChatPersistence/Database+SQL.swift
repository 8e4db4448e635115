import FluentKit
import SQLKit

extension Database {
    /// This database as SQLKit's, which every store here needs (SQLite and PostgreSQL both are): a database that is
    /// not one is a wiring mistake, stopped at start-up.
    func requiredSQL(by user: String) -> any SQLDatabase {
        guard let sql = self as? any SQLDatabase else {
            preconditionFailure("\(user) needs an SQL database (SQLite or PostgreSQL).")
        }
        return sql
    }

    /// This database as SQLKit's when it speaks `dialect` (`"sqlite"`, `"postgresql"`), else `nil`: for the
    /// migrations that concern one of the two.
    func sql(ifDialect dialect: String) -> (any SQLDatabase)? {
        guard let sql = self as? any SQLDatabase, sql.dialect.name == dialect else { return nil }
        return sql
    }
}
