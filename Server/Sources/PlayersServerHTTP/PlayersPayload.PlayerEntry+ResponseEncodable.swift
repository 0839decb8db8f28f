import Hummingbird
import PlayersProtocol

/// A player is answered as the sync protocol sends it (`GET`, `POST`,
/// `PUT` of one player), by the context's encoder.
extension PlayersPayload.PlayerEntry: ResponseEncodable {}
