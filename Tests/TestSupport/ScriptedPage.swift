import Foundation

/// Pages of the sync engine's `GET /v1/sync/rows` for scripted servers,
/// written by hand as a server of another implementation would.
///
/// ```swift
/// let page = ScriptedPage.json(kind: "snapshot", cursor: ScriptedCursor.at(1),
///                              rows: [ScriptedPage.playerRow(uuid: uuid, name: "Arthur", score: 10, version: 1)])
/// ```
public enum ScriptedPage {
    /// A complete page of `rows` (JSON objects) and no tombstone.
    public static func json(kind: String, cursor: String, rows: [String]) -> String {
        #"{"protocolVersion":1,"kind":"\#(kind)","complete":true,"cursor":"\#(cursor)","rows":["#
            + rows.joined(separator: ",") + #"],"tombstones":[]}"#
    }

    /// A row of the players' `player` table.
    public static func playerRow(uuid: String, name: String, score: Int, version: Int) -> String {
        let escapedName = String(decoding: try! JSONEncoder().encode(name), as: UTF8.self)
        return #"{"table":"player","id":"\#(uuid)","version":\#(version),"values":{"name":\#(escapedName),"score":\#(score)}}"#
    }
}
