import ArgumentParser
import Logging

/// `--log-level trace|debug|info|notice|warning|error|critical`, the names
/// of swift-log's levels.
extension Logger.Level: @retroactive ExpressibleByArgument {}
