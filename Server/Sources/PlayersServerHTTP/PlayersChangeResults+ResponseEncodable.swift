import Hummingbird
import PlayersProtocol

/// The answer of `POST /v1/changes`, encoded by the context's encoder.
/// Retroactive (PlayersProtocol is CipherDB's, in another package), and
/// safe: PlayersProtocol never imports Hummingbird, so this is the one
/// conformance.
extension PlayersChangeResults: @retroactive ResponseEncodable, @retroactive ResponseGenerator {}
