/// Cursors of the players protocol (`COUNTER.EPOCH.SERVER`) in one
/// made-up history of one made-up server, for the pages that scripted
/// servers answer.
///
/// ```swift
/// let page = #"{"protocolVersion":1,"kind":"delta","complete":true,"cursor":"\#(ScriptedCursor.at(31))","players":[],"tombstones":[]}"#
/// ```
public enum ScriptedCursor {
    public static let server = "00000000-0000-4000-8000-0000000000AA"
    public static let epoch = "00000000000000e1"

    /// The cursor at `counter`; `epoch` and `server` name another history.
    public static func at(_ counter: Int64, epoch: String = epoch, server: String = server) -> String {
        "\(counter).\(epoch).\(server)"
    }
}
