import Foundation
import NIOCore

extension PlayersServerCommand {
    /// An error of listening on `--host` and `--port` in words, with what to
    /// do; nil for any other error. NIO reports the errno of `bind(2)`.
    func listeningFailure(_ error: any Error) -> ServerFailure? {
        if error is SocketAddressError {
            return ServerFailure("cannot listen on \(host): it is neither an address nor a known host name: give one of this machine's addresses with --host")
        }
        guard let error = error as? IOError else { return nil }
        return switch error.errnoCode {
        case EADDRINUSE:
            ServerFailure("port \(port) is already in use: stop the other process or choose another --port")
        case EACCES:
            ServerFailure("cannot listen on port \(port): permission denied (ports below 1024 need privileges): choose another --port")
        case EADDRNOTAVAIL:
            ServerFailure("cannot listen on \(host): it is not an address of this machine: give one of its addresses with --host")
        default:
            ServerFailure("cannot listen on \(host) port \(port): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}
