import ArgumentParser

/// How the server writes its log (`--log-format`): swift-log's text lines,
/// or one JSON object a line (``JSONLogHandler``).
enum LogFormat: String, CaseIterable, ExpressibleByArgument {
    case text
    case json
}
