import Logging
import ServiceLifecycle
import SyncServerAuth
import UnixSignals

/// Under `--auth jwt`: SIGHUP reads `--jwt-key-file` again (a key set
/// rotated), logging the outcome; a file that cannot be used leaves the
/// keys in use. Without a verifier, it only waits for the shutdown.
struct KeyReloadOnHangUp: Service {
    let verifier: TokenVerifier?
    let logger: Logger

    func run() async throws {
        guard let verifier else {
            try? await gracefulShutdown()
            return
        }
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try await verifier.reloadKeys()
                logger.notice("Read the JWT key file again.", metadata: ["file": "\(verifier.keyFile)", "kind": "\(verifier.keyKind.rawValue)"])
            } catch {
                logger.error("Kept the JWT keys in use: \(error)")
            }
        }
    }
}
