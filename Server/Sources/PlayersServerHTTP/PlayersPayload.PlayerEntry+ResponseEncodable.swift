import Hummingbird
import PlayersProtocol

/// A player is answered as the sync protocol sends it (`GET`, `POST`,
/// `PUT` of one player), by the context's encoder. Retroactive
/// (PlayersProtocol is CipherDB's, in another package), and safe:
/// PlayersProtocol never imports Hummingbird, so this is the one
/// conformance.
extension PlayersPayload.PlayerEntry: @retroactive ResponseEncodable, @retroactive ResponseGenerator {}
