import Hummingbird
import PlayersProtocol

/// The answer of `POST /v1/changes`, encoded by the context's encoder.
extension PlayersChangeResults: ResponseEncodable {}
